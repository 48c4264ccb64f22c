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

describe('the compaction walked in the URL', () => {
  it('reads and writes `event`, the replay event of the compaction, others kept', () => {
    expect(parseLearnParams('?learn=gemini-cli&event=2&step=4')).toEqual({
      strategyId: 'gemini-cli',
      step: 3,
      large: false,
      event: 2,
    });
    // Not a number: the walk's default compaction.
    expect(parseLearnParams('?learn=gemini-cli&event=-1')?.event).toBeUndefined();
    expect(parseLearnParams('?learn=gemini-cli&event=x')?.event).toBeUndefined();
    const state = { strategyId: 'gemini-cli', step: 3, large: false, event: 2 };
    expect(writeLearnParams('?view=t&event=9', state)).toBe('?view=t&learn=gemini-cli&event=2&step=4');
    expect(writeLearnParams('?learn=gemini-cli&event=2&step=4&x=1', undefined)).toBe('?x=1');
    expect(parseLearnParams(writeLearnParams('?a=b', state))).toEqual(state);
  });
});
