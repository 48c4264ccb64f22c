import { beforeEach, describe, expect, it } from 'vitest';
import { getStrategy } from '../../src/engine/strategies/registry';
import { useReplayStore } from '../../src/ui/replay/replay-store';

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
});
