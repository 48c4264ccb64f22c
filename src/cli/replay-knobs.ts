import type { ParseArgsConfig } from 'node:util';
import { at } from '../engine/assert';
import type { CompactionStrategy, KnobSpec, KnobValue } from '../engine/strategies/types';

// A strategy's CLI flags and `--help`, generated from its knob specs: a spec with a `cliFlag` is a
// named flag; any knob is `--knob key=value`. Nothing here names a strategy or a knob.

type Options = NonNullable<ParseArgsConfig['options']>;
// biome-ignore lint/suspicious/noExplicitAny: strategies differ in their knob types.
type AnyStrategy = CompactionStrategy<any>;

/** The flags `parseArgs` accepts for this strategy's knobs (booleans also as `--no-<flag>`). */
export function getKnobFlagOptions(strategy: AnyStrategy): Options {
  const options: Options = { knob: { type: 'string', multiple: true } };
  for (const spec of strategy.knobSpecs) {
    if (!spec.cliFlag) continue;
    if (spec.kind === 'boolean') {
      options[spec.cliFlag] = { type: 'boolean' };
      options[`no-${spec.cliFlag}`] = { type: 'boolean' };
    } else options[spec.cliFlag] = { type: 'string' };
  }
  return options;
}

/** The spec a sweep or `--knob` names: a knob key, or a named flag. */
export function findKnobSpec(strategy: AnyStrategy, name: string): KnobSpec | undefined {
  return strategy.knobSpecs.find((s) => s.key === name) ?? strategy.knobSpecs.find((s) => s.cliFlag === name);
}

/** One flag's text as the knob's input; a string result is the error. */
function parseKnobText(spec: KnobSpec, text: string, flag: string): KnobValue | null | { error: string } {
  const t = text.trim();
  if (spec.optional && t === '') return null;
  switch (spec.kind) {
    case 'number': {
      const x = Number(t.replace(/[_,]/g, ''));
      if (t === '' || !Number.isFinite(x)) return { error: `${flag} expects a number, got "${text}"` };
      // Out of the knob's range is an error, not a value clamped without a word (--window 0).
      const unit = spec.unit === 'tokens' ? ' tokens' : spec.unit === 'percent' ? '%' : '';
      const fmt = (n: number) => `${n.toLocaleString('en-US')}${unit}`;
      if (spec.min !== undefined && x < spec.min)
        return { error: `${flag} is at least ${fmt(spec.min)}, got "${text}"` };
      if (spec.max !== undefined && x > spec.max)
        return { error: `${flag} is at most ${fmt(spec.max)}, got "${text}"` };
      return x;
    }
    case 'boolean':
      return t === 'true'
        ? true
        : t === 'false'
          ? false
          : { error: `${flag} expects true or false, got "${text}"` };
    case 'select': {
      const values = spec.options?.map((o) => o.value) ?? [];
      return values.includes(t) ? t : { error: `${flag} is one of ${values.join(', ')}, got "${text}"` };
    }
    case 'list':
      return t
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    case 'text':
      return text;
  }
}

/**
 * The knob overrides `parseArgs` values give (named flags, then `--knob key=value` in order), or
 * the first error. Values are checked here so that a typo is an error, not a silent default.
 */
export function getKnobOverrides(
  strategy: AnyStrategy,
  values: Record<string, unknown>,
): { overrides: Record<string, unknown> } | { error: string } {
  const overrides: Record<string, unknown> = {};
  for (const spec of strategy.knobSpecs) {
    const flag = spec.cliFlag;
    if (!flag) continue;
    if (spec.kind === 'boolean') {
      // `--no-x` wins over `--x` when both are given.
      if (values[flag]) overrides[spec.key] = !spec.cliInverted;
      if (values[`no-${flag}`]) overrides[spec.key] = spec.cliInverted === true;
      continue;
    }
    const raw = values[flag];
    if (typeof raw !== 'string') continue;
    const v = parseKnobText(spec, raw, `--${flag}`);
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) return v;
    overrides[spec.key] = v;
  }
  for (const arg of (values.knob as string[] | undefined) ?? []) {
    const eq = arg.indexOf('=');
    const key = eq < 0 ? arg : arg.slice(0, eq);
    const spec = strategy.knobSpecs.find((s) => s.key === key);
    if (eq < 0 || !spec)
      return {
        error: `--knob expects <key>=<value> with a knob of ${strategy.id} (${strategy.knobSpecs.map((s) => s.key).join(', ')}), got "${arg}"`,
      };
    const v = parseKnobText(spec, arg.slice(eq + 1), `--knob ${key}`);
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) return v;
    overrides[spec.key] = v;
  }
  return { overrides };
}

const fmt = (n: number) => n.toLocaleString('en-US');

function placeholder(spec: KnobSpec): string {
  switch (spec.kind) {
    case 'number':
      return 'N';
    case 'boolean':
      return 'true|false';
    case 'select':
      return spec.options?.map((o) => o.value).join('|') ?? '';
    case 'list':
      return 'a,b,…';
    case 'text':
      return 'TEXT';
  }
}

