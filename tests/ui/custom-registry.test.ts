import { afterEach, describe, expect, it } from 'vitest';
import example from '../../examples/strategies/clear-old-results';
import { adaptCustomStrategy } from '../../src/engine/strategies/custom';
import {
  forgetCustomStrategiesOtherThan,
  getPageStrategyDescriptor,
  getStrategyClient,
  isCustomStrategyId,
  noteCustomThresholds,
  registerPageCustomStrategy,
  unregisterPageCustomStrategy,
  useCustomStrategies,
} from '../../src/ui/custom/custom-registry';
import { useReplayStore } from '../../src/ui/replay/replay-store';
import { type EngineClient, getEngineClient } from '../../src/worker/engine-client';

// The page's registry of custom strategies the user ran (ui/custom/custom-registry.ts): what the
// sandbox said of one (plain data, as sandbox-runtime.ts posts it) becomes a descriptor the page
// looks up beside the built-ins, and a request naming it goes to its sandbox, never to the engine.

/** A sandbox's client that records what it was asked. */
function fakeSandbox(): EngineClient & { asked: string[]; terminated: boolean } {
  const client = {
    asked: [] as string[],
    terminated: false,
    request: (request: { kind: string }) => {
      client.asked.push(request.kind);
      return Promise.reject(new Error('not answered'));
    },
    terminate: () => {
      client.terminated = true;
    },
  };
  return client as unknown as EngineClient & { asked: string[]; terminated: boolean };
}

/** What the sandbox posts of the example (sandbox-runtime.ts: the adapted strategy's data). */
function readyOf() {
  const strategy = adaptCustomStrategy(example);
  return {
    id: strategy.id,
    label: strategy.label,
    description: strategy.description,
    knobSpecs: [...strategy.knobSpecs],
    defaultKnobs: { ...strategy.defaultKnobs },
  };
}

afterEach(() => {
  for (const id of Object.keys(useCustomStrategies.getState().entries)) unregisterPageCustomStrategy(id);
});

describe('custom strategies beside the built-ins in the page', () => {
  it('routes requests naming a custom strategy to its sandbox, the rest to the engine', () => {
    const sandbox = fakeSandbox();
    expect(isCustomStrategyId('clear-old-results')).toBe(false);
    registerPageCustomStrategy(readyOf(), sandbox, 7);
    expect(isCustomStrategyId('clear-old-results')).toBe(true);
    expect(getStrategyClient('clear-old-results')).toBe(sandbox);
    // A comparison that includes it runs in its sandbox (which has the built-ins too).
    expect(getStrategyClient('claude-code', 'codex', 'clear-old-results')).toBe(sandbox);
    expect(getStrategyClient('claude-code', 'codex')).toBe(getEngineClient());
    expect(getStrategyClient()).toBe(getEngineClient());
  });

  it('gives a descriptor whose knobs normalize as the sandbox’s do, its lines from its runs', () => {
    registerPageCustomStrategy(readyOf(), fakeSandbox(), 7);
    const descriptor = getPageStrategyDescriptor('clear-old-results');
    expect(descriptor.label).toBe('Custom: Clear old tool results');
    expect(descriptor.knobSpecs.map((s) => s.key)).toEqual(['triggerTokens', 'keepTurns', 'contextWindow']);
    const engineSide = adaptCustomStrategy(example);
    const input = { triggerTokens: 150_000, keepTurns: 'two', unknown: 1 };
    const knobs = descriptor.normalizeKnobs(input, descriptor.defaultKnobs);
    expect(knobs).toEqual(engineSide.normalizeKnobs(input, engineSide.defaultKnobs));
    expect(knobs.triggerTokens).toBe(150_000);
    // No run yet: no lines (the page never calls the strategy's own code).
    expect(descriptor.thresholds(knobs)).toEqual([]);
    const version = useCustomStrategies.getState().version;
    const lines = engineSide.thresholds(knobs);
    expect(lines.length).toBeGreaterThan(0);
    noteCustomThresholds('clear-old-results', { ...knobs }, lines);
    expect(useCustomStrategies.getState().version).toBe(version + 1);
    expect(descriptor.thresholds(knobs)).toEqual(lines);
    // Built-ins are still the built-ins; an unknown id still says so.
    expect(getPageStrategyDescriptor('codex').id).toBe('codex');
    expect(() => getPageStrategyDescriptor('nope')).toThrow(/Unknown strategy "nope"/);
  });

  it('a new run replaces the earlier sandbox; a new session stops them and the strip falls back', () => {
    const first = fakeSandbox();
    const second = fakeSandbox();
    registerPageCustomStrategy(readyOf(), first, 7);
    registerPageCustomStrategy(readyOf(), second, 7);
    expect(first.terminated).toBe(true);
    expect(getStrategyClient('clear-old-results')).toBe(second);
    useReplayStore.getState().setStrategy('clear-old-results');
    forgetCustomStrategiesOtherThan(7);
    expect(second.terminated).toBe(false);
    forgetCustomStrategiesOtherThan(8);
    expect(second.terminated).toBe(true);
    expect(isCustomStrategyId('clear-old-results')).toBe(false);
    expect(useReplayStore.getState().strategyId).toBe('claude-code');
    expect(useReplayStore.getState().strategyChosen).toBe(false);
    expect(getStrategyClient('clear-old-results')).toBe(getEngineClient());
  });
});
