import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import type { Session } from '../../src/engine/types';

// Files a new user drops that are no UTF-8 text, generated from the fixtures: random bytes under a
// transcript's name, a gzipped log, UTF-16 whole-JSON files, a file of blanks, a log whose tail or
// head is NUL bytes. Before: 200 kB of random bytes named as a Codex rollout (or a pi or Gemini
// CLI log) made 828 not-JSON errors and 828 invalid-UTF-8 warnings, the file's own word after
// them (in a session folder, `inspect` listed 50 warnings and hid the error behind "… 1 more");
// a UTF-16 `ui_messages.json` was "not a JSON array" (or, without a byte-order mark, a not-JSON
// error per element); a NUL tail was "cut off in the middle of a record".

const FIXTURES = join(__dirname, '../fixtures');
const fixture = (name: string): Buffer => readFileSync(join(FIXTURES, name));

/** Deterministic bytes that look like nothing (an LCG's high bytes). */
function randomBytes(n: number): Uint8Array {
  const out = new Uint8Array(n);
  let s = 12345;
  for (let i = 0; i < n; i++) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    out[i] = s >> 16;
  }
  return out;
}

const utf16le = (text: string): Buffer => Buffer.from(`\ufeff${text}`, 'utf16le');

const parse = (files: [string, Uint8Array | string][]): Promise<Session> =>
  parseSession(files.map(([name, bytes]) => createMemorySource(name, bytes)));

const CODEX = 'rollout-2026-04-08T22-18-42-019d6d75-b03d-7f83-a2c7-c3478007d5e0.jsonl';
const PI = '2026-03-09T12-00-00-000Z_7d3f0a52-6c1e-4b8a-9f27-3e5d1c0b8a64.jsonl';
const GEMINI_LOG = 'session-2026-03-09T11-00-5e6f7a8b.jsonl';
const CLAUDE = '7c1d2e3f-4a5b-4c6d-8e7f-0a1b2c3d4e5f.jsonl';

describe('a file that is no text', () => {
  it.each([CODEX, PI, GEMINI_LOG, CLAUDE, 'notes.jsonl', 'ui_messages.json', 'session.anthropic.json'])(
    'random bytes named %s: one error saying it is binary data, nothing else',
    async (name) => {
      const session = await parse([[name, randomBytes(200_000)]]);
      expect(session.entries).toHaveLength(0);
      expect(session.issues.map((i) => [i.line, i.code, i.severity, i.message])).toEqual([
        [0, 'not-a-transcript', 'error', `${name} is not a transcript: it is binary data, not text`],
      ]);
    },
  );

  it('a gzipped log is named as one, with the command that reads it', async () => {
    const session = await parse([[CODEX, gzipSync(fixture('tiny.jsonl'))]]);
    expect(session.issues.map((i) => i.message)).toEqual([
      `${CODEX} is not a transcript: it is gzip-compressed data: decompress it first (gunzip)`,
    ]);
  });

  it('a binary subagent log beside its session: the session loads, the log is one error', async () => {
    const main = fixture('tiny.jsonl');
    const plain = await parse([[CLAUDE, main]]);
    const session = await parse([
      [CLAUDE, main],
      ['7c1d2e3f-4a5b-4c6d-8e7f-0a1b2c3d4e5f/subagents/agent-a0f1e2d3c4b5a6978.jsonl', randomBytes(50_000)],
    ]);
    expect(session.entries.length).toBe(plain.entries.length);
    expect(session.issues.map((i) => [i.fileIndex, i.code])).toEqual([[1, 'not-a-transcript']]);
  });

  it('zeros at a log’s head (a crash’s unwritten block): every record after them still loads', async () => {
    const lines = fixture('tiny.jsonl');
    const zeros = new Uint8Array(4096);
    const session = await parse([[CLAUDE, Buffer.concat([zeros, Buffer.from('\n'), lines])]]);
    const plain = await parse([[CLAUDE, lines]]);
    expect(session.entries.length).toBe(plain.entries.length);
    expect(session.issues.map((i) => [i.line, i.code, i.severity])).toEqual([[1, 'not-json', 'warning']]);
    expect(session.issues[0]!.message).toBe(
      'Line 1 holds only NUL bytes (4,096): a write cut off, or space kept for one; it was ignored',
    );
  });

  it('zeros at a log’s tail: a warning naming them, not a record cut off', async () => {
    const lines = fixture('tiny.jsonl');
    const session = await parse([[CLAUDE, Buffer.concat([lines, new Uint8Array(4096)])]]);
    const count = lines.toString('utf8').trimEnd().split('\n').length;
    expect(session.issues.map((i) => [i.line, i.code, i.severity, i.message])).toEqual([
      [
        count + 1,
        'not-json',
        'warning',
        `Line ${count + 1} holds only NUL bytes (4,096): a write cut off, or space kept for one; it was ignored`,
      ],
    ]);
  });
});

describe('a whole-JSON file that is no UTF-8 JSON text', () => {
  it.each([
    ['cline-task/ui_messages.json', 'ui_messages.json'],
    ['cline-api_conversation_history.json', 'api_conversation_history.json'],
    ['agents/session-2026-03-09T10-00-1a2b3c4d.json', 'session-2026-03-09T10-00-1a2b3c4d.json'],
  ])('%s in UTF-16, with and without a byte-order mark: named UTF-16, with iconv', async (path, name) => {
    const text = fixture(path).toString('utf8');
    for (const bytes of [utf16le(text), Buffer.from(text, 'utf16le')]) {
      const session = await parse([[name, bytes]]);
      expect(session.issues.map((i) => [i.code, i.message])).toEqual([
        [
          'not-a-transcript',
          `${name} is UTF-16 (little-endian) text; transcripts are UTF-8 JSON: convert it first (iconv -f UTF-16 -t UTF-8)`,
        ],
      ]);
    }
  });

  it('a ui_messages.json of blanks is empty, not "not a JSON array"; its task folder still loads', async () => {
    const history = fixture('cline-task/api_conversation_history.json');
    const session = await parse([
      ['task/ui_messages.json', ' \n\t\n  '],
      ['task/api_conversation_history.json', history],
    ]);
    expect(session.entries.length).toBeGreaterThan(0);
    expect(session.issues.map((i) => [i.code, i.severity, i.message])).toContainEqual([
      'empty-file',
      'warning',
      'ui_messages.json holds only whitespace: there is nothing to show',
    ]);
  });
});
