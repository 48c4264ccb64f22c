import type { ThresholdLine } from '../simulation/types';
import type { Knobs, KnobDef, Strategy, Threshold } from './api';
import { CustomStrategyError, createStepView, toStrategyActions } from './custom-actions';
import { contextWindowSpec, createKnobNormalizer } from './knobs';
import { borrowedSummarySize } from './summary-size';
import type { CompactionStrategy, KnobSpec, KnobValue, StrategyRun } from './types';

/** The engine's knobs (a custom strategy's are numbers and switches, every one set). */
type EngineKnobs = Record<string, KnobValue>;

// A strategy written against the public API (api.ts, docs/custom-strategies.md), checked and
// adapted into the engine's `CompactionStrategy`: its knobs become knob specs (the panel, `--knob`,
// Sweep), its thresholds lines, its `step` the run's. Registered (registry.ts
// `registerCustomStrategy`), it is a strategy like the built-ins to every caller. Its code runs
// only through the host's `call` (the CLI's time-limited context, the page's sandbox worker):
// what throws there comes back as a `CustomStrategyError` naming the call and, where the host
// knows it, the line.

/** Where a custom strategy's code runs: each call into it goes through `call`. */
export interface CustomStrategyHost {
  /** Runs `fn` (the strategy's own code) under the host's limits; throws a `CustomStrategyError`. */
  call<T>(what: string, fn: () => T): T;
  /** A replay begins (the host's time limit is per replay: one session at one setting). */
  startRun?(): void;
  /** The file it came from, for the notes (`my-strategy.ts`). */
  fileName?: string;
}

/** Calls straight through; an error is named but has no line (the CLI and the sandbox give one). */
const DIRECT_HOST: CustomStrategyHost = {
  call: (what, fn) => {
    try {
      return fn();
    } catch (err) {
      if (err instanceof CustomStrategyError) throw err;
      throw new CustomStrategyError(`${what} threw: ${err instanceof Error ? err.message : String(err)}`);
    }
  },
};

const ID = /^[a-z0-9][a-z0-9-]{0,47}$/;
const KEY = /^[A-Za-z][A-Za-z0-9_]{0,47}$/;
/** Ours: limits on what a definition declares (the panel lists knobs; the chart draws lines). */
const MAX_KNOBS = 40;
const MAX_THRESHOLDS = 20;
const MAX_LABEL_CHARS = 80;
const MAX_DESCRIPTION_CHARS = 1_000;
/** Ours: the window a strategy without its own knob starts from when the log does not say one. */
const DEFAULT_WINDOW = 200_000;
const GROUP = 'Custom strategy';

const fmt = (n: number) => n.toLocaleString('en-US');

function fail(message: string): never {
  throw new CustomStrategyError(message);
}

function text(x: unknown, what: string, max: number, optional = false): string | undefined {
  if (x === undefined && optional) return undefined;
  if (typeof x !== 'string' || x.trim() === '') fail(`${what} must be non-empty text`);
  if (x.length > max) fail(`${what} is ${fmt(x.length)} characters (the limit is ${fmt(max)})`);
  return x;
}

function finite(x: unknown, what: string, optional = true): number | undefined {
  if (x === undefined && optional) return undefined;
  if (typeof x !== 'number' || !Number.isFinite(x)) fail(`${what} must be a finite number`);
  return x;
}

