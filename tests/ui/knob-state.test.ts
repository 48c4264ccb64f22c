import { beforeEach, describe, expect, it } from 'vitest';
import { getStrategy } from '../../src/engine/strategies/registry';
import { DEFAULT_THRESHOLD_KNOBS } from '../../src/engine/thresholds';
import { useReplayStore } from '../../src/ui/replay/replay-store';
import { overlayThresholdKnobs } from '../../src/ui/replay/use-knobs';

// One knob state: the user's overrides per strategy, the effective knobs derived from them.

describe('the knob state', () => {
  beforeEach(() => {
    useReplayStore.setState({ strategyId: 'claude-code' });
    useReplayStore.getState().initSession(1);
  });

  it("writes a knob to the selected strategy only: another strategy's knob of the same name stays", () => {
    const store = useReplayStore.getState();
    store.setKnob('contextWindow', 1_000_000);
    store.setStrategy('codex');
    useReplayStore.getState().setKnob('thresholdPercent', 70);
    const { overrides } = useReplayStore.getState();
    expect(overrides['claude-code']).toEqual({ contextWindow: 1_000_000 });
    expect(overrides.codex).toEqual({ thresholdPercent: 70 });
    useReplayStore.getState().resetKnobs();
    expect(useReplayStore.getState().overrides).toEqual({ 'claude-code': { contextWindow: 1_000_000 } });
  });

  it('a new session starts from the log’s knobs', () => {
    useReplayStore.getState().setKnob('autocompactPctOverride', 50);
    useReplayStore.getState().initSession(2);
    expect(useReplayStore.getState().overrides).toEqual({});
  });

  it('derives the effective knobs from the overrides over the log’s; null clears an optional knob', () => {
    const strategy = getStrategy('claude-code');
    const log = strategy.normalizeKnobs({ autocompactPctOverride: 60, profile: 'v2.0' });
    expect(strategy.normalizeKnobs({}, log)).toEqual(log);
    const effective = strategy.normalizeKnobs({ autocompactPctOverride: null, maxOutputTokens: 8_000 }, log);
    expect(effective.autocompactPctOverride).toBeUndefined();
    expect(effective.maxOutputTokens).toBe(8_000);
    expect(effective.profile).toBe('v2.0');
  });

  it("the chart's threshold knobs take the selected strategy's where it has them", () => {
    const claude = getStrategy('claude-code').normalizeKnobs({ profile: 'v2.0', autocompactPctOverride: 50 });
    const codex = getStrategy('codex').normalizeKnobs({ contextWindow: 272_000 });
    const knobs = overlayThresholdKnobs(overlayThresholdKnobs(DEFAULT_THRESHOLD_KNOBS, claude), codex);
    expect(knobs).toMatchObject({ profile: 'v2.0', contextWindow: 272_000, autocompactPctOverride: 50 });
    // Cleared in the selected strategy: cleared on the chart.
    const cleared = getStrategy('claude-code').normalizeKnobs({ autocompactPctOverride: null }, claude);
    expect(overlayThresholdKnobs(knobs, cleared).autocompactPctOverride).toBeUndefined();
  });
});
