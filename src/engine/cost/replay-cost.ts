import type { ReplayCostFigures, ReplayResult } from '../replay/types';
import { estimateEntryTokens } from '../tokens/estimate';
import type { Session, TokenCount } from '../types';
import { type CacheModel, getCacheModel } from './cache-model';
import {
  type BilledTokens,
  getBilledTokens,
  getPrice,
  type PriceOverrides,
  priceBilledTokens,
} from './prices';
import { PRICES_SEEN } from './prices-seen';

// What a replay would have cost (issue 21): each replayed call's input split into cache reads,
// cache writes and uncached tokens as the session's cache would produce them (cache-model.ts),
// plus its output, plus a summarization call per compaction; and beside it the log's real cost,
// its recorded usage priced the same way. Main-conversation calls on the replayed line only:
// subagents' calls are neither replayed here nor counted on the real side (logged-cost.ts says
// how the real side parts from the session's whole logged cost).
//
// A call whose history is still the log's is billed as the log recorded it (its real cache reads):
// only the calls after the replay changed something are priced by the model, so a replay that
// changes nothing costs what the log did (a Codex rollout without compactions was +11% otherwise).
//
// The cache, call by call: the prefix the previous call sent is cached; a call reads what of it
// it sends again and writes (Anthropic) or pays in full (automatic caching) the rest. The prefix
// breaks back to the system prompt and tools (`baseTokens`) when the history was edited between
// two calls (a compaction, a clearing, a truncation: every replay event), and to nothing when the
// two calls are further apart than the cache's lifetime (their timestamps).

/** Tokens and dollars of a set of calls, by how they are billed. */
interface CostSplit extends BilledTokens {
  calls: number;
  usd: number;
  /** Calls whose model has no price (their tokens are counted, not their cost). */
  unpricedCalls: number;
}

interface ReplayCost {
  /** The replayed calls. */
  calls: CostSplit;
  /** The summarization calls the replay's compactions would make. */
  summaries: CostSplit;
  /** calls + summaries. */
  usd: number;
  /** The log's own cost over the same calls: recorded usage at the same prices. */
  real: {
    calls: CostSplit;
    /** The log's compactions' summary calls: recorded where the log has them, else estimated. */
    summaries: CostSplit;
    /** Of those, the ones estimated (the log has no record of the call). */
    estimatedSummaries: number;
    /** Their cost (in `summaries.usd`, not in the log's recorded usage). */
    estimatedSummariesUsd: number;
    usd: number;
  };
  cache: CacheModel;
  pricesSeen: string;
}

interface ReplayCostOptions {
  prices?: PriceOverrides;
  /** Replaces parts of the session's cache model (its lifetime, its kind). */
  cache?: Partial<CacheModel>;
  /**
   * Which replayed calls the cache model prices: `diverged` (default), those whose history differs
   * from the log's, the others billed as the log recorded them, so a replay that changes nothing
   * costs what the log did; `all`, every call (what measures the model against the log).
   */
  modelledCalls?: 'diverged' | 'all';
}

const emptySplit = (): CostSplit => ({
  calls: 0,
  usd: 0,
  unpricedCalls: 0,
  uncached: 0,
  cacheWrite5m: 0,
  cacheWrite1h: 0,
  cacheRead: 0,
  output: 0,
});

function addBilled(split: CostSplit, model: string, t: BilledTokens, prices?: PriceOverrides): void {
  split.calls++;
  split.uncached += t.uncached;
  split.cacheWrite5m += t.cacheWrite5m;
  split.cacheWrite1h += t.cacheWrite1h;
  split.cacheRead += t.cacheRead;
  split.output += t.output;
  const price = getPrice(model, prices);
  if (price) split.usd += priceBilledTokens(price, t);
  else split.unpricedCalls++;
}

/** Cache writes of `tokens`, split between lifetimes as the cache model says. */
function writes(tokens: TokenCount, cache: CacheModel): Pick<BilledTokens, 'cacheWrite5m' | 'cacheWrite1h'> {
  const oneHour = tokens * cache.oneHourShare;
  return { cacheWrite5m: tokens - oneHour, cacheWrite1h: oneHour };
}

/** A call of `input` tokens against a cached prefix of `cached` tokens. */
function billInput(
  input: TokenCount,
  cached: TokenCount,
  output: TokenCount,
  cache: CacheModel,
): BilledTokens {
  const read = cache.kind === 'none' ? 0 : Math.max(0, Math.min(cached, input));
  const rest = input - read;
  return cache.kind === 'write'
    ? { uncached: 0, ...writes(rest, cache), cacheRead: read, output }
    : { uncached: rest, cacheWrite5m: 0, cacheWrite1h: 0, cacheRead: read, output };
}

