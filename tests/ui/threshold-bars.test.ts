import { describe, expect, it } from 'vitest';
import { computeThresholds, DEFAULT_THRESHOLD_KNOBS } from '../../src/engine/thresholds';
import { CLAUDE_CODE_STRATEGY } from '../../src/engine/strategies/claude-code';
import { CLINE_STRATEGY } from '../../src/engine/strategies/cline';
import { getClineMaxAllowed } from '../../src/engine/strategies/cline/knobs';
import { STRATEGIES } from '../../src/engine/strategies/registry';
import { getFirstTrigger, getThresholdBars } from '../../src/ui/timeline/threshold-bars';

// The chart's bars are whatever a strategy's `thresholds(knobs)` returns, under its own labels.

describe('threshold bars', () => {
  it("under Cline carry Cline's names and values (maxAllowedSize), not Claude Code's", () => {
    const knobs = CLINE_STRATEGY.normalizeKnobs({ contextWindow: 200_000 });
    const { bars, windowTokens } = getThresholdBars(CLINE_STRATEGY.thresholds(knobs));
    expect(bars).toHaveLength(1);
    expect(bars[0]).toMatchObject({
      id: 'max-allowed',
      label: 'maxAllowedSize',
      tokens: getClineMaxAllowed(knobs),
      kind: 'trigger',
      testId: 'threshold-maxallowed',
    });
    // 200k − 40k for a 200k window (Cline's context-window-utils).
    expect(bars[0]?.tokens).toBe(160_000);
    expect(windowTokens).toBe(200_000);
    expect(bars.map((b) => b.label).join(' ')).not.toMatch(/auto-compact|blocking|warning/);
    // Auto-condense on: its own line, its own label.
    const condense = getThresholdBars(CLINE_STRATEGY.thresholds({ ...knobs, useAutoCondense: true }));
    expect(condense.bars.map((b) => b.label)).toEqual(['Auto-condense']);
    expect(getFirstTrigger(condense.bars)?.label).toBe('Auto-condense');
  });

  it("under Claude Code are today's: auto-compact, warning = error, blocking, and the window", () => {
    const knobs = CLAUDE_CODE_STRATEGY.normalizeKnobs({ microcompactEnabled: false });
    const t = computeThresholds({ ...DEFAULT_THRESHOLD_KNOBS, ...knobs });
    const { bars, windowTokens } = getThresholdBars(CLAUDE_CODE_STRATEGY.thresholds(knobs));
    expect(bars.map((b) => [b.label, b.tokens, b.color, b.testId])).toEqual([
      ['auto-compact', t.autoCompact, '#f0a23b', 'threshold-autocompact'],
      ['warning = error', t.warning, '#d9c84a', 'threshold-warning'],
      ['blocking', t.blocking, '#b77fe0', 'threshold-blocking'],
    ]);
    expect(t.warning).toBe(t.error);
    expect(windowTokens).toBe(t.contextWindow);
    expect(getFirstTrigger(bars)?.label).toBe('auto-compact');
  });

  it('keeps a trigger the knobs turned off where it would be, marked off, never the one that fires', () => {
    const knobs = CLAUDE_CODE_STRATEGY.normalizeKnobs({
      autoCompactEnabled: false,
      microcompactEnabled: false,
    });
    const lines = CLAUDE_CODE_STRATEGY.thresholds(knobs);
    expect(lines.find((l) => l.id === 'auto-compact')).toMatchObject({ off: true, kind: 'trigger' });
    const { bars } = getThresholdBars(lines);
    expect(bars[0]).toMatchObject({
      label: 'auto-compact (off)',
      off: true,
      testId: 'threshold-autocompact',
    });
    // Nothing acts there: the tooltip's "over …" is about no bar of this strategy.
    expect(getFirstTrigger(bars)).toBeUndefined();
    const on = getThresholdBars(CLAUDE_CODE_STRATEGY.thresholds({ ...knobs, autoCompactEnabled: true }));
    expect(on.bars[0]).toMatchObject({ label: 'auto-compact', off: false });
  });

  it('draws every registered strategy, each bar with a colour and a test id', () => {
    for (const s of STRATEGIES) {
      const lines = s.thresholds(s.defaultKnobs);
      const { bars } = getThresholdBars(lines);
      expect(bars.length, s.id).toBe(lines.filter((l) => l.id !== 'window' && l.tokens > 0).length);
      for (const b of bars) {
        expect(b.color).toMatch(/^#[0-9a-f]{6}$/);
        expect(b.testId).toMatch(/^threshold-\S+$/);
      }
    }
  });
});
