import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';
import { escapeJsonText, escapeTerminalText } from '../../src/cli/terminal-text';

/** Anything a terminal would act on: C0 but tab and newline, DEL, C1, bidi controls. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching controls is the point.
const ACTIVE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

const TITLE = '\u001b]0;pwned\u0007';
const CLEAR = '\u001b[2J\u001b[H';
const CSI = '\u009b31m';
const RLO = '\u202eexe.txt';

const record = (extra: Record<string, unknown>) =>
  JSON.stringify({
    sessionId: 's1',
    cwd: `/home/${CLEAR}mira`,
    gitBranch: `main${RLO}`,
    version: '2.1.50',
    timestamp: '2026-02-01T10:00:00.000Z',
    isSidechain: false,
    ...extra,
  });

const transcript = [
  record({ type: 'user', uuid: 'u1', parentUuid: null, message: { role: 'user', content: `hi ${TITLE}` } }),
  record({
    type: 'assistant',
    uuid: 'a1',
    parentUuid: 'u1',
    requestId: 'req_1',
    message: {
      id: 'msg_1',
      role: 'assistant',
      model: `claude${TITLE}${CSI}`,
      content: [{ type: 'tool_use', id: 'toolu_1', name: `Bash${CLEAR}`, input: {} }],
      usage: {
        input_tokens: 10,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        output_tokens: 2,
      },
    },
  }),
  record({ type: `x-${TITLE}`, uuid: 'x1', parentUuid: 'a1' }),
  `not json ${TITLE}${CLEAR}`,
].join('\n');

describe('CLI text output of hostile transcripts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'compactlab-ansi-'));
  const file = join(dir, 'ansi.jsonl');
  writeFileSync(file, `${transcript}\n`);
  const empty = join(dir, 'empty.jsonl');
  writeFileSync(empty, '');
  const run = async (...args: string[]) => {
    const out: string[] = [];
    const code = await main(args, (t) => out.push(t));
    return { code, text: out.join('\n') };
  };

  it('shows escapes, title changes, C1 and bidi controls escaped in inspect and --dump', async () => {
    for (const args of [
      ['inspect', file],
      ['inspect', file, '--dump'],
    ]) {
      const { code, text } = await run(...args);
      expect(code).toBe(0);
      expect(text).not.toMatch(ACTIVE);
      expect(text).toContain('\\x1b]0;pwned\\x07');
    }
    const { text } = await run('inspect', file);
    expect(text).toContain('claude\\x1b]0;pwned\\x07\\u009b31m');
    expect(text).toContain('main\\u202eexe.txt');
    expect(text).toContain('/home/\\x1b[2J\\x1b[Hmira');
    expect(text).toMatch(/\n {2}.*:4 {2}error not-json {2}Line 4 is not JSON/);
  });

  it('keeps --json valid JSON with the exact strings', async () => {
    const { code, text } = await run('inspect', file, '--json');
    expect(code).toBe(0);
    expect(text).not.toMatch(ACTIVE);
    const report = JSON.parse(text);
    expect(report.models).toContain(`claude${TITLE}${CSI}`);
    expect(report.gitBranch).toBe(`main${RLO}`);
  });

  it('exits 1 on an empty file', async () => {
    expect((await run('inspect', empty)).code).toBe(1);
    expect((await run('inspect', empty, '--json')).code).toBe(1);
  });
});

describe('escapeTerminalText', () => {
  it('escapes every control but tab and newline, and leaves other text alone', () => {
    expect(escapeTerminalText('a\tb\nc\rd\u0000e\u007f\u0085 é 日本 🎉')).toBe(
      'a\tb\nc\\x0dd\\x00e\\u007f\\u0085 é 日本 🎉',
    );
    for (let code = 0; code < 0x2100; code++) {
      expect(escapeTerminalText(String.fromCharCode(code))).not.toMatch(ACTIVE);
    }
  });

  it('keeps JSON printed without --json (stats writes NDJSON by default) JSON', () => {
    // \x9b was printed for a C1 character in a string: no JSON escape, the row did not parse.
    const value = { s: `x${TITLE}${CSI}\u0085\u007f${RLO}\u200by` };
    const text = escapeTerminalText(JSON.stringify(value));
    expect(text).not.toMatch(ACTIVE);
    expect(JSON.parse(text)).toEqual(value);
  });

  it('escapes JSON so it parses to the same value', () => {
    const value = { s: `x${TITLE}${CSI}${RLO}\u2066y\u2069` };
    const json = escapeJsonText(JSON.stringify(value));
    expect(json).not.toMatch(ACTIVE);
    expect(JSON.parse(json)).toEqual(value);
  });
});
