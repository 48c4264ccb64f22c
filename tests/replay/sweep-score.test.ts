import { describe, expect, it } from 'vitest';
import type { SweepPoint } from '../../src/engine/replay/sweep';
import { getSweepScore } from '../../src/engine/replay/sweep-score';

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

  it('has no score with nothing real and nothing fired', () => {
    expect(getSweepScore(point(0, 0, 0)).f1).toBeUndefined();
  });
});
