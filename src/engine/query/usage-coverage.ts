import { at } from '../assert';
import { computeEntryParents } from '../parse/branches';
import { isMainThreadEntry } from '../parse/main-thread';
import { estimateEntryTokens } from '../tokens/estimate';
import type { Compaction, Entry, Session, TokenCount } from '../types';
import { getCallLanes } from './call-lanes';

// Logs whose calls record no usage. Some agents write `usage` as all zeros on most calls (models
// reached through a proxy that does not pass usage on): a context series drawn from them would
// fall to 0 and every delta would read "→ 0 tokens". Those calls get Claude Code's own estimate
// of what they sent instead (tokens/estimate.ts: chars/4, images 2,000), flagged as estimated.
//
// What a call sent: the chain of its first entry's ancestors in the uuid tree (parse/branches.ts),
// from the last compact boundary on (the boundary restarts the context: docs/sources.md#fmt-compaction), counting
// main-thread user, assistant and attachment entries. The system prompt and tools are in no
// entry: they are taken from the first call that has usage (its usage minus its entries'
// estimate), or counted as 0 when no call has usage, which the page says.

const SYNTHETIC_MODEL = '<synthetic>';

export interface UsageCoverage {
  /** Main-thread calls (synthetic ones left out, docs/sources.md#fmt-usage). */
  mainCalls: number;
  /** Those whose usage is all zeros (no input, cache or output tokens). */
  zeroUsageCalls: number;
  /** System prompt + tools added to each estimate; 0 when no call has usage to measure it by. */
  estimateBaseTokens: TokenCount;
  /** True when `estimateBaseTokens` was measured on a call with usage. */
  baseMeasured: boolean;
}

function isContextEntry(session: Session, entry: Entry): boolean {
  if (entry.kind !== 'user' && entry.kind !== 'assistant' && entry.kind !== 'attachment') return false;
  return isMainThreadEntry(session, entry);
}

/** True when an API call recorded no usage at all. */
export function hasZeroUsage(session: Session, callIndex: number): boolean {
  const u = session.apiCalls[callIndex]?.usage;
  return (
    u !== undefined &&
    u.inputTokens + u.cacheCreationInputTokens + u.cacheReadInputTokens + u.outputTokens === 0
  );
}

/**
 * The entry a call's context continues from: its parent in the uuid tree, or, for an entry
 * outside any tree (Gemini CLI, Codex, Cline and OpenCode entries carry no uuid), the entry
 * before it in file order. Without the fallback such a call's estimate held the system prompt
 * alone: a real Gemini CLI chat of fabien-lessirard/dotfiles put its 21 calls without usage at
 * 8,365 tokens between calls of 126,934 and 151,462, and the replay priced the next message at
 * the whole difference (a context of −1,314,582 tokens after a simulated compaction). (Those 21
 * were no calls at all, the holders of cancelled tool calls the reader now tells apart; the
 * fallback stays for a response whose usage was not written.)
 */
function getParentOf(parent: Int32Array, entry: Entry): number {
  return entry.uuid ? at(parent, entry.index) : entry.index - 1;
}

/**
 * The context restarts at this entry: a compact boundary, a raw request list, or, in a log
 * without a uuid tree, the record of a compaction (not a truncation: the messages before the
 * dropped range are still sent).
 */
function restartsContext(entry: Entry): boolean {
  if (entry.subtype === 'compact_boundary' || entry.compact?.resendsHistory) return true;
  return !entry.uuid && entry.compact !== undefined && entry.compact.kind !== 'truncate';
}

interface Estimates {
  /** Estimated context each API call sent, messages only (by `session.apiCalls` index). */
  messagesByCall: Float64Array;
  coverage: UsageCoverage;
}

const cache = new WeakMap<Session, Estimates>();

