import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli';
import { openPathSources } from '../../src/cli/session-files';
import { findSessions } from '../../src/cli/stats/find-sessions';
import { searchSessionText } from '../../src/engine/query/text-search';

// `compactlab search <folder>… <text>`: the sessions holding a text, the engine's own figures
// (engine/query/text-search.ts), over two roots: a projects folder and a Codex sessions folder.

const FIXTURES = join(__dirname, '../fixtures');
const root = mkdtempSync(join(tmpdir(), 'compactlab-search-'));
const projects = join(root, 'projects');
const codex = join(root, 'sessions');

async function run(args: string[]) {
  const { code, lines, err } = await runCli(args);
  return { code, out: lines, err };
}

describe('compactlab search', () => {
  beforeAll(() => {
    cpSync(join(FIXTURES, 'folder'), join(projects, '-home-user-tally'), { recursive: true });
    mkdirSync(join(projects, '-home-user-other'), { recursive: true });
    cpSync(join(FIXTURES, 'broken.jsonl'), join(projects, '-home-user-other', 'broken.jsonl'));
    cpSync(join(FIXTURES, 'xss.jsonl'), join(projects, '-home-user-other', 'xss.jsonl'));
    mkdirSync(join(codex, '2026', '05'), { recursive: true });
    const rollout = [
      { type: 'session_meta', payload: { id: 'c0dex', cwd: '/home/ada/garden', cli_version: '0.61.0' } },
      {
        type: 'response_item',
        payload: {
          type: 'message',
          role: 'user',
          content: [{ type: 'input_text', text: 'Water the Tomato beds\u001b]0;pwned\u0007' }],
        },
      },
    ].map((r, i) =>
      JSON.stringify({ timestamp: new Date(Date.UTC(2026, 4, 1, 9, 0, i)).toISOString(), ...r }),
    );
    writeFileSync(
      join(codex, '2026', '05', 'rollout-2026-05-01T09-00-00-c0dex.jsonl'),
      `${rollout.join('\n')}\n`,
    );
  });

  it('lists each session holding the text with the engine’s counts, across several folders', async () => {
    const { code, out, err } = await run(['search', projects, codex, 'the', '--json']);
    expect(code).toBe(0);
    const rows = out.map((l) => JSON.parse(l));
    const sessions = await findSessions([projects, codex]);
    const expected = [];
    for (const s of sessions) {
      const found = await searchSessionText(await openPathSources(s.paths), 'the');
      if (found.matches > 0)
        expected.push({ file: s.file, matches: found.matches, records: found.records, first: found.first });
    }
    expect(expected.length).toBeGreaterThan(1);
    expect(rows).toEqual(expected);
    expect(err).toContain(`${expected.length} of ${sessions.length} sessions hold "the"`);
  });

  it('prints a plain line per session, its excerpt without control sequences; exit 1 when none holds it', async () => {
    const { code, out } = await run(['search', codex, 'TOMATO']);
    expect(code).toBe(0);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(
      /rollout-2026-05-01T09-00-00-c0dex\.jsonl: 1 match in 1 record\n {2}.+:2: Water the Tomato beds\]0;pwned$/,
    );
    // biome-ignore lint/suspicious/noControlCharactersInRegex: none may reach the terminal.
    expect(out[0]).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    const none = await run(['search', projects, codex, 'zzqx-nowhere']);
    expect(none.code).toBe(1);
    expect(none.out).toEqual([]);
    expect((await run(['search', projects])).code).toBe(2);
  });

  it('the text named first, as grep takes it: says the text comes last, with the command in that order', async () => {
    const { code, out, err } = await run(['search', 'tomato beds', codex]);
    expect(code).toBe(2);
    expect(out).toEqual([]);
    expect(err).toBe(
      `compactlab search: tomato beds: no such file or folder; the text to find comes last: compactlab search ${codex} "tomato beds"\n`,
    );
    // A folder that is not there, the text last: said as any missing folder is.
    const gone = join(root, 'gone');
    expect((await run(['search', gone, 'tomato'])).err).toBe(
      `compactlab search: ${gone}: no such file or folder\n`,
    );
  });

  it('finds escaped text past ASCII, and names the element of a one-line JSON document', async () => {
    const dir = join(root, 'cline-task');
    mkdirSync(dir, { recursive: true });
    // Written as Python's json.dumps writes (ensure_ascii): é as \u00e9.
    const messages = [
      { ts: 1, type: 'say', say: 'text', text: 'Bonjour' },
      { ts: 2, type: 'say', say: 'text', text: 'Un café\nCAFÉ' },
    ];
    writeFileSync(
      join(dir, 'ui_messages.json'),
      JSON.stringify(messages).replace(/[éÉ]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`),
    );
    const { code, out } = await run(['search', join(dir, 'ui_messages.json'), 'Café']);
    expect(code).toBe(0);
    expect(out).toEqual([
      `${join(dir, 'ui_messages.json')}: 2 matches in 1 record\n  ${join(dir, 'ui_messages.json')}:1 (element 2 of the array): Un café CAFÉ`,
    ]);
    const json = await run(['search', join(dir, 'ui_messages.json'), 'bonjour', '--json']);
    expect(JSON.parse(json.out[0]!)).toMatchObject({
      matches: 1,
      records: 1,
      first: { line: 1, element: 1 },
    });
  });
});
