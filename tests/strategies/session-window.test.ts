import { describe, expect, it } from 'vitest';
import { inferContextWindow } from '../../src/engine/parse/context-window';
import { getLogWindow } from '../../src/engine/strategies/session-window';
import type { SessionInfo } from '../../src/engine/strategies/types';

const base: SessionInfo = {
  versions: [],
  models: ['claude-sonnet-4-5'],
  isSubagent: false,
  autoCompactions: 0,
  microcompactions: 0,
  continuedPeakTokens: 0,
};
const inferred = inferContextWindow({
  models: ['claude-sonnet-4-5'],
  peakContextTokens: 150_000,
  autoCompactPreTokens: [],
});
const rule = {
  fallback: 128_000,
  fallbackNote: 'default',
  byModel: ({ models }: SessionInfo) =>
    models.some((m) => m.includes('deepseek')) ? { tokens: 64_000, why: 'DeepSeek' } : undefined,
};

describe('getLogWindow', () => {
  it('takes the window the log states before anything else', () => {
    const w = getLogWindow(
      { ...base, contextWindow: 400_000, windowInference: inferred, models: ['deepseek'] },
      rule,
    );
    expect(w).toMatchObject({ tokens: 400_000, source: 'stated' });
    expect(w.note).toContain('stated by the log');
    // The inference still travels with it (OpenCode reads its max output).
    expect(w.inference).toBe(inferred);
  });

  it("then the strategy's rule for the model, then the inference, then the default", () => {
    expect(
      getLogWindow({ ...base, windowInference: inferred, models: ['deepseek-chat'] }, rule),
    ).toMatchObject({
      tokens: 64_000,
      source: 'model',
    });
    const fromLog = getLogWindow({ ...base, windowInference: inferred }, rule);
    expect(fromLog).toMatchObject({
      tokens: inferred.windowTokens,
      source: 'inferred',
      note: inferred.reasons[0],
    });
    expect(getLogWindow(base, rule)).toEqual({ tokens: 128_000, source: 'default', note: 'default' });
  });

  it('ignores a stated or inferred window of zero', () => {
    const zero = { ...inferred, windowTokens: 0 };
    expect(getLogWindow({ ...base, contextWindow: 0, windowInference: zero }, rule).source).toBe('default');
  });
});