/** Per-call message estimates and the usage coverage of the main thread; memoized per session. */
function getUsageEstimates(session: Session): Estimates {
  const hit = cache.get(session);
  if (hit) return hit;
  const { entries } = session;
  const parent = session.branches?.parentOfEntry ?? computeEntryParents(session);
  // Cumulative estimate of each entry's ancestor chain (itself included), in file order; an
  // entry whose parent comes later (untrusted order) is resolved by walking up.
  const cum = new Float64Array(entries.length).fill(Number.NaN);
  const own = (e: Entry): TokenCount => (isContextEntry(session, e) ? estimateEntryTokens(e) : 0);
  const resolve = (i: number): TokenCount => {
    const chain: number[] = [];
    let x = i;
    while (x >= 0 && Number.isNaN(at(cum, x)) && chain.length <= entries.length) {
      chain.push(x);
      const e = at(entries, x);
      x = restartsContext(e) ? -1 : getParentOf(parent, e);
    }
    let acc = x >= 0 && !Number.isNaN(at(cum, x)) ? at(cum, x) : 0;
    for (let k = chain.length - 1; k >= 0; k--) {
      acc += own(entries[at(chain, k)]!);
      cum[at(chain, k)] = acc;
    }
    return at(cum, i);
  };
  const lanes = getCallLanes(session);
  const messagesByCall = new Float64Array(session.apiCalls.length);
  let mainCalls = 0;
  let zeroUsageCalls = 0;
  let estimateBaseTokens = 0;
  let baseMeasured = false;
  // In a log without a uuid tree, the last main call with usage: a later call without usage is
  // that call's context plus the messages since (its record of the context after a compaction the
  // entries do not hold: a real Gemini CLI chat's call after its compression read 10,575 between
  // calls of 171,019 and 171,127, the messages since the compression alone). Dropped at a restart.
  let anchor: { contextTokens: TokenCount; messages: TokenCount } | undefined;
  let scanned = 0;
  const fromAnchor: { index: number; contextTokens: TokenCount }[] = [];
  for (const call of session.apiCalls) {
    const first = entries[call.firstEntryIndex];
    const p = first ? getParentOf(parent, first) : -1;
    messagesByCall[call.index] = p >= 0 ? resolve(p) : 0;
    for (; scanned <= call.firstEntryIndex && scanned < entries.length; scanned++)
      if (restartsContext(at(entries, scanned))) anchor = undefined;
    if (!lanes.isMain[call.index] || call.model === SYNTHETIC_MODEL) continue;
    mainCalls++;
    const noTree = first !== undefined && !first.uuid;
    if (hasZeroUsage(session, call.index)) {
      zeroUsageCalls++;
      if (noTree && anchor)
        fromAnchor.push({
          index: call.index,
          contextTokens: anchor.contextTokens + at(messagesByCall, call.index) - anchor.messages,
        });
    } else {
      if (!baseMeasured && call.contextTokens > 0) {
        estimateBaseTokens = Math.max(0, call.contextTokens - at(messagesByCall, call.index));
        baseMeasured = true;
      }
      anchor = noTree
        ? { contextTokens: call.contextTokens, messages: at(messagesByCall, call.index) }
        : undefined;
    }
  }
  // As messages (the base is added to every estimate), never under the estimate from the messages.
  for (const f of fromAnchor)
    messagesByCall[f.index] = Math.max(at(messagesByCall, f.index), f.contextTokens - estimateBaseTokens);
  const result = {
    messagesByCall,
    coverage: { mainCalls, zeroUsageCalls, estimateBaseTokens, baseMeasured },
  };
  cache.set(session, result);
  return result;
}

/** How many main-thread calls recorded usage, and what the estimates add for the system prompt. */
export function getUsageCoverage(session: Session): UsageCoverage {
  return getUsageEstimates(session).coverage;
}

/** Claude Code's estimate of the context an API call sent (its ancestors' messages + base). */
export function getEstimatedCallContext(session: Session, callIndex: number): TokenCount {
  const { messagesByCall, coverage } = getUsageEstimates(session);
  return Math.round((messagesByCall[callIndex] ?? 0) + coverage.estimateBaseTokens);
}

/** The context an API call sent: its recorded usage, or the estimate when it recorded none. */
export function getCallContext(
  session: Session,
  callIndex: number,
): { tokens: TokenCount; estimated: boolean } {
  return hasZeroUsage(session, callIndex)
    ? { tokens: getEstimatedCallContext(session, callIndex), estimated: true }
    : { tokens: session.apiCalls[callIndex]?.contextTokens ?? 0, estimated: false };
}

/** A compaction whose next call recorded no usage gets that call's estimate as `postTokens`, flagged. */
export function withEstimatedPost(session: Session, c: Compaction): Compaction & { postEstimated?: boolean } {
  if (c.apiCallAfter === undefined || !hasZeroUsage(session, c.apiCallAfter)) return c;
  return { ...c, postTokens: getEstimatedCallContext(session, c.apiCallAfter), postEstimated: true };
}