/** Positions (on the replay's call axis) after which the replay edited the history. */
function getEditedAfter(result: ReplayResult): Set<number> {
  const edited = new Set<number>();
  for (const e of result.events)
    if (e.kind !== 'blocked' && e.kind !== 'compact-failed') edited.add(e.afterCallPos);
  return edited;
}

/** Positions after which the log itself edited its history (its compactions, clearings, truncations). */
function getLoggedEditsAfter(result: ReplayResult): Set<number> {
  return new Set(result.comparison.outcomes.map((o) => o.afterCallPos));
}

/**
 * When each call's request was sent: the time of the entry just before its answer (the prompt or
 * the tool result it answers), else the answer's own. The cache's lifetime runs from one request
 * to the next; an answer's time is later by the time it took to write.
 */
function getRequestTimes(session: Session, result: ReplayResult): (number | undefined)[] {
  return Array.from(result.callIndex, (i) => {
    const call = session.apiCalls[i]!;
    const before = session.entries[call.firstEntryIndex - 1];
    return before?.fileIndex === call.fileIndex && before.timestampMs !== undefined
      ? Math.min(before.timestampMs, call.timestampMs ?? before.timestampMs)
      : call.timestampMs;
  });
}

/**
 * The cached prefix each call finds, on the replay's call axis: the previous call's input, back to
 * `base` after an edit, to nothing after an idle gap over the cache's lifetime.
 */
function getCachedPrefixes(
  inputs: ArrayLike<number>,
  times: readonly (number | undefined)[],
  editedAfter: ReadonlySet<number>,
  base: TokenCount,
  ttlMs: number,
): Float64Array {
  const cached = new Float64Array(inputs.length);
  let prefix = 0;
  let lastMs: number | undefined;
  for (let p = 0; p < inputs.length; p++) {
    if (editedAfter.has(p - 1)) prefix = Math.min(prefix, base);
    const ms = times[p];
    if (ms !== undefined && lastMs !== undefined && ms - lastMs > ttlMs) prefix = 0;
    cached[p] = Math.min(prefix, inputs[p]!);
    prefix = inputs[p]!;
    lastMs = ms ?? lastMs;
  }
  return cached;
}

/**
 * The share of the cacheable prefix the provider really served from its cache in this log: its
 * recorded cache reads over the reads the model gives its recorded contexts (at most 1). Automatic
 * caching promises no hit (OpenAI, Google), and Anthropic's misses where the agent changed
 * earlier content are not in the transcript; the log measures both.
 */
function getLoggedHitShare(
  session: Session,
  result: ReplayResult,
  times: readonly (number | undefined)[],
  ttlMs: number,
): number {
  const cached = getCachedPrefixes(
    result.recordedTokens,
    times,
    getLoggedEditsAfter(result),
    result.baseTokens,
    ttlMs,
  );
  let modelled = 0;
  let read = 0;
  for (let p = 0; p < cached.length; p++) {
    modelled += cached[p]!;
    read += session.apiCalls[result.callIndex[p]!]!.usage.cacheReadInputTokens;
  }
  return modelled > 0 ? Math.min(1, read / modelled) : 1;
}

/**
 * The log's real compactions' summary calls: their recorded usage where the log has their call
 * (Claude Code's compaction-call logs), else estimated as the replay's are (the context before
 * it in, read from the cache the call before it left; the summary out). Priced at the model of
 * the call before each.
 */
function addRealSummaries(
  session: Session,
  result: ReplayResult,
  real: ReplayCost['real'],
  cache: CacheModel,
  prices?: PriceOverrides,
): void {
  // The compactions on the replayed line (the comparison's outcomes), not an abandoned branch's.
  for (const outcome of result.comparison.outcomes) {
    const c = session.compactions[outcome.compactionIndex];
    if (c?.kind !== 'compact') continue;
    // The call before it on the replayed line (a resumed log's `apiCallBefore` may be another branch's).
    const before = outcome.afterApiCall === undefined ? undefined : session.apiCalls[outcome.afterApiCall];
    const model = before?.model ?? session.meta.models[0] ?? '';
    if (c.callUsage) {
      addBilled(real.summaries, model, getBilledTokens(c.callUsage), prices);
      continue;
    }
    const summary = c.summaryEntryIndex === undefined ? undefined : session.entries[c.summaryEntryIndex];
    const output = c.summaryTokens ?? (summary ? estimateEntryTokens(summary) : 0);
    const input = c.preTokens ?? before?.contextTokens ?? 0;
    const prefix = (before?.contextTokens ?? 0) * cache.hitShare;
    const usdBefore = real.summaries.usd;
    addBilled(real.summaries, model, billInput(input, prefix, output, cache), prices);
    real.estimatedSummaries++;
    real.estimatedSummariesUsd += real.summaries.usd - usdBefore;
  }
}

