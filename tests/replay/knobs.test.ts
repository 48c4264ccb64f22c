import { describe, expect, it } from 'vitest';
import { getTimelineBarKeys, normalizeKnob, normalizeKnobs } from '../../src/engine/strategies/knobs';
import { STRATEGIES } from '../../src/engine/strategies/registry';
import type { KnobSpec, KnobValue } from '../../src/engine/strategies/types';

// The one knob validator: any input gives knobs every spec accepts.

/** A small deterministic generator (mulberry32), so a failure reproduces. */
function createRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const JUNK: unknown[] = [
  undefined,
  null,
  '',
  ' ',
  'abc',
  '12',
  '1_500',
  '-3',
  'true',
  'false',
  true,
  false,
  0,
  -1,
  0.5,
  2.7,
  1e12,
  -1e12,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  [],
  ['Read', '', 3],
  'Read, Bash,,',
  {},
  { nested: 1 },
  'legacy',
  'v2.0',
];

function isValid(spec: KnobSpec, v: KnobValue): boolean {
  if (v === undefined) return spec.optional === true;
  switch (spec.kind) {
    case 'number':
      return (
        typeof v === 'number' &&
        Number.isFinite(v) &&
        v >= (spec.min ?? Number.NEGATIVE_INFINITY) &&
        v <= (spec.max ?? Number.POSITIVE_INFINITY) &&
        (!spec.integer || Number.isInteger(v))
      );
    case 'boolean':
      return typeof v === 'boolean';
    case 'select':
      return typeof v === 'string' && spec.options!.some((o) => o.value === v);
    case 'text':
      return typeof v === 'string';
    case 'list':
      return Array.isArray(v) && v.every((t) => typeof t === 'string' && t !== '');
  }
}

describe('normalizeKnobs', () => {
  for (const strategy of STRATEGIES) {
    it(`${strategy.id}: the defaults are valid under the specs and normalize to themselves`, () => {
      const defaults = strategy.defaultKnobs as Record<string, KnobValue>;
      for (const spec of strategy.knobSpecs) expect(isValid(spec, defaults[spec.key]), spec.key).toBe(true);
      expect(strategy.normalizeKnobs({}, strategy.defaultKnobs)).toEqual(defaults);
      expect(strategy.normalizeKnobs(undefined)).toEqual(defaults);
      // Every key of the knobs has a spec: nothing escapes validation.
      const keys = strategy.knobSpecs.map((s) => s.key);
      for (const key of Object.keys(defaults)) expect(keys).toContain(key);
    });

    it(`${strategy.id}: any input gives knobs every spec accepts`, () => {
      const random = createRandom(strategy.id.length * 7919);
      for (let round = 0; round < 300; round++) {
        const input: Record<string, unknown> = { unknownKey: 'ignored' };
        for (const spec of strategy.knobSpecs) {
          if (random() < 0.3) continue;
          input[spec.key] =
            random() < 0.5
              ? JUNK[Math.floor(random() * JUNK.length)]
              : (random() - 0.3) * 10 ** Math.floor(random() * 8);
        }
        const knobs = strategy.normalizeKnobs(input) as Record<string, KnobValue>;
        expect(knobs).not.toHaveProperty('unknownKey');
        for (const spec of strategy.knobSpecs) {
          const v = knobs[spec.key];
          if (!isValid(spec, v))
            throw new Error(`${spec.key}: ${JSON.stringify(input[spec.key])} → ${String(v)}`);
        }
      }
    });
  }

  const number: KnobSpec = {
    key: 'n',
    label: 'n',
    kind: 'number',
    min: 0,
    max: 50,
    integer: true,
    source: 'test',
    group: 'test',
  };
  it('clamps numbers to the spec, rounds integers, reads numeric strings', () => {
    expect(normalizeKnob(number, 2.6, 3)).toBe(3);
    expect(normalizeKnob(number, 900, 3)).toBe(50);
    expect(normalizeKnob(number, -4, 3)).toBe(0);
    expect(normalizeKnob(number, '12', 3)).toBe(12);
    expect(normalizeKnob(number, 'abc', 3)).toBe(3);
    expect(normalizeKnob({ ...number, integer: false }, 2.5, 3)).toBe(2.5);
  });

  it('clears an optional knob with null or an empty field, keeps it when absent', () => {
    const optional = { ...number, optional: true };
    expect(normalizeKnob(optional, null, 7)).toBeUndefined();
    expect(normalizeKnob(optional, '', 7)).toBeUndefined();
    expect(normalizeKnob(optional, undefined, 7)).toBe(7);
    expect(normalizeKnob(number, null, 7)).toBe(7);
  });

  it('limits selects to their options and reads lists and booleans from strings', () => {
    const select: KnobSpec = {
      ...number,
      kind: 'select',
      options: [
        { value: 'a', label: 'A' },
        { value: 'b', label: 'B' },
      ],
    };
    expect(normalizeKnob(select, 'b', 'a')).toBe('b');
    expect(normalizeKnob(select, 'c', 'a')).toBe('a');
    expect(normalizeKnob({ ...number, kind: 'list' }, 'Read, Bash,,', [])).toEqual(['Read', 'Bash']);
    expect(normalizeKnob({ ...number, kind: 'boolean' }, 'false', true)).toBe(false);
    expect(normalizeKnob({ ...number, kind: 'boolean' }, 1, true)).toBe(true);
  });

  it('takes missing keys from the base, not the defaults', () => {
    const specs = [number, { ...number, key: 'm' }];
    expect(normalizeKnobs(specs, { n: 9 }, { n: 1, m: 4 })).toEqual({ n: 9, m: 4 });
  });

  it('lets the timeline bar set Claude Code’s threshold knobs only', () => {
    const byId = Object.fromEntries(STRATEGIES.map((s) => [s.id, getTimelineBarKeys(s.knobSpecs)]));
    expect(byId['claude-code']).toEqual([
      'profile',
      'contextWindow',
      'maxOutputTokens',
      'autocompactPctOverride',
      'blockingLimitOverride',
      'autoCompactEnabled',
    ]);
    // Codex and API context editing have a contextWindow / autoCompactEnabled of their own.
    expect(byId.codex).toEqual([]);
    expect(byId['api-clear-tool-uses']).toEqual([]);
  });
});
