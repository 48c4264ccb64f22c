import { describe, expect, it } from 'vitest';
import { selectMicrocompact } from '../../src/engine/strategies/claude-code/microcompact';

const v2168 = { variant: 'v2.1.68' as const, keepRecent: 3, protectTokens: 40_000, minSavings: 20_000 };
const legacy = { variant: 'legacy' as const, keepRecent: 3, protectTokens: 40_000, minSavings: 20_000 };

describe('selectMicrocompact, v2.1.68 (protect 40k of recent results)', () => {
  it('clears the result that crosses 40k and everything older', () => {
    // Newest first: 10k + 10k + 10k + 9k = 39k protected; the next (5k) crosses and is cleared.
    const estimates = [8_000, 12_000, 5_000, 9_000, 10_000, 10_000, 10_000];
    expect(selectMicrocompact(estimates, v2168)).toEqual({ clear: [0, 1, 2], savings: 25_000 });
  });

  it('needs 20k of savings: exactly 20,000 acts, as cli.js clears nothing only while O < B3Y', () => {
    expect(selectMicrocompact([19_999, 9_000, 10_000, 10_000, 10_000, 1_000], v2168)).toBeUndefined();
    expect(selectMicrocompact([20_000, 9_000, 10_000, 10_000, 10_000, 1_000], v2168)?.savings).toBe(20_000);
  });

  it('always keeps the last three, however large', () => {
    expect(selectMicrocompact([30_000, 50_000, 50_000, 50_000], v2168)).toEqual({
      clear: [0],
      savings: 30_000,
    });
    expect(selectMicrocompact([60_000, 60_000, 60_000], v2168)).toBeUndefined();
  });
});

describe('selectMicrocompact, legacy (keep last 3, oldest first)', () => {
  it('clears oldest results while the total stays above the threshold', () => {
    // total 100k: clear 30k (70k left), 20k (50k), 15k (35k ≤ 40k: stop).
    expect(selectMicrocompact([30_000, 20_000, 15_000, 5_000, 10_000, 10_000, 10_000], legacy)).toEqual({
      clear: [0, 1, 2],
      savings: 65_000,
    });
  });

  it('does nothing under 20k of savings and never touches the last three', () => {
    expect(selectMicrocompact([19_000, 30_000, 30_000, 30_000], legacy)).toBeUndefined();
    expect(selectMicrocompact([50_000, 50_000, 50_000], legacy)).toBeUndefined();
  });
});
