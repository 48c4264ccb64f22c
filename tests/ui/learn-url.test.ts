import { describe, expect, it } from 'vitest';
import { parseLearnParams, writeLearnParams } from '../../src/ui/learn/learn-url';

// Learn mode's URL parameters (ui/learn/learn-url.ts): read and written without touching the
// other parameters another module keeps in the same query string.

describe('learn URL parameters', () => {
  it('reads the strategy, the 1-based step and large type', () => {
    expect(parseLearnParams('?learn=claude-code&step=3')).toEqual({
      strategyId: 'claude-code',
      step: 2,
      large: false,
    });
    expect(parseLearnParams('?x=1&learn=cline&large=1')).toEqual({
      strategyId: 'cline',
      step: 0,
      large: true,
    });
    expect(parseLearnParams('?strategy=codex')).toBeUndefined();
  });

  it('refuses what is not a strategy id or a step number', () => {
    expect(parseLearnParams('?learn=%3Cscript%3E')).toBeUndefined();
    expect(parseLearnParams('?learn=')).toBeUndefined();
    expect(parseLearnParams('?learn=codex&step=-4')?.step).toBe(0);
    expect(parseLearnParams('?learn=codex&step=2e9')?.step).toBe(0);
    expect(parseLearnParams('?learn=codex&step=0')?.step).toBe(0);
  });

  it('writes its own parameters and keeps the others in order', () => {
    const state = { strategyId: 'claude-code', step: 4, large: true };
    expect(writeLearnParams('?strategy=codex&knobs=a%3D1', state)).toBe(
      '?strategy=codex&knobs=a%3D1&learn=claude-code&step=5&large=1',
    );
    // Writing again replaces, never duplicates.
    expect(writeLearnParams('?learn=cline&step=9&view=t', { ...state, large: false })).toBe(
      '?view=t&learn=claude-code&step=5',
    );
    expect(writeLearnParams('?view=t&learn=cline&step=2&large=1', undefined)).toBe('?view=t');
    expect(writeLearnParams('?learn=cline', undefined)).toBe('');
  });

  it('round-trips', () => {
    const state = { strategyId: 'boundary-scoring', step: 7, large: false };
    expect(parseLearnParams(writeLearnParams('?a=b', state))).toEqual(state);
  });
});