/** Summarization calls by the call position they follow: input the context summarized, output the summary. */
function getSummaryCalls(result: ReplayResult): Map<number, { input: TokenCount; output: TokenCount }[]> {
  const byPos = new Map<number, { input: TokenCount; output: TokenCount }[]>();
  for (const e of result.events) {
    if (e.kind !== 'compact' && e.kind !== 'reset') continue;
    if (e.kind === 'compact' && e.llmCalls === 0) continue;
    const list = byPos.get(e.afterCallPos) ?? [];
    list.push({ input: e.preTokens, output: e.summaryTokens ?? 0 });
    byPos.set(e.afterCallPos, list);
  }
  return byPos;
}

/**
 * The cost of a replay of `session` and, beside it, the log's real cost. Linear in calls and
 * events.
 */
export function computeReplayCost(
  session: Session,
  result: ReplayResult,
  options: ReplayCostOptions = {},
): ReplayCost {
  const { prices } = options;
  const model = getCacheModel(session);
  const times = getRequestTimes(session, result);
  const ttlMs = options.cache?.ttlMs ?? model.ttlMs;
  const hitShare = options.cache?.hitShare ?? getLoggedHitShare(session, result, times, ttlMs);
  const cache: CacheModel = { ...model, ...options.cache, ttlMs, hitShare };
  const calls = emptySplit();
  const summaries = emptySplit();
  const real = {
    calls: emptySplit(),
    summaries: emptySplit(),
    estimatedSummaries: 0,
    estimatedSummariesUsd: 0,
    usd: 0,
  };
  const n = result.callIndex.length;
  const cached = getCachedPrefixes(
    result.simulatedTokens,
    times,
    getEditedAfter(result),
    result.baseTokens,
    ttlMs,
  );
  const summaryCalls = getSummaryCalls(result);
  const modelEveryCall = options.modelledCalls === 'all';
  let callModel = session.meta.models[0] ?? '';
  // p = −1: summaries before the first call (a log that opens on a compaction).
  for (let p = -1; p < n; p++) {
    let prefix = 0;
    if (p >= 0) {
      const call = session.apiCalls[result.callIndex[p]!]!;
      callModel = call.model;
      const input = result.simulatedTokens[p]!;
      // Up to the replay's first change the history is the log's: its call cost what it recorded.
      const asLogged = !modelEveryCall && result.diverged[p] === 0 && input === result.recordedTokens[p];
      addBilled(
        calls,
        callModel,
        asLogged
          ? getBilledTokens(call.usage)
          : billInput(input, cached[p]! * hitShare, call.usage.outputTokens, cache),
        prices,
      );
      addBilled(real.calls, callModel, getBilledTokens(call.usage), prices);
      prefix = input;
    }
    // The summary request re-sends the conversation: it reads the prefix the call just cached.
    for (const s of summaryCalls.get(p) ?? [])
      addBilled(summaries, callModel, billInput(s.input, prefix * hitShare, s.output, cache), prices);
  }
  addRealSummaries(session, result, real, cache, prices);
  real.usd = real.calls.usd + real.summaries.usd;
  return { calls, summaries, usd: calls.usd + summaries.usd, real, cache, pricesSeen: PRICES_SEEN };
}

/** The figures of a replay's cost that tables and charts show. */
export function getCostFigures(cost: ReplayCost): ReplayCostFigures {
  const { calls, summaries } = cost;
  const sum = (k: keyof BilledTokens) => calls[k] + summaries[k];
  return {
    usd: cost.usd,
    realUsd: cost.real.usd,
    cacheReadTokens: sum('cacheRead'),
    cacheWriteTokens: sum('cacheWrite5m') + sum('cacheWrite1h'),
    uncachedTokens: sum('uncached'),
    outputTokens: sum('output'),
    summaryCalls: summaries.calls,
    summaryUsd: summaries.usd,
    realSummaryCalls: cost.real.summaries.calls,
    realSummariesEstimated: cost.real.estimatedSummaries,
    unpricedCalls: calls.unpricedCalls + summaries.unpricedCalls,
    pricesSeen: cost.pricesSeen,
  };
}

/** A pricer for the sweep's and the compare table's hook (`costOf`): every replay of `session`. */
export function createReplayPricer(
  session: Session,
  options: ReplayCostOptions = {},
): (result: ReplayResult) => ReplayCostFigures {
  return (result) => getCostFigures(computeReplayCost(session, result, options));
}