function toKnobSpec(def: KnobDef, i: number): KnobSpec {
  const where = `knob ${i + 1}`;
  if (typeof def !== 'object' || def === null) fail(`${where} is not an object`);
  if (typeof def.key !== 'string' || !KEY.test(def.key))
    fail(`${where}: key ${JSON.stringify(def.key)} must be letters, digits and _ starting with a letter`);
  const at = `knob ${def.key}`;
  if (def.kind !== 'number' && def.kind !== 'boolean') fail(`${at}: kind must be 'number' or 'boolean'`);
  if (def.kind === 'number') finite(def.default, `${at}: default`, false);
  else if (typeof def.default !== 'boolean') fail(`${at}: a boolean knob's default must be true or false`);
  if (def.unit !== undefined && !['tokens', 'percent', 'count'].includes(def.unit))
    fail(`${at}: unit must be 'tokens', 'percent' or 'count'`);
  return {
    key: def.key,
    label: text(def.label, `${at}: label`, MAX_LABEL_CHARS)!,
    kind: def.kind,
    ...(def.unit ? { unit: def.unit } : {}),
    ...(finite(def.min, `${at}: min`) !== undefined ? { min: def.min } : {}),
    ...(finite(def.max, `${at}: max`) !== undefined ? { max: def.max } : {}),
    ...(finite(def.step, `${at}: step`) !== undefined ? { step: def.step } : {}),
    ...(def.integer ? { integer: true } : {}),
    ...(def.help !== undefined ? { help: text(def.help, `${at}: help`, MAX_DESCRIPTION_CHARS) } : {}),
    source: text(def.source, `${at}: source`, MAX_DESCRIPTION_CHARS, true) ?? 'ours (the strategy file)',
    group: GROUP,
  };
}

function toThresholdLines(lines: unknown, knobs: EngineKnobs): ThresholdLine[] {
  if (lines === undefined || lines === null) lines = [];
  if (!Array.isArray(lines)) fail('thresholds must return an array');
  if (lines.length > MAX_THRESHOLDS)
    fail(`thresholds returned ${fmt(lines.length)} lines (the limit is ${MAX_THRESHOLDS})`);
  const out: ThresholdLine[] = (lines as Threshold[]).map((t, i) => {
    const where = `threshold ${i + 1}`;
    if (typeof t !== 'object' || t === null) fail(`${where} is not an object`);
    const kind = t.kind ?? 'trigger';
    if (!['trigger', 'warning', 'limit'].includes(kind))
      fail(`${where}: kind must be trigger, warning or limit`);
    return {
      id: `custom-${i}`,
      label: text(t.label, `${where}: label`, MAX_LABEL_CHARS)!,
      tokens: finite(t.tokens, `${where}: tokens`, false)!,
      kind,
    };
  });
  if (!out.some((l) => l.kind === 'limit'))
    out.push({ id: 'window', label: 'Context window', tokens: knobs.contextWindow as number, kind: 'limit' });
  return out;
}

/**
 * The strategy a compiled file's module exports: its default export, or the object a CommonJS
 * file assigns to `module.exports` (`exports` no longer the one the loader gave). A file with
 * neither is said to have no default export, naming what it does export: read as the module
 * object, it failed on `id undefined`, which told the author nothing (tester's `noexport.ts`).
 */
export function readStrategyExport(exports: unknown, given: object): unknown {
  const module = exports as Record<string, unknown> | null;
  if (module && typeof module === 'object' && 'default' in module && module.default !== undefined)
    return module.default;
  if (exports !== given && !(module && typeof module === 'object' && '__esModule' in module)) return exports;
  const named =
    module && typeof module === 'object' ? Object.keys(module).filter((k) => k !== '__esModule') : [];
  fail(
    `the file has no default export${named.length > 0 ? ` (it exports ${named.slice(0, 5).join(', ')})` : ''}: it must \`export default\` a strategy object with an id, a label and a step function (docs/custom-strategies.md, "The interface")`,
  );
}

/**
 * Checks a strategy definition (a file's default export) and adapts it. Throws a
 * `CustomStrategyError` naming the field and the rule it breaks.
 */