function formatValue(v: KnobValue): string {
  if (v === undefined) return 'none';
  if (typeof v === 'number') return fmt(v);
  if (Array.isArray(v)) return v.length ? v.join(',') : 'none';
  return String(v);
}

/** `compactlab replay --strategy <id> --help`: each knob's flags, label, unit, default, range, source. */
export function formatKnobHelp(strategy: AnyStrategy): string {
  const defaults = strategy.defaultKnobs as Record<string, KnobValue>;
  const lines = [`Knobs of ${strategy.id} (${strategy.label}): ${strategy.description}`];
  for (const spec of strategy.knobSpecs) {
    const flags: string[] = [];
    if (spec.cliFlag)
      flags.push(
        spec.kind === 'boolean' ? `--[no-]${spec.cliFlag}` : `--${spec.cliFlag} ${placeholder(spec)}`,
      );
    flags.push(`--knob ${spec.key}=${placeholder(spec)}`);
    const facts = [`default ${formatValue(defaults[spec.key])}`];
    if (spec.kind === 'number') {
      const range = `${spec.min === undefined ? '…' : fmt(spec.min)}–${spec.max === undefined ? '…' : fmt(spec.max)}`;
      facts.push(spec.integer ? `${range}, whole numbers` : range);
    }
    if (spec.optional) facts.push('optional (empty = off)');
    if (spec.cliInverted) facts.push(`--no-${spec.cliFlag} sets it`);
    lines.push(
      `  ${flags.join(', ')}`,
      `      ${spec.label}${spec.unit ? ` (${spec.unit})` : ''}: ${facts.join(', ')}`,
      `      source: ${spec.source}`,
    );
    if (spec.help) lines.push(`      ${spec.help}`);
  }
  return lines.join('\n');
}

/** The named flags of a strategy for the general usage text, in lines of at most `widthChars` after `indent`. */
export function formatKnobFlags(strategy: AnyStrategy, indent = '      ', widthChars = 96): string {
  const flags = strategy.knobSpecs
    .filter((s) => s.cliFlag)
    .map((s) => (s.kind === 'boolean' ? `--[no-]${s.cliFlag}` : `--${s.cliFlag} ${placeholder(s)}`));
  const lines: string[] = [];
  let line = '';
  for (const flag of flags) {
    if (line && indent.length + line.length + 1 + flag.length > widthChars) {
      lines.push(indent + line);
      line = flag;
    } else line = line ? `${line} ${flag}` : flag;
  }
  if (line) lines.push(indent + line);
  return lines.join('\n');
}

/** Every strategy's knob flags together (a flag several strategies share is one option). */
export function getAllKnobFlagOptions(strategies: readonly AnyStrategy[]): Options {
  const options: Options = {};
  for (const s of strategies) {
    for (const [flag, option] of Object.entries(getKnobFlagOptions(s))) options[flag] ??= option;
  }
  return options;
}

/**
 * Knob overrides for several strategies at once (`compactlab replay --strategy a,b`): a named flag
 * and a plain `--knob key=value` go to every strategy that has that flag or key (an error when none
 * has it); `--knob <strategy>.<key>=<value>` to that strategy only. Returns overrides by strategy
 * id, or the first error.
 */
export function getMultiKnobOverrides(
  strategies: readonly AnyStrategy[],
  values: Record<string, unknown>,
): { overrides: Record<string, Record<string, unknown>> } | { error: string } {
  const ids = strategies.map((s) => s.id);
  // Named flags: each strategy reads the ones it has (parseArgs refused any flag none has).
  const out: Record<string, Record<string, unknown>> = {};
  for (const s of strategies) {
    const own = getKnobOverrides(s, { ...values, knob: [] });
    if ('error' in own) return { error: `${own.error} (${s.id})` };
    out[s.id] = own.overrides;
  }
  for (const arg of (values.knob as string[] | undefined) ?? []) {
    const eq = arg.indexOf('=');
    if (eq < 0) return { error: `--knob expects [<strategy>.]<key>=<value>, got "${arg}"` };
    const name = arg.slice(0, eq);
    const dot = name.indexOf('.');
    const qualified = dot > 0 && ids.includes(name.slice(0, dot));
    const targets = qualified ? strategies.filter((s) => s.id === name.slice(0, dot)) : strategies;
    const key = qualified ? name.slice(dot + 1) : name;
    const having = targets.filter((s) => s.knobSpecs.some((k) => k.key === key));
    if (having.length === 0)
      return {
        error: qualified
          ? `--knob ${name}: ${key} is not a knob of ${name.slice(0, dot)} (${at(targets, 0)
              .knobSpecs.map((k) => k.key)
              .join(', ')})`
          : `--knob ${name}: no strategy of ${ids.join(', ')} has a knob "${key}" (a knob of one strategy: --knob <strategy>.<key>=<value>)`,
      };
    for (const s of having) {
      const r = getKnobOverrides(s, { knob: [`${key}=${arg.slice(eq + 1)}`] });
      if ('error' in r) return { error: `${r.error} (${s.id})` };
      Object.assign(out[s.id]!, r.overrides);
    }
  }
  return { overrides: out };
}
