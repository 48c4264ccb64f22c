import { getDefaultStrategyId, getSessionSetup, getStrategy } from '../strategies/registry';
import { getSessionInfo, type KnobValue } from '../strategies/types';
import type { TokenCount } from '../types';
import { computeReplay, type ReplayOptions } from './compute-replay';
import type { PreparedReplay } from './prepare';
import type { ReplayCostFigures, ReplayEventKind, ReplayResult, ThresholdLine } from './types';

// Several strategies over one prepared transcript (prepared once): each strategy's replay and one
// row of figures per strategy. The CLI's `compactlab replay --strategy a,b,c` table and the app's
// compare view both read these rows; nothing here names a strategy.

/** Event kinds in the order the table lists them. */
export const EVENT_KINDS: readonly ReplayEventKind[] = [
  'compact',
  'truncate',
  'replace',
  'microcompact',
  'reset',
  'blocked',
];

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
   * The log's real compactions this replay reproduces: only for the log's own agent's strategy,
   * and only when the log has compactions it should reproduce.
   */
  real?: { reproduced: number; expected: number };
  thresholds: ThresholdLine[];
  /** What the replay would have cost, when the caller prices replays (`CompareOptions.costOf`). */
  cost?: ReplayCostFigures;
}

/** The figures of one replay. `ownStrategyId`: the strategy of the agent that wrote the log. */
export function computeStrategyFigures(
  result: ReplayResult,
  label: string,
  ownStrategyId: string,
): StrategyFigures {
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
    real: result.strategyId === ownStrategyId && expected > 0 ? { reproduced, expected } : undefined,
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

export interface CompareOptions extends Pick<ReplayOptions, 'summaryModel' | 'toleranceCalls'> {
  signal?: AbortSignal;
  /** Prices each replay (engine/cost/replay-cost.ts `createReplayPricer`; cost sits above replay). */
  costOf?: (result: ReplayResult) => ReplayCostFigures;
  onProgress?: (progress: CompareProgress) => void;
}

export interface CompareStrategiesResult {
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
    const row = computeStrategyFigures(result, strategy.label, ownStrategyId);
    if (options.costOf) row.cost = options.costOf(result);
    rows.push(row);
    if (i + 1 < entries.length) await yieldToEventLoop();
  }
  if (signal?.aborted) throw createAbortError();
  onProgress?.({ done: entries.length, total: entries.length });
  return { ownStrategyId, results, rows, computeMs: performance.now() - t0 };
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

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

/** The columns of the table, shared by the CLI's text and the app's table. */
export const COMPARE_COLUMNS: readonly {
  key: string;
  label: string;
  value: (r: StrategyFigures) => string;
}[] = [
  { key: 'strategy', label: 'strategy', value: (r) => r.strategyId },
  {
    key: 'events',
    label: 'events',
    value: (r) =>
      EVENT_KINDS.filter((k) => r.events[k] > 0)
        .map((k) => `${k} ${r.events[k]}`)
        .join(', ') || 'none',
  },
  { key: 'cleared', label: 'cleared', value: (r) => fmt(r.clearedTokens) },
  { key: 'replaced', label: 'replaced', value: (r) => fmt(r.replacedTokens) },
  { key: 'truncated', label: 'truncated', value: (r) => fmt(r.truncatedTokens) },
  { key: 'summarized', label: 'summarized', value: (r) => fmt(r.summarizedTokens) },
  { key: 'llm', label: 'LLM calls', value: (r) => String(r.llmCalls) },
  { key: 'peak', label: 'peak', value: (r) => fmt(r.peakContextTokens) },
  { key: 'final', label: 'final', value: (r) => fmt(r.finalContextTokens) },
  {
    key: 'real',
    label: 'real reproduced',
    value: (r) => (r.real ? `${r.real.reproduced}/${r.real.expected}` : '-'),
  },
  { key: 'cost', label: 'cost', value: (r) => (r.cost ? formatUsd(r.cost.usd) : '-') },
  { key: 'realCost', label: 'real cost', value: (r) => (r.cost ? formatUsd(r.cost.realUsd) : '-') },
  {
    key: 'costDelta',
    label: 'Δ cost',
    value: (r) => (r.cost ? formatUsdDelta(r.cost.usd - r.cost.realUsd) : '-'),
  },
  {
    key: 'cache',
    label: 'cache read/write/uncached',
    value: (r) =>
      r.cost
        ? [r.cost.cacheReadTokens, r.cost.cacheWriteTokens, r.cost.uncachedTokens]
            .map(formatMillions)
            .join('/')
        : '-',
  },
];

/** Dollars with cents (a tenth of a cent under $1). */
export function formatUsd(usd: number): string {
  return `$${usd.toFixed(Math.abs(usd) < 1 ? 3 : 2)}`;
}

/** A signed difference in dollars. */
export function formatUsdDelta(usd: number): string {
  return `${usd < 0 ? '−' : '+'}${formatUsd(Math.abs(usd))}`;
}

/** Tokens in millions with one decimal (`12.3M`), thousands under a million (`830k`), units under a thousand. */
export function formatMillions(tokens: number): string {
  if (tokens >= 1e6) return `${(tokens / 1e6).toFixed(1)}M`;
  return tokens >= 1e3 ? `${Math.round(tokens / 1e3)}k` : String(Math.round(tokens));
}

/** The rows as an aligned text table (numbers right-aligned), a header line first. */
export function formatCompareTable(rows: readonly StrategyFigures[]): string {
  const cells = [
    COMPARE_COLUMNS.map((c) => c.label),
    ...rows.map((r) => COMPARE_COLUMNS.map((c) => c.value(r))),
  ];
  const widths = COMPARE_COLUMNS.map((_, j) => Math.max(...cells.map((row) => row[j]!.length)));
  const leftAligned = new Set(['strategy', 'events']);
  return cells
    .map((row) =>
      row
        .map((cell, j) =>
          leftAligned.has(COMPARE_COLUMNS[j]!.key) ? cell.padEnd(widths[j]!) : cell.padStart(widths[j]!),
        )
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
