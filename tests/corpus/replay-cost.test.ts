import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPathSources } from '../../src/cli/session-files';
import { findSessions } from '../../src/cli/stats/find-sessions';
import { computeReplayCost } from '../../src/engine/cost/replay-cost';
import { parseSession } from '../../src/engine/parse/parse-session';
import { computeReplay } from '../../src/engine/replay/compute-replay';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { getDefaultStrategyId } from '../../src/engine/strategies/descriptors';
import { getStrategy } from '../../src/engine/strategies/registry';
import { getSessionInfo } from '../../src/engine/strategies/types';
import { corpusOrSkip, FOREIGN, restoreCorpusTree } from '../helpers/corpus';

// Issue 21's check: every real log of the corpora replayed with its own agent's strategy at its
// own knobs, its main-conversation calls priced through the cost model (engine/cost/), against its
// recorded usage priced the same way. Two figures per agent (docs/cost.md#how-close):
//
// - the cost as the replay gives it (the cache's hit share taken from the log), and
// - the documented cache alone (every cacheable prefix read), which shows what the model of the
//   cache itself gets right.
//
// A figure may not move further from the real cost than its tolerance below.

const present = corpusOrSkip('replay cost corpus test');
const python = spawnSync('python3', ['--version']).status === 0;
if (present && !python)
  console.warn('replay cost corpus test skipped: python3 (for stats.py --restore-tree) is absent');

interface Totals {
  sessions: number;
  priced: number;
  real: number;
  replay: number;
  ideal: number;
  /** Sessions of $0.10 or more whose replayed cost is within ±10% of the real one. */
  within10: number;
  atLeast10c: number;
}

/** Tolerances, as a share of the real cost: the replay's, and the documented cache's (undefined: reported only). */
// biome-ignore format: a table, one agent a line.
const TOLERANCE: Record<string, { replay: number; ideal?: number; within10: number }> = {
  'Claude Code': { replay: 0.02, ideal: 0.08, within10: 0.8 },
  // Cline's documented cache: 8.8% since its replay keeps to the log's growth after a missed
  // truncation (issue 19 item 9: 3 truncations where a jump gave 4); 2 priced tasks only.
  Cline:         { replay: 0.05, ideal: 0.1, within10: 1 },
  'Codex CLI':   { replay: 0.05, within10: 0.75 },
  'Gemini CLI':  { replay: 0.02, within10: 1 },
};

let tree = '';
const totals = new Map<string, Totals>();

describe.skipIf(!present || !python)(
  'corpus: what a replay at the log’s own knobs costs, against its real cost',
  () => {
    beforeAll(async () => {
      tree = restoreCorpusTree('cost');
      // The shared corpora only (the .real-logs restore is optional and repeats some of them).
      for (const group of await findSessions([tree, FOREIGN])) {
        const session = await parseSession(await openPathSources(group.paths));
        if (session.apiCalls.length === 0) continue;
        const prepared = prepareReplay(session);
        const strategy = getStrategy(getDefaultStrategyId(session.format, session.meta.agent));
        const result = computeReplay(
          prepared,
          strategy.id,
          strategy.getSessionKnobs(getSessionInfo(prepared)).knobs,
        );
        // Every call through the cache model (a replay bills the calls it did not change as
        // recorded, which this check would only find equal): the model measured against the log.
        const cost = computeReplayCost(session, result, { modelledCalls: 'all' });
        const ideal = computeReplayCost(session, result, { cache: { hitShare: 1 }, modelledCalls: 'all' });
        // As the page and the CLI price it: a replay that changes nothing costs what the log did.
        if (result.diverged.every((d) => d === 0))
          expect(computeReplayCost(session, result).calls.usd).toBeCloseTo(cost.real.calls.usd, 9);
        const t = totals.get(session.meta.agent) ?? {
          sessions: 0,
          priced: 0,
          real: 0,
          replay: 0,
          ideal: 0,
          within10: 0,
          atLeast10c: 0,
        };
        totals.set(session.meta.agent, t);
        t.sessions++;
        if (cost.real.calls.usd === 0) continue;
        t.priced++;
        t.real += cost.real.calls.usd;
        t.replay += cost.calls.usd;
        t.ideal += ideal.calls.usd;
        if (cost.real.calls.usd >= 0.1) {
          t.atLeast10c++;
          if (Math.abs(cost.calls.usd / cost.real.calls.usd - 1) <= 0.1) t.within10++;
        }
      }
      console.table(
        Object.fromEntries(
          [...totals].map(([agent, t]) => [
            agent,
            {
              sessions: t.sessions,
              priced: t.priced,
              'real $': t.real.toFixed(2),
              'replay $': t.replay.toFixed(2),
              'replay Δ': `${((t.replay / t.real - 1) * 100).toFixed(2)}%`,
              'documented cache $': t.ideal.toFixed(2),
              'documented Δ': `${((t.ideal / t.real - 1) * 100).toFixed(2)}%`,
              '±10% (≥ $0.10)': `${t.within10}/${t.atLeast10c}`,
            },
          ]),
        ),
      );
    }, 120_000);
    afterAll(() => {
      if (tree) rmSync(tree, { recursive: true, force: true });
    });

    it.each(Object.keys(TOLERANCE))(
      '%s: the replayed cost is within its tolerance of the real one',
      (agent) => {
        const t = totals.get(agent);
        expect(t?.priced, `${agent}: priced sessions`).toBeGreaterThan(0);
        if (!t) return;
        const tol = TOLERANCE[agent]!;
        expect(Math.abs(t.replay / t.real - 1), `${agent}: replay`).toBeLessThanOrEqual(tol.replay);
        if (tol.ideal !== undefined)
          expect(Math.abs(t.ideal / t.real - 1), `${agent}: documented cache`).toBeLessThanOrEqual(tol.ideal);
        expect(t.within10 / t.atLeast10c, `${agent}: sessions within ±10%`).toBeGreaterThanOrEqual(
          tol.within10,
        );
      },
    );
  },
);
