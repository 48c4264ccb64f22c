import { getStrategy } from '../strategies/registry';
import type { KnobSpec, KnobValue } from '../strategies/types';
import type { TokenCount } from '../types';
import { countRealKinds, type RealKinds } from './compare-words';
import { computeReplay, type ReplayOptions } from './compute-replay';
import type { PreparedReplay } from './prepare';
import type { ReplayCostFigures, ReplayEventKind, ReplayResult } from './types';
import { MAX_SWEEP_STEPS } from './sweep-score';

// A knob sweep: the replay re-run for each value of one numeric knob, reduced to a few figures
// per value (plain data, small). One replay takes milliseconds, a sweep hundreds of them: the loop
// yields a macrotask every `yieldEveryMs` so that a worker sees its cancel messages.

/** Long enough to amortize a timer's ~1–4 ms clamp, short enough that a cancel lands at once. */
const DEFAULT_SWEEP_YIELD_MS = 12;
export interface SweepRange {
  /** A numeric knob of the strategy (`KnobSpec.kind === 'number'`). */
  knob: string;
  from: number;
  to: number;
  /** Number of values, both ends included (1: `from` only). */
  steps: number;
}

export interface SweepProgress {
  /** Values computed so far, of `total`. */
  done: number;
  total: number;
}

interface SweepOptions extends Pick<ReplayOptions, 'summaryModel' | 'manual' | 'suppliedSummaryTokens'> {
  signal?: AbortSignal;
  onProgress?: (progress: SweepProgress) => void;
  /** Prices each replay (engine/cost/replay-cost.ts `createReplayPricer`; cost sits above replay). */
  costOf?: (result: ReplayResult) => ReplayCostFigures;
  /** Run this long at most before yielding to the event loop (default `DEFAULT_SWEEP_YIELD_MS`). */
  yieldEveryMs?: number;
}

export interface SweepPoint {
  value: number;
  /** Replay events by kind (`compact` is what the chart calls compactions fired). */
  events: Record<ReplayEventKind, number>;
  /** Real auto-compactions reproduced within the comparison's tolerance, of `expectedReal`. */
  matchedReal: number;
  expectedReal: number;
  /** Simulated auto-compactions with no real counterpart (the comparison's `counts.extra`). */
  extraSimulated: number;
  peakContextTokens: TokenCount;
  /** Sum of what the simulated compactions summarized (`spanTokens`). */
  summarizedTokens: TokenCount;
  /** Sum of the summaries they produced. */
  summaryTokens: TokenCount;
  /** `session.apiCalls` index of the first call a simulated compaction follows. */
  firstCompactApiCall?: number;
  /** What the replay at this value would have cost, when the caller prices replays. */
  cost?: ReplayCostFigures;
}

export interface SweepResult {
  strategyId: string;
  knob: string;
  unit?: KnobSpec['unit'];
  points: SweepPoint[];
  /**
   * The log's automatic events a point's `matchedReal` counts, by kind (the same at every value):
   * for the words (compare-words), a Cline log's truncations not called auto-compactions.
   */
  realKinds: RealKinds;
  computeMs: number;
}

/** The sweepable knobs of a strategy. */
export function getSweepableKnobs(strategyId: string): KnobSpec[] {
  return getStrategy(strategyId).knobSpecs.filter((s) => s.kind === 'number');
}

/**
 * The values a range covers: evenly spaced, snapped to the knob's step and bounds, duplicates
 * (a range finer than the step) dropped. Throws on an unknown knob or a bad range.
 */
