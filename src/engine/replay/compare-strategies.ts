import { getSessionSetup, getStrategy } from '../strategies/registry';
import { getDefaultStrategyId } from '../strategies/descriptors';
import { getSessionInfo, type KnobValue } from '../strategies/types';
import type { TokenCount } from '../types';
import { computeReplay, type ReplayOptions } from './compute-replay';
import type { PreparedReplay } from './prepare';
import { EVENT_KINDS } from './compare-table';
import type { ReplayCostFigures, ReplayEventKind, ReplayResult, ThresholdLine } from './types';

// Several strategies over one prepared transcript (prepared once): each strategy's replay and one
// row of figures per strategy. The CLI's `compactlab replay --strategy a,b,c` table and the app's
// compare view both read these rows; nothing here names a strategy.

/** One strategy's figures over the whole replay. */
export interface StrategyFigures {
  strategyId: string;
  label: string;
  /** Events by kind (every kind, zeros included). */
  events: Record<ReplayEventKind, number>;
  /** Tokens taken out of the context: cleared results, replaced results, truncated ranges, summarized spans. */
  clearedTokens: TokenCount;
  replacedTokens: TokenCount;
  truncatedTokens: TokenCount;
  summarizedTokens: TokenCount;
  /** LLM requests the strategy would make: the sum of its events' `llmCalls`. */
  llmCalls: number;
  peakContextTokens: TokenCount;
  /** The context of the last call. */
  finalContextTokens: TokenCount;
  /**
   * The log's real compactions this replay reproduces, under any strategy (the replay strip's
   * figure for the same run: issue 24 item 3), when the log has compactions it should reproduce.
   */
  real?: { reproduced: number; expected: number };
  thresholds: ThresholdLine[];
  /** What the replay would have cost, when the caller prices replays (`CompareOptions.costOf`). */
  cost?: ReplayCostFigures;
}

/** The figures of one replay. */
function computeStrategyFigures(result: ReplayResult, label: string): StrategyFigures {
  const events = Object.fromEntries(EVENT_KINDS.map((k) => [k, 0])) as Record<ReplayEventKind, number>;
  let clearedTokens = 0;
  let replacedTokens = 0;
  let truncatedTokens = 0;
  let summarizedTokens = 0;
  let llmCalls = 0;
  for (const e of result.events) {
    events[e.kind]++;
    if (e.kind === 'microcompact') clearedTokens += e.savedTokens;
    else if (e.kind === 'replace') replacedTokens += e.savedTokens;
    else if (e.kind === 'truncate') truncatedTokens += e.droppedTokens;
    else if (e.kind === 'compact') {
      summarizedTokens += e.spanTokens;
      // Only a compaction asks an LLM (its summary, and any second call such as a verification).
      llmCalls += e.llmCalls;
    }
  }
  let peakContextTokens = 0;
  for (const t of result.simulatedTokens) if (t > peakContextTokens) peakContextTokens = t;
  const n = result.simulatedTokens.length;
  const { expected, reproduced } = result.comparison;
  return {
    strategyId: result.strategyId,
    label,
    events,
    clearedTokens,
    replacedTokens,
    truncatedTokens,
    summarizedTokens,
    llmCalls,
    peakContextTokens,
    finalContextTokens: n > 0 ? (result.simulatedTokens[n - 1] ?? 0) : 0,
    real: expected > 0 ? { reproduced, expected } : undefined,
    thresholds: result.thresholds,
  };
}

/** One strategy to run: its id and the knob overrides over the log's own knobs for it. */
export interface CompareEntry {
  strategyId: string;
  /** `null` clears an optional knob (as the replay store keeps it). */
  overrides?: Readonly<Record<string, KnobValue | null>>;
}

export interface CompareProgress {
  done: number;
  total: number;
  /** The strategy running now (absent at the end). */
  strategyId?: string;
}

interface CompareOptions extends Pick<ReplayOptions, 'summaryModel' | 'toleranceCalls'> {
  signal?: AbortSignal;
  /** Prices each replay (engine/cost/replay-cost.ts `createReplayPricer`; cost sits above replay). */
  costOf?: (result: ReplayResult) => ReplayCostFigures;
  onProgress?: (progress: CompareProgress) => void;
}

interface CompareStrategiesResult {
  /** The strategy of the log's own agent. */
  ownStrategyId: string;
  /** One per entry, in the entries' order. */
  results: ReplayResult[];
  rows: StrategyFigures[];
  computeMs: number;
}

function createAbortError(): Error {
  const error = new Error('Cancelled');
  error.name = 'AbortError';
  return error;
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Runs each strategy over the same prepared session, each under the log's own knobs for it with
 * the entry's overrides on top. Yields between strategies so that a worker sees a cancel; rejects
 * with an `AbortError` when the signal aborts. An unknown id throws a RangeError naming the known.
 */
export async function compareStrategies(
  prepared: PreparedReplay,
  entries: readonly CompareEntry[],
  options: CompareOptions = {},
): Promise<CompareStrategiesResult> {
  const t0 = performance.now();
  const { signal, onProgress } = options;
  const strategies = entries.map((e) => getStrategy(e.strategyId));
  const info = getSessionInfo(prepared);
  const ownStrategyId = getDefaultStrategyId(prepared.session.format, prepared.session.meta.agent);
  const results: ReplayResult[] = [];
  const rows: StrategyFigures[] = [];
  for (let i = 0; i < entries.length; i++) {
    if (signal?.aborted) throw createAbortError();
    const strategy = strategies[i]!;
    onProgress?.({ done: i, total: entries.length, strategyId: strategy.id });
    const { knobs: sessionKnobs, notes } = getSessionSetup(strategy, info);
    const knobs = strategy.normalizeKnobs(entries[i]?.overrides ?? {}, sessionKnobs);
    const result = computeReplay(prepared, strategy.id, knobs, {
      summaryModel: options.summaryModel,
      toleranceCalls: options.toleranceCalls,
    });
    result.notes.push(...notes);
    results.push(result);
    const row = computeStrategyFigures(result, strategy.label);
    if (options.costOf) row.cost = options.costOf(result);
    rows.push(row);
    if (i + 1 < entries.length) await yieldToEventLoop();
  }
  if (signal?.aborted) throw createAbortError();
  onProgress?.({ done: entries.length, total: entries.length });
  return { ownStrategyId, results, rows, computeMs: performance.now() - t0 };
}

/** What the compare chart draws of one strategy's replay: plain data, the series transferable. */
export interface CompareSeries {
  strategyId: string;
  label: string;
  /** Index into `session.apiCalls` of each main call (the chart's x axis is the position here). */
  callIndex: Int32Array;
  simulatedTokens: Float64Array;
  thresholds: ThresholdLine[];
  /** The events, as the chart marks them (`preTokens` at the call they follow). */
  events: {
    kind: ReplayEventKind;
    afterCallPos: number;
    afterApiCall: number;
    preTokens: TokenCount;
    postTokens: TokenCount;
  }[];
}

/** One replay as the compare chart needs it (copies the series, so the result keeps its own). */
export function toCompareSeries(result: ReplayResult, label: string): CompareSeries {
  return {
    strategyId: result.strategyId,
    label,
    callIndex: result.callIndex.slice(),
    simulatedTokens: result.simulatedTokens.slice(),
    thresholds: result.thresholds,
    events: result.events.map((e) => ({
      kind: e.kind,
      afterCallPos: e.afterCallPos,
      afterApiCall: e.afterApiCall,
      preTokens: e.preTokens,
      postTokens: e.postTokens,
    })),
  };
}
