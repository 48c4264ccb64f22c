import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { basename } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPathSources } from '../../src/cli/session-files';
import { findSessions } from '../../src/cli/stats/find-sessions';
import { computeStatsRow } from '../../src/cli/stats/stats-row';
import { computeCostUsd } from '../../src/engine/cost/prices';
import type { SettingRow } from '../../src/engine/stats/records';
import { computeSettingRows } from '../../src/engine/stats/setting-rows';
import { corpusOrSkip, restoreCorpusTree } from '../helpers/corpus';

// The what-if's real cost against the library's cost (docs/cost.md#which-calls), over the restored
// corpus: a folder's "real cost" in What if… ($31.96) was not its cost in Usage ($34.63), and
// nothing said why. Each session's row now carries the session's whole logged cost and the parts a
// replay leaves out, and these must add up, session by session, to a plain count of the raw
// records: every assistant line with `message.usage`, one call per message id, priced call by call,
// the main file's own lines (not `isSidechain`) the main thread, every other file's (and an inline
// sidechain's) a subagent's.

const present = corpusOrSkip('real cost against logged cost corpus test');
const python = spawnSync('python3', ['--version']).status === 0;
if (present && !python)
  console.warn('real cost corpus test skipped: python3 (for stats.py --restore-tree) is absent');

/** A Claude Code session's cost by thread, read with JSON.parse and nothing of the engine. */
function plainCost(paths: readonly string[]): { main: number; subagents: number } {
  const calls = new Map<string, { model: string; u: Record<string, number>; output: number; sub: boolean }>();
  for (const [i, path] of paths.entries()) {
    if (!path.endsWith('.jsonl')) continue;
    const compactionCall = basename(path).startsWith('agent-acompact');
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      let r: Record<string, unknown>;
      try {
        r = JSON.parse(line);
      } catch {
        continue;
      }
      const m = r?.message as Record<string, unknown> | undefined;
      if (r?.type !== 'assistant' || typeof m !== 'object' || m === null) continue;
      const u = m.usage as Record<string, number> | undefined;
      if (!u || m.model === '<synthetic>') continue;
      const key = String(m.id ?? r.requestId ?? r.uuid);
      const known = calls.get(key);
      if (known) known.output = Math.max(known.output, u.output_tokens ?? 0);
      else
        calls.set(key, {
          model: String(m.model ?? ''),
          u,
          output: u.output_tokens ?? 0,
          sub: !compactionCall && (i > 0 || r.isSidechain === true),
        });
    }
  }
  const out = { main: 0, subagents: 0 };
  for (const c of calls.values()) {
    const cc = c.u.cache_creation as unknown as Record<string, number> | undefined;
    const usd =
      computeCostUsd(c.model, {
        inputTokens: c.u.input_tokens ?? 0,
        outputTokens: c.output,
        cacheReadInputTokens: c.u.cache_read_input_tokens ?? 0,
        cacheCreationInputTokens: c.u.cache_creation_input_tokens ?? 0,
        cacheCreation1hInputTokens: cc?.ephemeral_1h_input_tokens ?? 0,
      }) ?? 0;
    if (c.sub) out.subagents += usd;
    else out.main += usd;
  }
  return out;
}

let tree = '';
const sessions: { file: string; paths: string[]; row: SettingRow; statsCostUsd: number; claude: boolean }[] =
  [];

describe.skipIf(!present || !python)('corpus: the what-if’s real cost against the logged cost', () => {
  beforeAll(async () => {
    tree = restoreCorpusTree('realcost');
    for (const group of await findSessions([tree])) {
      const stats = await computeStatsRow(group.file, await openPathSources(group.paths));
      const [row] = await computeSettingRows(group.file, await openPathSources(group.paths), {
        strategyId: 'claude-code',
        overrides: {},
      });
      if (!row) continue;
      sessions.push({
        file: group.file,
        paths: group.paths,
        row,
        statsCostUsd: Number(stats.costUsd ?? 0),
        claude:
          stats.agent === 'Claude Code' &&
          group.paths.every((p) => p.endsWith('.jsonl') || p.endsWith('.meta.json')) &&
          !group.paths.some((p) => p.endsWith('audit.jsonl')),
      });
    }
  }, 240_000);
  afterAll(() => {
    if (tree) rmSync(tree, { recursive: true, force: true });
  });

  const n = (row: SettingRow, k: keyof SettingRow) => Number(row[k] ?? 0);

  it('real = logged − subagents − other branches + estimated summary calls, in every session', () => {
    expect(sessions.length).toBeGreaterThan(30);
    for (const { file, row } of sessions) {
      const fromLogged =
        n(row, 'loggedCostUsd') -
        n(row, 'subagentCostUsd') -
        n(row, 'otherBranchCostUsd') +
        n(row, 'realSummariesEstimatedUsd');
      expect(n(row, 'realCostUsd'), file).toBeCloseTo(fromLogged, 4);
    }
    // The corpus has each part: subagents, abandoned branches, summary calls the log does not hold.
    expect(sessions.filter((s) => n(s.row, 'subagentCostUsd') > 0).length).toBeGreaterThan(5);
    expect(sessions.some((s) => n(s.row, 'otherBranchCostUsd') > 0)).toBe(true);
    expect(sessions.filter((s) => n(s.row, 'realSummariesEstimatedUsd') > 0).length).toBeGreaterThan(5);
  });

  it('the logged cost is the list’s (stats) cost, and its parts a plain count’s', () => {
    let compared = 0;
    for (const { file, paths, row, statsCostUsd, claude } of sessions) {
      expect(n(row, 'loggedCostUsd'), file).toBeCloseTo(statsCostUsd, 5);
      if (!claude) continue;
      const plain = plainCost(paths);
      // A subagent's log opened without its session is the main thread (there is no other).
      const alone = paths[0]!.includes('/subagents/') || basename(paths[0]!).startsWith('agent-');
      expect(n(row, 'loggedCostUsd'), file).toBeCloseTo(plain.main + plain.subagents, 5);
      if (!alone) expect(n(row, 'subagentCostUsd'), file).toBeCloseTo(plain.subagents, 5);
      compared++;
    }
    expect(compared).toBeGreaterThan(20);
    const total = (k: keyof SettingRow) => sessions.reduce((s, x) => s + n(x.row, k), 0);
    console.log(
      `real $${total('realCostUsd').toFixed(2)} = logged $${total('loggedCostUsd').toFixed(2)} − subagents $${total('subagentCostUsd').toFixed(2)} − other branches $${total('otherBranchCostUsd').toFixed(2)} + estimated summaries $${total('realSummariesEstimatedUsd').toFixed(2)}`,
    );
  });
});
