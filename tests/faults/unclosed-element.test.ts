import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import type { Session } from '../../src/engine/types';
import { cpuMsAsync } from '../helpers/cpu-time';

// A whole-JSON log (Cline's ui_messages.json, Gemini CLI's chat) with one record damaged in the
// middle so that a bracket of it never closes: the forward scan took every later record for part
// of it and said the file "ends inside it", losing them all (18 of the Cline fixture's 55 entries
// kept at line 236 of 487). They are read backwards from the array's end now: one error at the
// damaged record, naming where the next one starts, every record after it loaded. A file truly cut
// off stays "cut off", even one cut right after an inner array's `]`.

const FIXTURES = join(__dirname, '../fixtures');
const parse = (name: string, text: string): Promise<Session> =>
  parseSession([createMemorySource(name, text)]);

/** The text with `insert` put in as a line of its own before 1-based line `at`. */
function withLine(text: string, at: number, insert: string): string {
  const lines = text.split('\n');
  lines.splice(at - 1, 0, insert);
  return lines.join('\n');
}

describe('a whole-JSON record whose brackets never close', () => {
  const ui = readFileSync(join(FIXTURES, 'cline-task/ui_messages.json'), 'utf8');

  it.each([
    ['half a record', '{"type":"user", this is not json'],
    ['100,000 open brackets', '['.repeat(100_000)],
  ])(
    'Cline ui_messages.json with %s inside record 20: one error there, every later record read',
    async (_, damage) => {
      const clean = await parse('ui_messages.json', ui);
      const session = await parse('ui_messages.json', withLine(ui, 244, damage));
      expect(session.entries.length).toBe(clean.entries.length - 1);
      expect(session.apiCalls.length).toBe(clean.apiCalls.length - 1);
      const errors = session.issues.filter((i) => i.severity === 'error');
      expect(errors.map((i) => [i.line, i.code, i.message])).toEqual([
        [
          236,
          'not-json',
          'The record at line 236 (element 20 of the array) is not JSON: its brackets do not close before the next record, at line 249; the records from there on were read',
        ],
      ]);
    },
  );

  it('a Gemini CLI chat with open brackets inside a message: the later messages read', async () => {
    const name = 'session-2026-03-09T10-00-1a2b3c4d.json';
    const chat = readFileSync(join(FIXTURES, 'agents', name), 'utf8');
    const clean = await parse(name, chat);
    const session = await parse(name, withLine(chat, 40, '['.repeat(1000)));
    expect(session.entries.length).toBe(clean.entries.length - 1);
    expect(session.issues.filter((i) => i.severity === 'error').map((i) => i.code)).toEqual(['not-json']);
  });

  it('a file cut off, even right after an inner `]`, is still cut off: nothing read back from inside the cut record', async () => {
    const history = readFileSync(join(FIXTURES, 'cline-api_conversation_history.json'), 'utf8');
    // Cut right after the `]` that closes a record's content blocks.
    const cut = history.slice(0, history.indexOf(']', history.indexOf('"content": [', 2000)) + 1);
    const session = await parse('api_conversation_history.json', cut);
    const clean = await parse('api_conversation_history.json', history);
    expect(session.entries.length).toBeLessThan(clean.entries.length);
    expect(session.issues.filter((i) => i.severity === 'error').map((i) => i.code)).toEqual([
      'truncated-line',
    ]);
    expect(session.issues.at(-1)!.message).toMatch(/is cut off: the file ends inside it/);
  });

  // A garbage line put between two records of raw API traffic (one record a line): the forward
  // scan glued the next record to it, or took every later one inside it, and the backward read
  // wanted a comma before the first record it kept (2 of the fixture's 4 calls read).
  it.each([
    ['half a record', '{"cut off'],
    ['a string never closed', '"unterminated string'],
    ['text', 'not json at all'],
    ['closing brackets', 'garbage ]]] }}'],
  ])(
    'API traffic (JSON array) with %s between records: one error at it, every record after read',
    async (_, damage) => {
      const name = 'session.anthropic.json';
      const traffic = readFileSync(join(FIXTURES, 'api', name), 'utf8');
      const clean = await parse(name, traffic);
      expect(clean.apiCalls).toHaveLength(4);
      const session = await parse(name, withLine(traffic, 5, damage));
      expect(session.entries.length).toBe(clean.entries.length);
      expect(session.apiCalls.length).toBe(4);
      const errors = session.issues.filter((i) => i.severity !== 'info');
      expect(errors.map((i) => [i.line, i.code])).toEqual([[5, 'not-json']]);
      expect(errors[0]!.message).toMatch(/^The record at line 5 \(element 4 of the array\) is not JSON/);
    },
  );

  it('two records without the comma between them: both read, a warning', async () => {
    const name = 'session.anthropic.json';
    const lines = readFileSync(join(FIXTURES, 'api', name), 'utf8').split('\n');
    lines[3] = lines[3]!.replace(/,$/, '');
    const session = await parse(name, lines.join('\n'));
    expect(session.apiCalls.length).toBe(4);
    expect(
      session.issues.filter((i) => i.severity !== 'info').map((i) => [i.line, i.severity, i.message]),
    ).toEqual([
      [
        5,
        'warning',
        'The record at line 4 (element 3 of the array) has no comma after it, before the record at line 5; both were read',
      ],
    ]);
  });

  it('reads back in time linear in the file (an unclosed record first, then 5k or 20k records)', async () => {
    const records = (n: number) =>
      Array.from({ length: n }, (_, i) =>
        JSON.stringify({
          ts: 1773050430000 + i,
          type: 'say',
          say: 'text',
          text: `message ${i} ${'x'.repeat(200)}`,
        }),
      );
    const file = (n: number) =>
      `[\n{"ts": 1773050429000, "type": "say", "text": {"open": [\n,${records(n).join(',\n')}\n]`;
    // And a garbage line glued to the first record, no comma between them.
    const glued = (n: number) => `[\nnot json at all\n${records(n).join(',\n')}\n]`;
    const gluedLarge = await parse('ui_messages.json', glued(20_000));
    expect(gluedLarge.entries.length).toBe(20_000);
    const gluedRatio =
      (await cpuMsAsync(() => parse('ui_messages.json', glued(20_000)))) /
      Math.max(1, await cpuMsAsync(() => parse('ui_messages.json', glued(5_000))));
    // 4× the records: a quadratic recovery would take ~16×; linear work measured up to 6.3× in a CI
    // run (the larger heap's collections), so the bound is 8 (ours).
    expect(gluedRatio).toBeLessThan(8);
    const small = file(5_000);
    const large = file(20_000);
    const session = await parse('ui_messages.json', large);
    expect(session.entries.length).toBe(20_000);
    const smallMs = await cpuMsAsync(() => parse('ui_messages.json', small));
    const largeMs = await cpuMsAsync(() => parse('ui_messages.json', large));
    expect(largeMs / Math.max(1, smallMs)).toBeLessThan(8);
  });
});
