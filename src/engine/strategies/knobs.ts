import type { KnobSpec, KnobValue } from './types';

// One validator for every strategy's knobs, derived from its `KnobSpec`s (STYLE.md §11): the specs
// that draw the panel and the CLI's flags are also what untrusted input is checked against, so a
// range shown is the range accepted.

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A number from a number or a numeric string (`"80"`, the CLI's and a form's values); else NaN. */
function toNumber(v: unknown): number {
  const x = typeof v === 'string' && v.trim() !== '' ? Number(v.replace(/[_,]/g, '')) : v;
  return typeof x === 'number' && Number.isFinite(x) ? x : Number.NaN;
}

/** A list from an array of strings or a comma-separated string (empty names dropped); else undefined. */
function toList(v: unknown): string[] | undefined {
  if (Array.isArray(v)) return v.filter((t): t is string => typeof t === 'string' && t !== '');
  if (typeof v === 'string')
    return v
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
  return undefined;
}

function toBoolean(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (v === 'true') return true;
  if (v === 'false') return false;
  return undefined;
}

/** The value `input` gives one knob, or `fallback` when it gives none that is valid. */
export function normalizeKnob(spec: KnobSpec, input: unknown, fallback: KnobValue): KnobValue {
  // `null` or an empty field clears an optional knob; `undefined` (absent) keeps the fallback.
  if (spec.optional && (input === null || input === '')) return undefined;
  if (input === undefined) return fallback;
  switch (spec.kind) {
    case 'number': {
      const x = toNumber(input);
      if (Number.isNaN(x)) return fallback;
      const clamped = Math.min(
        spec.max ?? Number.POSITIVE_INFINITY,
        Math.max(spec.min ?? Number.NEGATIVE_INFINITY, x),
      );
      return spec.integer ? Math.round(clamped) : clamped;
    }
    case 'boolean':
      return toBoolean(input) ?? fallback;
    case 'select':
      return typeof input === 'string' && spec.options?.some((o) => o.value === input) ? input : fallback;
    case 'text':
      return typeof input === 'string' ? input : fallback;
    case 'list':
      return toList(input) ?? fallback;
  }
}

const templates = new WeakMap<readonly KnobSpec[], Record<string, KnobValue>>();

/**
 * An object with every spec'd key, in spec order, in V8's fast mode (a JSON.parse result): each
 * knobs object is a copy of it, so all share one shape. Built key by key through computed names,
 * 25 knobs would be a dictionary-mode object, read by the strategies on every call of the loop.
 */
function getTemplate(specs: readonly KnobSpec[]): Record<string, KnobValue> {
  let template = templates.get(specs);
  if (!template) {
    template = JSON.parse(JSON.stringify(Object.fromEntries(specs.map((s) => [s.key, null])))) as Record<
      string,
      KnobValue
    >;
    templates.set(specs, template);
  }
  return template;
}

/**
 * Validates untrusted input (CLI, UI, worker messages) into complete knobs: every spec'd key from
 * `input` when valid, else from `base`; numbers clamped to the spec's range (rounded where it says
 * `integer`), selects limited to their options; unknown keys ignored.
 */
export function normalizeKnobs<K extends object>(specs: readonly KnobSpec[], input: unknown, base: K): K {
  const i = isObject(input) ? input : {};
  const b = base as Record<string, KnobValue>;
  const out = { ...getTemplate(specs) };
  for (const spec of specs) out[spec.key] = normalizeKnob(spec, i[spec.key], b[spec.key]);
  return out as K;
}

/** A strategy's `normalizeKnobs`, bound to its specs and defaults. */
export function createKnobNormalizer<K extends object>(
  specs: readonly KnobSpec[],
  defaults: K,
): (input: unknown, base?: K) => K {
  return (input, base = defaults) => normalizeKnobs(specs, input, base);
}

/** The keys the timeline's knobs bar may set for a strategy (its specs that say `timelineBar`). */
export function getTimelineBarKeys(specs: readonly KnobSpec[]): string[] {
  return specs.filter((s) => s.timelineBar).map((s) => s.key);
}

/**
 * The context-window knob, alike in every strategy that has one (its range, label and `--window`
 * flag); where the default comes from and the panel section are the strategy's.
 */
export function contextWindowSpec(source: string, group: string, extra: Partial<KnobSpec> = {}): KnobSpec {
  return {
    key: 'contextWindow',
    label: 'Context window',
    kind: 'number',
    unit: 'tokens',
    min: 10_000,
    max: 2_000_000,
    step: 1_000,
    integer: true,
    source,
    group,
    cliFlag: 'window',
    ...extra,
  };
}