export function getSweepValues(spec: KnobSpec, range: SweepRange): number[] {
  const { from, to, steps } = range;
  if (!Number.isFinite(from) || !Number.isFinite(to)) throw new RangeError('A sweep range needs finite ends');
  if (!Number.isInteger(steps) || steps < 1 || steps > MAX_SWEEP_STEPS)
    throw new RangeError(`A sweep has 1 to ${MAX_SWEEP_STEPS} steps, got ${steps}`);
  const lo = spec.min ?? Number.NEGATIVE_INFINITY;
  const hi = spec.max ?? Number.POSITIVE_INFINITY;
  const values: number[] = [];
  for (let i = 0; i < steps; i++) {
    let v = steps === 1 ? from : from + ((to - from) * i) / (steps - 1);
    if (spec.step) v = Math.round(v / spec.step) * spec.step;
    v = Math.min(hi, Math.max(lo, v));
    // Float noise from the step multiplication (0.1 × 3).
    v = Number(v.toPrecision(12));
    if (values[values.length - 1] !== v) values.push(v);
  }
  return values;
}

function createAbortError(): Error {
  const error = new Error('Cancelled');
  error.name = 'AbortError';
  return error;
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Runs the replay for each value of one numeric knob over `baseKnobs`. Rejects with an
 * `AbortError` when the signal aborts (checked before each value and after each yield).
 */
export async function computeSweep(
  prepared: PreparedReplay,
  strategyId: string,
  baseKnobs: Readonly<Record<string, KnobValue>>,
  range: SweepRange,
  options: SweepOptions = {},
): Promise<SweepResult> {
  const t0 = performance.now();
  const strategy = getStrategy(strategyId);
  const spec = strategy.knobSpecs.find((s) => s.key === range.knob);
  if (spec?.kind !== 'number')
    throw new RangeError(
      `"${range.knob}" is not a numeric knob of ${strategy.id} (${getSweepableKnobs(strategy.id)
        .map((s) => s.key)
        .join(', ')})`,
    );
  const values = getSweepValues(spec, range);
  const { signal, onProgress } = options;
  const yieldEveryMs = options.yieldEveryMs ?? DEFAULT_SWEEP_YIELD_MS;
  const points: SweepPoint[] = [];
  let realKinds: RealKinds | undefined;
  let sliceStart = performance.now();
  onProgress?.({ done: 0, total: values.length });
  for (const value of values) {
    if (signal?.aborted) throw createAbortError();
    const result = computeReplay(
      prepared,
      strategy.id,
      { ...baseKnobs, [spec.key]: value },
      {
        summaryModel: options.summaryModel,
        manual: options.manual,
        suppliedSummaryTokens: options.suppliedSummaryTokens,
      },
    );
    const events: Record<ReplayEventKind, number> = {
      compact: 0,
      truncate: 0,
      replace: 0,
      microcompact: 0,
      reset: 0,
      blocked: 0,
      'compact-failed': 0,
    };
    let summarizedTokens = 0;
    let summaryTokens = 0;
    let firstCompactApiCall: number | undefined;
    for (const e of result.events) {
      events[e.kind]++;
      if (e.kind !== 'compact') continue;
      summarizedTokens += e.spanTokens ?? 0;
      summaryTokens += e.summaryTokens ?? 0;
      firstCompactApiCall ??= e.afterApiCall;
    }
    let peakContextTokens = 0;
    for (const t of result.simulatedTokens) if (t > peakContextTokens) peakContextTokens = t;
    realKinds ??= countRealKinds(result.comparison.outcomes);
    points.push({
      value,
      events,
      matchedReal: result.comparison.reproduced,
      expectedReal: result.comparison.expected,
      extraSimulated: result.comparison.counts.extra,
      peakContextTokens,
      summarizedTokens,
      summaryTokens,
      firstCompactApiCall,
      cost: options.costOf?.(result),
    });
    // Progress at each yield and at the end: a message per value would flood a slow page.
    if (points.length === values.length) onProgress?.({ done: points.length, total: values.length });
    else if (performance.now() - sliceStart >= yieldEveryMs) {
      onProgress?.({ done: points.length, total: values.length });
      await yieldToEventLoop();
      sliceStart = performance.now();
    }
  }
  if (signal?.aborted) throw createAbortError();
  return {
    strategyId: strategy.id,
    knob: spec.key,
    unit: spec.unit,
    points,
    realKinds: realKinds ?? { compact: 0, truncate: 0 },
    computeMs: performance.now() - t0,
  };
}
