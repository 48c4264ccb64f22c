import { at } from '../assert';
import { getLeftOutCompactions } from './off-branch';
import type { PreparedReplay } from './prepare';
import type { RealOutcome, ReplayComparison, ReplayEvent } from './types';

// Replay vs. log: each real compaction of the main thread against the replay's events.
// Real auto-compactions are what a replay at the log's own knobs should reproduce; manual ones are
// not expected (the replay adopts their result instead). A real compaction counts as reproduced
// when a replay compaction fires within `toleranceCalls` API calls of it.

export const DEFAULT_TOLERANCE_CALLS = 1;
/** A real preTokens this far above the log's own count at that call was not triggered by context size. */
const UNEXPLAINED_PRE_RATIO = 1.25;

/**
 * Matches replay events with the log's compactions. `triggers`: each logged compaction's trigger as
 * the run read it (`StrategyRun.inferLoggedTrigger`, for logs that record none), else the log's.
 */
export function computeComparison(
  prepared: PreparedReplay,
  events: readonly ReplayEvent[],
  toleranceCalls = DEFAULT_TOLERANCE_CALLS,
  triggers?: readonly string[],
): ReplayComparison {
  const { real, calls, recorded, output, pendingEstimate } = prepared;
  const outcomes: RealOutcome[] = real.map((r, i) => ({
    compactionIndex: r.compactionIndex,
    kind: r.kind,
    trigger: triggers?.[i] ?? r.trigger,
    afterApiCall: r.afterCall >= 0 ? calls[r.afterCall] : undefined,
    afterCallPos: r.afterCall,
    preTokens: r.preTokens,
    status: r.kind === 'compact' && (triggers?.[i] ?? r.trigger) !== 'auto' ? 'manual' : 'missing',
  }));
  const used = new Uint8Array(events.length);

  const matchKind = (kind: 'compact' | 'truncate' | 'microcompact') => {
    const targets = outcomes
      .map((o, i) => ({ o, i }))
      .filter(({ o }) => o.kind === kind && o.status !== 'manual' && o.afterCallPos >= 0);
    const candidates = events
      .map((e, i) => ({ e, i }))
      .filter(({ e }) => e.kind === kind && e.trigger === 'auto');
    // Pass 0: same call; pass 1: within the tolerance; pass 2: nearest before the neighbours.
    for (let pass = 0; pass < 3; pass++) {
      for (let t = 0; t < targets.length; t++) {
        const { o } = at(targets, t);
        if (o.eventIndex !== undefined) continue;
        const lo =
          pass < 2
            ? o.afterCallPos - (pass === 0 ? 0 : toleranceCalls)
            : t > 0
              ? at(targets, t - 1).o.afterCallPos + 1
              : 0;
        const hi =
          pass < 2
            ? o.afterCallPos + (pass === 0 ? 0 : toleranceCalls)
            : t + 1 < targets.length
              ? at(targets, t + 1).o.afterCallPos - 1
              : calls.length;
        let best = -1;
        let bestDistance = Number.POSITIVE_INFINITY;
        for (const { e, i } of candidates) {
          if (used[i] || e.afterCallPos < lo || e.afterCallPos > hi) continue;
          const d = Math.abs(e.afterCallPos - o.afterCallPos);
          if (d < bestDistance) {
            best = i;
            bestDistance = d;
          }
        }
        if (best < 0) continue;
        used[best] = 1;
        o.eventIndex = best;
        o.delta = at(events, best).afterCallPos - o.afterCallPos;
        o.status = o.delta === 0 ? 'matched' : o.delta < 0 ? 'early' : 'late';
      }
    }
  };
  matchKind('compact');
  matchKind('truncate');
  matchKind('microcompact');
  // A replay auto-compaction at the very call where the log's user compacted by hand is not extra:
  // the manual compaction came first.
  for (const o of outcomes) {
    if (o.status !== 'manual') continue;
    const i = events.findIndex(
      (e, j) => !used[j] && e.kind === 'compact' && e.trigger === 'auto' && e.afterCallPos === o.afterCallPos,
    );
    if (i < 0) continue;
    used[i] = 1;
    o.eventIndex = i;
    o.delta = 0;
    o.note = 'the replay auto-compacts at this call too; the log’s user compacted by hand first';
  }

  for (let i = 0; i < real.length; i++) {
    const r = at(real, i);
    const o = at(outcomes, i);
    if (r.kind !== 'compact' || r.afterCall < 0 || r.preTokens === undefined) continue;
    const k = r.afterCall;
    const logCount = at(recorded, k) + at(output, k) + at(pendingEstimate, k);
    if (r.preTokens > logCount * UNEXPLAINED_PRE_RATIO) {
      o.note = `preTokens ${r.preTokens.toLocaleString('en-US')} is far above the log's own count at that call (${logCount.toLocaleString('en-US')}): not triggered by this context (a resumed or copied session)`;
    }
  }

  const extraEventIndices: number[] = [];
  events.forEach((e, i) => {
    if (!used[i] && (e.kind === 'compact' || e.kind === 'truncate') && e.trigger === 'auto')
      extraEventIndices.push(i);
  });
  const counts = { matched: 0, early: 0, late: 0, missing: 0, manual: 0, extra: extraEventIndices.length };
  let expected = 0;
  let reproduced = 0;
  // Truncations (Cline's) count as the compactions a replay should reproduce.
  for (const o of outcomes) {
    if (o.kind !== 'compact' && o.kind !== 'truncate') continue;
    counts[o.status]++;
    if (o.status === 'manual') continue;
    expected++;
    if (o.delta !== undefined && Math.abs(o.delta) <= toleranceCalls) reproduced++;
  }
  const leftOut = getLeftOutCompactions(prepared.session);
  return { outcomes, leftOut, extraEventIndices, expected, reproduced, toleranceCalls, counts };
}
