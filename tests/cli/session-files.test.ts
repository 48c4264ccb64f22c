import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSessionFiles } from '../../src/cli/session-files';
import { findSessions } from '../../src/cli/stats/find-sessions';
import { isSubagentLogPath } from '../../src/engine/library/group-files';
import { corpusOrSkip, restoreCorpusTree } from '../helpers/corpus';
import { runCli } from '../helpers/run-cli';
import { countCompactBoundaries } from '../helpers/plain-count';

// A Claude Code session file named to a command was read alone: `inspect <project>/<id>.jsonl`
// gave one file and the main thread's 6 compactions, its 4 subagent logs under `<id>/subagents/`
// (9 compactions more) and their .meta.json left out, though the error for a folder of several
// sessions says "name one of them (its subagent files are found with it)". A transcript named
// alone now brings the files a walk of its folder groups with it, by the same grouping code.
// Checked on the corpus restored to its real ~/.claude/projects layout by the corpus's own tool.

const python = spawnSync('python3', ['--version']).status === 0;
const present = corpusOrSkip('session files of a named transcript') && python;
if (!python)
  console.warn('session files of a named transcript skipped: no python3 to restore the corpus tree');

const PROJECT = 'LAF-US__IDAHO-VAULT/.claude/projects/c--Users-loganf-Documents-IDAHO-VAULT';
const SESSION = '05541cb5-fe43-41c9-87ef-2a6d89bba271';

describe.skipIf(!present)('a transcript named alone (restored corpus tree)', () => {
  let tree = '';
  beforeAll(() => {
    tree = restoreCorpusTree('session-files');
  });
  afterAll(() => rmSync(tree, { recursive: true, force: true }));

  it('inspect reads its subagent logs and their .meta.json, and every compaction in them', async () => {
    const folder = join(tree, PROJECT);
    const main = join(folder, `${SESSION}.jsonl`);
    const subagents = join(folder, SESSION, 'subagents');
    const logs = readdirSync(subagents)
      .filter((n) => n.endsWith('.jsonl'))
      .map((n) => join(subagents, n));
    expect(logs).toHaveLength(4);
    const boundaries = [main, ...logs].map(countCompactBoundaries);
    expect(boundaries[0]).toBe(6);
    expect(boundaries.slice(1).reduce((a, b) => a + b, 0)).toBe(9);

    // The folder holds three sessions: the error says to name one.
    const refused = await runCli(['inspect', folder]);
    expect(refused.err).toContain(
      'holds 3 sessions; name one of them (its subagent files are found with it)',
    );

    const run = await runCli(['inspect', '--json', main]);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.text) as {
      files: { name: string; role: string }[];
      compactions: unknown[];
      sidechains: unknown[];
    };
    expect(report.files.map((f) => [basename(f.name), f.role])).toEqual([
      [`${SESSION}.jsonl`, 'main'],
      ...logs.map((l) => [basename(l), 'subagent']),
      ...logs.map((l) => [basename(l).replace(/\.jsonl$/, '.meta.json'), 'subagent-meta']),
    ]);
    expect(report.compactions).toHaveLength(15);
    expect(report.sidechains).toHaveLength(4);

    // The text says which files were read.
    const text = await runCli(['inspect', main]);
    expect(text.lines.join('\n')).toContain('Files read (9):');
    expect(text.text).toContain(`  subagent       ${SESSION}/subagents/${basename(logs[0]!)}`);
    expect(text.text).toContain('Compactions (15):');
    // The main thread's six after its calls; a subagent's in its own log, not "after no API call".
    const listed = text.text.split('\n').filter((l) => /^ {2}Compaction \d+ of 15/.test(l));
    expect(listed.filter((l) => / after API call \d+ of 260$/.test(l))).toHaveLength(6);
    expect(
      listed.filter((l) => /agent-a\w+\.jsonl line \d+ .* in that log \(not on the main thread\)$/.test(l)),
    ).toHaveLength(9);
    expect(text.text).not.toContain('after no API call');
  });

  it('several files named are read exactly as named', async () => {
    const main = join(tree, PROJECT, `${SESSION}.jsonl`);
    const one = join(tree, PROJECT, SESSION, 'subagents', 'agent-a3144f31772d15038.jsonl');
    const sources = await openSessionFiles([main, one]);
    expect(sources.map((s) => s.name)).toEqual([main, one]);
    // A subagent's log named alone is read alone, as before.
    expect((await openSessionFiles([one])).map((s) => s.name)).toEqual([one]);
  });

  it('every session of the tree: its main file named alone reads what the folder walk groups', async () => {
    const sessions = await findSessions([tree]);
    let compared = 0;
    for (const s of sessions) {
      // A subagents folder without its transcript is a session of the walk; its logs, named, are read alone.
      if (isSubagentLogPath(s.file)) continue;
      const named = await openSessionFiles([s.file]);
      expect(
        named.map((x) => x.name),
        s.file,
      ).toEqual(s.paths);
      compared++;
    }
    expect(compared).toBeGreaterThan(30);
    expect(sessions.filter((s) => s.paths.length > 1 && !isSubagentLogPath(s.file)).length).toBeGreaterThan(
      5,
    );
  });
});
