import { describe, expect, it } from 'vitest';
import type { SweepPoint } from '../../src/engine/replay/sweep';
import { getBestSweepPoint, getSweepScore } from '../../src/engine/replay/sweep-score';

function point(matchedReal: number, expectedReal: number, extraSimulated: number): SweepPoint {
  return {
    value: 0,
    events: {
      compact: matchedReal + extraSimulated,
      truncate: 0,
      replace: 0,
      microcompact: 0,
      reset: 0,
      blocked: 0,
      'compact-failed': 0,
    },
    matchedReal,
    expectedReal,
    extraSimulated,
    peakContextTokens: 0,
    summarizedTokens: 0,
    summaryTokens: 0,
  };
}

describe('getSweepScore', () => {
  it('scores 23 fired for 3 real far below 3 fired for 3 real', () => {
    const flood = getSweepScore(point(3, 3, 20));
    const exact = getSweepScore(point(3, 3, 0));
    expect(flood).toMatchObject({ matched: 3, extra: 20, missed: 0 });
    expect(flood.f1).toBeCloseTo(6 / 26, 10);
    expect(exact.f1).toBe(1);
  });

  it('counts missed real compactions against recall', () => {
    const score = getSweepScore(point(1, 4, 1));
    expect(score).toMatchObject({ matched: 1, extra: 1, missed: 3 });
    expect(score.f1).toBeCloseTo(2 / 6, 10);
  });

  it('scores nothing fired for nothing real as agreeing, and anything fired then as not', () => {
    expect(getSweepScore(point(0, 0, 0)).f1).toBe(1);
    expect(getSweepScore(point(0, 0, 12)).f1).toBe(0);
  });
});

describe('getBestSweepPoint', () => {
  const at = (value: number, p: SweepPoint): SweepPoint => ({ ...p, value });

  it('a log without compactions: a value that fires none, not one that fires 12', () => {
    // A real Codex rollout's window swept from 10k: 10k fired 12, the rest none.
    const points = [at(10_000, point(0, 0, 12)), at(114_737, point(0, 0, 0)), at(219_474, point(0, 0, 0))];
    expect(getBestSweepPoint(points)).toBe(1);
    // Among equals, the one nearest the knob's setting (the log's window, 258,400).
    expect(getBestSweepPoint(points, 258_400)).toBe(2);
  });

  it('the highest F1 wins over nearness', () => {
    const points = [at(100, point(3, 3, 0)), at(200, point(2, 3, 1))];
    expect(getBestSweepPoint(points, 200)).toBe(0);
    expect(getBestSweepPoint([])).toBeUndefined();
  });
});
