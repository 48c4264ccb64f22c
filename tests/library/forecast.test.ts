import { describe, expect, it } from 'vitest';
import { computeForecast } from '../../src/engine/library/forecast';
import type { LibraryRow } from '../../src/engine/library/library-row';

function row(recentContexts: number[], extra: Partial<LibraryRow> = {}): LibraryRow {
  return {
    agent: 'Claude Code',
    versions: ['2.1.72'],
    models: ['claude-opus-4-6'],
    apiCalls: 100,
    sidechainCalls: 0,
    peakContextTokens: Math.max(...recentContexts),
    lastContextTokens: recentContexts.at(-1) ?? 0,
    compactions: { auto: 0, manual: 0, micro: 0, truncated: 0, inSubagents: 0 },
    recentContexts,
    callsBeforeLastCompact: 0,
    subagentFiles: 0,
    issues: 0,
    brokenLines: 0,
    unread: 0,
    costUsd: 0,
    unpricedCalls: 0,
    usage: [],
    ...extra,
  };
}

describe('computeForecast', () => {
  // The worker gives the threshold (the log's own agent's: tests/worker/session-append.test.ts).
  const threshold = 167_000;

  it('counts the calls left at the recent pace, up to the threshold of the log’s version', () => {
    const f = computeForecast(row([100_000, 102_000, 104_000, 106_000]), threshold)!;
    expect(f.thresholdTokens).toBe(threshold);
    expect(f.paceTokensPerCall).toBe(2_000);
    expect(f.leftTokens).toBe(threshold - 106_000);
    expect(f.callsLeft).toBe(Math.ceil((threshold - 106_000) / 2_000));
    expect(f.predictedAtCall).toBe(100 + f.callsLeft!);
  });

  it('leaves the drop of the last compaction out of the pace', () => {
    // Calls 95–100: the compaction came after call 97 (context fell from 160k to 30k).
    const f = computeForecast(
      row([150_000, 155_000, 160_000, 30_000, 33_000, 36_000], { callsBeforeLastCompact: 97 }),
      threshold,
    )!;
    expect(f.paceTokensPerCall).toBe(3_000);
  });

  it('says nothing about calls when the context does not grow, and nothing at all before a call', () => {
    expect(computeForecast(row([50_000, 50_000]), threshold)!.callsLeft).toBeUndefined();
    expect(computeForecast(row([]), threshold)).toBeUndefined();
  });

  it('forecasts nothing where the agent has no automatic compaction on', () => {
    expect(computeForecast(row([100_000, 110_000]), undefined)).toBeUndefined();
  });
});
