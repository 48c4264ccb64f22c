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
  /**
   * F1 = 2·matched / (2·matched + extra + missed), in [0, 1]; 1 where the log has none and none
   * fired: they agree (a real Codex rollout without compactions swept its window and called the
   * value that fired 12 the best, F1 0.00, since the ones firing none had no score).
   */
  f1: number;
}

/** How well a value reproduces the log: recall and precision at once (23 fired for 3 real is not 3/3). */
export function getSweepScore(point: SweepPoint): SweepScore {
  const matched = point.matchedReal;
  const extra = point.extraSimulated;
  const missed = point.expectedReal - point.matchedReal;
  const denominator = 2 * matched + extra + missed;
  return { matched, extra, missed, f1: denominator === 0 ? 1 : (2 * matched) / denominator };
}

/**
 * The point that reproduces the log best: the highest F1; among equals, the value nearest the
 * knob's setting (`current`: the log's own, unless the person moved it; ours), else the first.
 * Undefined for no points.
 */
export function getBestSweepPoint(points: readonly SweepPoint[], current?: number): number | undefined {
  let best: number | undefined;
  let bestF1 = -1;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const [i, p] of points.entries()) {
    const { f1 } = getSweepScore(p);
    const distance = current === undefined ? 0 : Math.abs(p.value - current);
    if (f1 > bestF1 || (f1 === bestF1 && distance < bestDistance)) {
      best = i;
      bestF1 = f1;
      bestDistance = distance;
    }
  }
  return best;
}
