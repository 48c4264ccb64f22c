import type { Compaction, Session, TokenCount } from '../types';
import { isOnFollowedBranch } from '../parse/branches';
import { isMainThreadCompaction } from '../parse/main-thread';
import { getCallLanes } from './call-lanes';
import { getEstimatedCallContext, hasZeroUsage } from './usage-coverage';

// The context-over-time chart's data. The x axis is the main conversation's API call sequence
// (0, 1, 2, …): wall-clock time would squash a session resumed days later. Subagent calls are
// placed on that axis by their timestamps. A subagent's compactions are not markers: they are of
// its own context, not the one drawn (the replay strip's Subagents rows have them), and a marker
// at the main call its time falls after read as that call's compaction.

export interface TimelineMarker {
  compactionIndex: number;
  kind: Compaction['kind'];
  trigger: string;
  /** Position on the call axis (fractional: between the calls before and after the boundary). */
  x: number;
  preTokens?: TokenCount;
  postTokens?: TokenCount;
  summaryTokens?: TokenCount;
  tokensSaved?: TokenCount;
  /** `truncate`: the range of the model-facing history no longer sent. */
  deletedRange?: [number, number];
  /** `postTokens` is an estimate: the call after the boundary recorded no usage. */
  postEstimated?: boolean;
  entryIndex: number;
}

export interface TimelineSeries {
  /** Main-conversation calls in order: index into `session.apiCalls`. */
  callIndex: Int32Array;
  contextTokens: Float64Array;
  /** 1 where the call recorded no usage and `contextTokens` is Claude Code's estimate (usage-coverage.ts). */
  estimated: Uint8Array;
  outputTokens: Float64Array;
  /** NaN when a call has no timestamp. */
  timestampMs: Float64Array;
  firstEntryIndex: Int32Array;
  /** Subagent calls, x on the main call axis (NaN when they cannot be placed). */
  side: { callIndex: Int32Array; x: Float64Array; contextTokens: Float64Array };
  markers: TimelineMarker[];
  /** Failed requests of the followed history (no answer, no usage: not calls), placed between calls. */
  failed: TimelineFailedRequest[];
  peakContextTokens: TokenCount;
}

/** A request that brought back no answer, as the chart marks it (types.ts FailedRequest). */
interface TimelineFailedRequest {
  /** Position on the call axis: half a call after the last call before it (−0.5 before the first). */
  x: number;
  entryIndex: number;
  reason: string;
  detail?: string;
}

const SYNTHETIC_MODEL = '<synthetic>';

/** Fractional position of a time on the main axis (binary search over sorted-ish timestamps). */
function getXForTime(times: Float64Array, timeMs: number | undefined): number {
  const n = times.length;
  if (timeMs === undefined || !Number.isFinite(timeMs) || n === 0) return Number.NaN;
  let lo = 0;
  let hi = n - 1;
  if (!(timeMs > times[0]!)) return 0;
  if (!(timeMs < times[hi]!)) return hi;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (times[mid]! <= timeMs) lo = mid;
    else hi = mid;
  }
  const t0 = times[lo]!;
  const t1 = times[hi]!;
  return t1 > t0 ? lo + (timeMs - t0) / (t1 - t0) : lo;
}

