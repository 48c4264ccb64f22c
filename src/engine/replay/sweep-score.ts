import type { SweepPoint } from './sweep';

// A sweep's limits and the score of one of its values: what the page's sweep panel needs, apart
// from the sweep itself (sweep.ts, run in the worker).

/** Values beyond this are refused: a sweep is a chart, not a search. */
export const MAX_SWEEP_STEPS = 1_000;
export const DEFAULT_SWEEP_STEPS = 20;

interface SweepScore {
  matched: number;
  /** Fired with no real counterpart (false positives). */
  extra: number;
  /** Real ones not reproduced (false negatives). */
  missed: number;
  /** F1 = 2·matched / (2·matched + extra + missed), in [0, 1]; undefined with nothing to score. */
  f1?: number;
}

/** How well a value reproduces the log: recall and precision at once (23 fired for 3 real is not 3/3). */
export function getSweepScore(point: SweepPoint): SweepScore {
  const matched = point.matchedReal;
  const extra = point.extraSimulated;
  const missed = point.expectedReal - point.matchedReal;
  const denominator = 2 * matched + extra + missed;
  return { matched, extra, missed, f1: denominator === 0 ? undefined : (2 * matched) / denominator };
}
