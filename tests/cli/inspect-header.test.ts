import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CORPUS, corpusOrSkip } from '../helpers/corpus';
import { runCli } from '../helpers/run-cli';
import { createNodeFileSource } from '../../src/cli/node-source';
import { parseSession } from '../../src/engine/parse/parse-session';
import { getSessionOverview } from '../../src/engine/query/session-overview';

// `inspect empty.jsonl real.jsonl` put the empty file's name over the real file's session: both
// files are main files (nothing names their roles) and the header took the first. It now names
// the main file whose entries are shown (engine parse/other-sessions.ts, getShownMainFile) and
// lists both files as read; the HTML report's title takes the same name.

const REAL = join(
  CORPUS,
  'LAF-US__IDAHO-VAULT/claude__projects__c--Users-loganf-Documents-IDAHO-VAULT__b2b82754-6b66-414f-a275-d7370efaf6ad.jsonl',
);
const dir = mkdtempSync(join(tmpdir(), 'compactlab-inspect-header-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!corpusOrSkip('inspect header with an empty file named first'))(
  'an empty file named before a real session',
  () => {
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '');

    it('inspect names the real file, and lists both as read', async () => {
      const run = await runCli(['inspect', empty, REAL]);
      expect(run.text.split('\n')[0]).toBe(`${REAL}  [claude-code]`);
      expect(run.text).toContain('Files read (2):');
      expect(run.text).toMatch(/ {2}main {2}\S*empty\.jsonl {2}0 lines/);
      expect(run.text).toContain('empty.jsonl is empty: there is nothing to show');
      const json = JSON.parse((await runCli(['inspect', '--json', empty, REAL])).text);
      expect(json.mainFile).toBe(REAL);
      // The session shown is the real file's: its own calls, as it read alone.
      const alone = JSON.parse((await runCli(['inspect', '--json', REAL])).text);
      expect(json.apiCalls.length).toBe(alone.apiCalls.length);
      expect(json.apiCalls.length).toBeGreaterThan(0);
    });

    it('the page names it by the real file too (its header and export names: the overview)', async () => {
      const session = await parseSession([createNodeFileSource(empty), createNodeFileSource(REAL)]);
      const overview = getSessionOverview(session);
      expect(overview.files.map((f) => f.role)).toEqual(['main', 'main']);
      expect(overview.shownFileIndex).toBe(1);
      expect(overview.files[overview.shownFileIndex!]!.name).toBe(REAL);
    });

    it('the HTML report is titled by the real file too', async () => {
      const out = join(dir, 'report.html');
      expect((await runCli(['report', empty, REAL, '-o', out])).code).toBe(0);
      const html = readFileSync(out, 'utf8');
      expect(html).toContain(`Context timeline of ${REAL}`);
      expect(html).not.toContain(`Context timeline of ${empty}`);
    });
  },
);

describe('a Claude Code log written outside a git repository', () => {
  it('has no branch, and a later record’s branch is taken', async () => {
    const line = (uuid: string, gitBranch: string, s: number) =>
      JSON.stringify({
        type: 'user',
        uuid,
        parentUuid: null,
        sessionId: 'b1b2b3b4-0000-4000-8000-000000000001',
        version: '2.0.19',
        cwd: '/Users/me',
        gitBranch,
        timestamp: `2025-10-17T01:22:0${s}.000Z`,
        message: { role: 'user', content: 'hello' },
      });
    const file = join(dir, 'b1b2b3b4-0000-4000-8000-000000000001.jsonl');
    writeFileSync(file, `${line('u1', '', 1)}\n`);
    const json = JSON.parse((await runCli(['inspect', '--json', file])).text);
    expect(json.gitBranch).toBeUndefined();
    expect((await runCli(['inspect', file])).text).toContain(' · branch ? · ');
    writeFileSync(file, `${line('u1', '', 1)}\n${line('u2', 'main', 2)}\n`);
    expect(JSON.parse((await runCli(['inspect', '--json', file])).text).gitBranch).toBe('main');
  });
});

describe('a session of many files', () => {
  it('lists the first ten and counts the rest by role', async () => {
    // A real OpenCode database read as its storage (suhd550-dev/stunning-memory): one session of
    // 35 messages listed 154 file lines. Here a Claude Code session with 21 subagent logs.
    const id = 'c1c2c3c4-0000-4000-8000-000000000002';
    const record = (uuid: string, agentId?: string) =>
      JSON.stringify({
        type: 'user',
        uuid,
        parentUuid: null,
        sessionId: id,
        version: '2.1.81',
        cwd: '/root',
        isSidechain: agentId !== undefined,
        ...(agentId ? { agentId } : {}),
        timestamp: '2026-03-21T17:27:25.000Z',
        message: { role: 'user', content: 'hello' },
      });
    const main = join(dir, `${id}.jsonl`);
    writeFileSync(main, `${record('m1')}\n`);
    mkdirSync(join(dir, id, 'subagents'), { recursive: true });
    const subs = Array.from({ length: 21 }, (_, i) => {
      const agent = `a${String(i).padStart(16, '0')}`;
      const path = join(dir, id, 'subagents', `agent-${agent}.jsonl`);
      writeFileSync(path, `${record(`s${i}`, agent)}\n`);
      return path;
    });
    const text = (await runCli(['inspect', main, ...subs])).text;
    expect(text).toContain('Files read (22):');
    expect(text).toContain('… and 12 more (12 subagent; --json lists every file)');
    expect(text).toMatch(/ {2}main {6}\S+\.jsonl {2}1 line$/m);
    const listed = text.split('\n').filter((l) => /^ {2}(main|subagent) /.test(l));
    expect(listed).toHaveLength(10);
    expect(JSON.parse((await runCli(['inspect', '--json', main, ...subs])).text).files).toHaveLength(22);
  });
});