/** Builds the chart series for a session; linear in API calls (plus log for subagent placement). */
export function computeTimelineSeries(session: Session): TimelineSeries {
  const lanes = getCallLanes(session);
  const main: number[] = [];
  const side: number[] = [];
  for (const call of session.apiCalls) {
    if (call.model === SYNTHETIC_MODEL) continue;
    // Main calls of other branches than the followed one belong to another history (branches.ts).
    if (lanes.isMain[call.index] && !isOnFollowedBranch(session, call.firstEntryIndex)) continue;
    (lanes.isMain[call.index] ? main : side).push(call.index);
  }
  const n = main.length;
  const callIndex = Int32Array.from(main);
  const contextTokens = new Float64Array(n);
  const estimated = new Uint8Array(n);
  const outputTokens = new Float64Array(n);
  const timestampMs = new Float64Array(n);
  const firstEntryIndex = new Int32Array(n);
  const positionByCall = new Map<number, number>();
  let peak = 0;
  main.forEach((ci, x) => {
    const call = session.apiCalls[ci]!;
    const zero = hasZeroUsage(session, ci);
    contextTokens[x] = zero ? getEstimatedCallContext(session, ci) : call.contextTokens;
    estimated[x] = zero ? 1 : 0;
    outputTokens[x] = call.usage.outputTokens;
    timestampMs[x] = call.timestampMs ?? Number.NaN;
    firstEntryIndex[x] = call.firstEntryIndex;
    positionByCall.set(ci, x);
    if (contextTokens[x]! > peak) peak = contextTokens[x]!;
  });

  const sideX = new Float64Array(side.length);
  const sideTokens = new Float64Array(side.length);
  side.forEach((ci, k) => {
    const call = session.apiCalls[ci]!;
    sideX[k] = getXForTime(timestampMs, call.timestampMs);
    sideTokens[k] = call.contextTokens;
  });

  const markers: TimelineMarker[] = [];
  session.compactions.forEach((c, compactionIndex) => {
    if (!isMainThreadCompaction(session, c)) return;
    let x = Number.NaN;
    const before = c.apiCallBefore === undefined ? undefined : positionByCall.get(c.apiCallBefore);
    const after = c.apiCallAfter === undefined ? undefined : positionByCall.get(c.apiCallAfter);
    if (before !== undefined) x = before + 0.5;
    else if (after !== undefined) x = after - 0.5;
    if (Number.isNaN(x)) x = getXForTime(timestampMs, c.timestampMs);
    if (Number.isNaN(x)) x = 0;
    // A call without usage would read "→ 0 tokens": its estimate stands in, flagged.
    const afterZero = c.apiCallAfter !== undefined && hasZeroUsage(session, c.apiCallAfter);
    markers.push({
      compactionIndex,
      kind: c.kind,
      trigger: c.trigger,
      x,
      preTokens: c.preTokens,
      postTokens: afterZero ? getEstimatedCallContext(session, c.apiCallAfter!) : c.postTokens,
      ...(afterZero ? { postEstimated: true } : {}),
      summaryTokens: c.summaryTokens,
      tokensSaved: c.tokensSaved,
      deletedRange: c.deletedRange,
      entryIndex: c.entryIndex,
    });
  });

  const failed: TimelineFailedRequest[] = [];
  for (const f of session.failedRequests ?? []) {
    if (!isOnFollowedBranch(session, f.entryIndex)) continue;
    const before = f.afterApiCall < 0 ? -1 : (positionByCall.get(f.afterApiCall) ?? Number.NaN);
    const x = Number.isNaN(before) ? getXForTime(timestampMs, f.timestampMs) : before + 0.5;
    failed.push({
      x: Number.isNaN(x) ? -0.5 : x,
      entryIndex: f.entryIndex,
      reason: f.reason,
      ...(f.detail !== undefined ? { detail: f.detail } : {}),
    });
  }

  return {
    callIndex,
    contextTokens,
    estimated,
    outputTokens,
    timestampMs,
    firstEntryIndex,
    side: { callIndex: Int32Array.from(side), x: sideX, contextTokens: sideTokens },
    markers,
    failed,
    peakContextTokens: peak,
  };
}

/** The buffers to transfer when posting a series across threads. */
export function getTimelineTransferables(series: TimelineSeries): ArrayBuffer[] {
  return [
    series.callIndex,
    series.contextTokens,
    series.estimated,
    series.outputTokens,
    series.timestampMs,
    series.firstEntryIndex,
    series.side.callIndex,
    series.side.x,
    series.side.contextTokens,
  ].map((a) => a.buffer as ArrayBuffer);
}
