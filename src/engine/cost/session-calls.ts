import { isMainThreadEntry } from '../parse/main-thread';
import type { Session, TokenCount } from '../types';
import { computeCostUsd, type PriceOverrides } from './prices';

// A session's billed calls as its entries record them, each once over all its files, and the same
// calls in buckets of a quarter hour (UTC) and a model: what the library's cost
// (library/library-row.ts) and its usage by day and project (stats/usage.ts) are summed from, so
// the two agree. Each call is priced on its own (a request over a long-context bound is priced
// whole at its rates, so summed tokens are never priced); models priced apart.

/** One call's recorded usage, with the model it is priced at and when it was answered. */
export interface SessionCall {
  model: string;
  input: TokenCount;
  cacheWrite: TokenCount;
  cacheWrite1h?: TokenCount;
  cacheRead: TokenCount;
  output: TokenCount;
  /** The timestamp of the call's first line, when the log gives one. */
  timestampMs?: number;
  /**
   * Whose call it is: the main conversation's (parse/main-thread), a compaction call's own log
   * (its summary request), or another thread's (a subagent, a side question).
   */
  thread: 'main' | 'compaction-call' | 'other';
}

/**
 * Every call in the session's entries. A call is keyed as the session builder keys it (message
 * id, request id, uuid), over all files at once: a subagent or compaction-call log that repeats a
 * parent's response is not counted twice; streamed lines of one response count their input once
 * and their largest output snapshot (docs/sources.md#fmt-usage). A line without a model takes its
 * file's last model, else the session's first.
 */
export function getSessionCalls(session: Session): SessionCall[] {
  const calls = new Map<string, SessionCall>();
  const modelOfFile = new Map<number, string>();
  for (const entry of session.entries) {
    if (entry.model) modelOfFile.set(entry.fileIndex, entry.model);
    const usage = entry.usage;
    if (!usage || entry.isSynthetic) continue;
    // A content file's calls are the main file's (session-builder.ts): a Cline task history's
    // `metrics` beside its UI log are the same requests, counted there.
    if (session.files[entry.fileIndex]?.role === 'content') continue;
    const key = entry.messageId ?? entry.requestId ?? entry.uuid ?? `#${entry.index}`;
    const known = calls.get(key);
    if (known) {
      known.output = Math.max(known.output, usage.outputTokens);
      continue;
    }
    calls.set(key, {
      model: entry.model ?? modelOfFile.get(entry.fileIndex) ?? session.meta.models[0] ?? '',
      input: usage.inputTokens,
      cacheWrite: usage.cacheCreationInputTokens,
      cacheRead: usage.cacheReadInputTokens,
      cacheWrite1h: usage.cacheCreation1hInputTokens,
      output: usage.outputTokens,
      timestampMs: entry.timestampMs,
      thread: isMainThreadEntry(session, entry)
        ? 'main'
        : session.files[entry.fileIndex]?.role === 'compaction-call'
          ? 'compaction-call'
          : 'other',
    });
  }
  return [...calls.values()];
}

/** A call's usage in the shape the price table takes. */
export function getCallUsage(c: SessionCall) {
  return {
    inputTokens: c.input,
    outputTokens: c.output,
    cacheCreationInputTokens: c.cacheWrite,
    cacheReadInputTokens: c.cacheRead,
    cacheCreation1hInputTokens: c.cacheWrite1h,
  };
}

/**
 * A bucket's span. Ours (the coarsest that gives every call's local date exactly): every time zone
 * in use is a whole number of quarter hours from UTC (Nepal +05:45, Chatham +12:45 the finest),
 * and daylight saving moves on a quarter hour too (the IANA tz database, eggert/tz).
 */
export const USAGE_SLOT_MS = 15 * 60_000;

/** One session's calls of one model within one quarter hour. */
export interface UsageBucket {
  /** `floor(ms / USAGE_SLOT_MS)` of the calls' UTC time; absent: calls whose log gives no time. */
  slot?: number;
  model: string;
  calls: number;
  /** Input neither read from nor written to a cache. */
  input: TokenCount;
  output: TokenCount;
  cacheRead: TokenCount;
  /** Cache writes, both lifetimes. */
  cacheWrite: TokenCount;
  /** USD at list prices of the priced calls. */
  costUsd: number;
  /** Calls whose model has no price (their tokens are counted, their cost is not). */
  unpricedCalls: number;
}

/** A session's calls in buckets, oldest first (the undated last). */
export function getUsageBuckets(calls: readonly SessionCall[], overrides?: PriceOverrides): UsageBucket[] {
  const buckets = new Map<string, UsageBucket>();
  for (const c of calls) {
    const slot = c.timestampMs === undefined ? undefined : Math.floor(c.timestampMs / USAGE_SLOT_MS);
    const key = `${slot ?? ''}|${c.model}`;
    let b = buckets.get(key);
    if (!b) {
      b = {
        slot,
        model: c.model,
        calls: 0,
        input: 0,
        output: 0,
        cacheRead: 0,
        cacheWrite: 0,
        costUsd: 0,
        unpricedCalls: 0,
      };
      buckets.set(key, b);
    }
    b.calls++;
    b.input += c.input;
    b.output += c.output;
    b.cacheRead += c.cacheRead;
    b.cacheWrite += c.cacheWrite;
    const usd = computeCostUsd(c.model, getCallUsage(c), overrides);
    if (usd === undefined) b.unpricedCalls++;
    else b.costUsd += usd;
  }
  return [...buckets.values()].sort(
    (a, b) => (a.slot ?? Number.POSITIVE_INFINITY) - (b.slot ?? Number.POSITIVE_INFINITY),
  );
}