export function adaptCustomStrategy(
  value: unknown,
  host: CustomStrategyHost = DIRECT_HOST,
): CompactionStrategy<EngineKnobs> {
  if (typeof value !== 'object' || value === null)
    fail('the file must `export default` a strategy object (see docs/custom-strategies.md)');
  const def = value as Strategy<Knobs, unknown>;
  if (typeof def.id !== 'string' || !ID.test(def.id))
    fail(`id ${JSON.stringify(def.id)} must be lowercase letters, digits and - (at most 48)`);
  const label = text(def.label, 'label', MAX_LABEL_CHARS)!;
  const description = text(def.description, 'description', MAX_DESCRIPTION_CHARS, true);
  if (typeof def.step !== 'function') fail('step must be a function');
  for (const f of ['thresholds', 'init'] as const)
    if (def[f] !== undefined && typeof def[f] !== 'function') fail(`${f} must be a function when given`);
  if (def.knobs !== undefined && !Array.isArray(def.knobs)) fail('knobs must be an array');
  const defs = def.knobs ?? [];
  if (defs.length > MAX_KNOBS) fail(`${fmt(defs.length)} knobs (the limit is ${MAX_KNOBS})`);
  const specs = defs.map(toKnobSpec);
  const keys = specs.map((s) => s.key);
  const twice = keys.find((k, i) => keys.indexOf(k) !== i);
  if (twice !== undefined) fail(`knob ${twice} is declared twice`);
  const ownWindow = keys.includes('contextWindow');
  if (!ownWindow)
    specs.push(contextWindowSpec("ours (the model's window, inferred from the log; else 200,000)", GROUP));
  const defaults: EngineKnobs = Object.fromEntries(defs.map((d) => [d.key, d.default]));
  if (!ownWindow) defaults.contextWindow = DEFAULT_WINDOW;
  const normalize = createKnobNormalizer<EngineKnobs>(specs, defaults);
  // What the strategy's own functions receive: a frozen copy (normalized knobs are all set).
  const own = (knobs: EngineKnobs): Knobs => Object.freeze({ ...knobs }) as Knobs;
  const defaultKnobs = normalize(defaults);
  const from = host.fileName ? ` (${host.fileName})` : '';
  const thresholds = (knobs: EngineKnobs): ThresholdLine[] =>
    toThresholdLines(
      host.call('thresholds', () => def.thresholds?.(own(knobs))),
      knobs,
    );

  return {
    id: def.id,
    label: `Custom: ${label}`,
    description: description ?? `A custom strategy${from}.`,
    custom: host.fileName ? { fileName: host.fileName } : {},
    knobSpecs: specs,
    defaultKnobs,
    normalizeKnobs: normalize,
    thresholds,
    // A summary whose size the action does not give: Claude Code's fit, as the replay sizes any.
    summarySize: () =>
      borrowedSummarySize(
        "a custom strategy whose summarize action gives no summaryTokens is sized as Claude Code's",
      ),
    getSessionKnobs: (info) => {
      const window = info.windowInference?.windowTokens ?? info.contextWindow;
      const knobs =
        !ownWindow && window !== undefined
          ? normalize({ contextWindow: window }, defaultKnobs)
          : defaultKnobs;
      return {
        knobs,
        notes: [
          `${label}: a custom strategy${from}, run as written at its knobs' defaults${!ownWindow && window !== undefined ? `; the context window ${fmt(window)} tokens, inferred from the log` : ''}.`,
        ],
      };
    },
    createRun: (knobs, prepared): StrategyRun => {
      const frozen = own(knobs);
      host.startRun?.();
      const state = host.call('init', () => def.init?.(frozen));
      const trigger = thresholds(knobs).find((l) => l.kind === 'trigger');
      const callCount = prepared.calls.length;
      return {
        allowsManualCompaction: true,
        countsPending: false,
        blockingTokens: knobs.contextWindow as number,
        step: (view) => {
          const where = `step at call ${view.callPos + 1}`;
          const answer = host.call(where, () => def.step(createStepView(view, callCount), frozen, state));
          try {
            const actions = toStrategyActions(answer, { view, triggerTokens: trigger?.tokens ?? 0, label });
            return actions.length > 0 ? { actions } : undefined;
          } catch (err) {
            if (err instanceof CustomStrategyError)
              throw new CustomStrategyError(
                `${host.fileName ? `${host.fileName}: ` : ''}${where}: ${err.message}`,
              );
            throw err;
          }
        },
      };
    },
  };
}
