import { isMainThreadEntry } from '../parse/main-thread';
import { isOnFollowedBranch } from '../parse/branches';
import { getDialectInfo } from '../parse/dialects/descriptors';
import { getAnswerOutputs } from '../parse/understated-output';
import { getCallContext } from '../query/usage-coverage';
import { lowerBound } from '../simulation/search';
import type { Session } from '../types';

// Phase 1 of `prepareReplay`: the call axis. The main thread's API calls in order, the context
// entries (main-thread user / assistant / attachment records) in order, and where each call's
// first line sits among them.

/** The model of local error / interrupt messages: no API call (docs/sources.md#fmt-usage). */
const SYNTHETIC_MODEL = '<synthetic>';

export interface CallAxis {
  /** Main-thread, non-synthetic API calls, in order: index into `session.apiCalls`. */
  calls: Int32Array;
  /** Each call's first entry index (sorted: calls are in log order). */
  callFirstEntry: Int32Array;
  recorded: Float64Array;
  output: Float64Array;
  /** Context position → entry index (sorted). */
  ctxEntry: Int32Array;
  posOfEntry: Int32Array;
  /** Context position of each call's first line; `callPos[n]` = number of context entries. */
  callPos: Int32Array;
}

/** The calls and context positions of the main thread. */
export function getCallAxis(session: Session): CallAxis {
  const { entries } = session;
  const callList: number[] = [];
  for (const call of session.apiCalls) {
    // Main-thread calls; a subagent file opened on its own is its own main thread.
    const first = entries[call.firstEntryIndex];
    // On a forked session, the calls of the branch followed (parse/branches.ts).
    if (
      first &&
      isMainThreadEntry(session, first) &&
      isOnFollowedBranch(session, first.index) &&
      call.model !== SYNTHETIC_MODEL
    )
      callList.push(call.index);
  }
  const n = callList.length;
  const calls = Int32Array.from(callList);
  const callFirstEntry = new Int32Array(n);
  const recorded = new Float64Array(n);
  const output = new Float64Array(n);
  const answers = getAnswerOutputs(
    entries,
    session.apiCalls,
    (f) => getDialectInfo(session.files[f]?.dialect)?.transcript?.understatedOutputCause,
  );
  for (let k = 0; k < n; k++) {
    const call = session.apiCalls[calls[k]!]!;
    callFirstEntry[k] = call.firstEntryIndex;
    // The recorded context, or Claude Code's estimate where the call recorded no usage.
    recorded[k] = getCallContext(session, call.index).tokens;
    // A call whose log kept the usage of the stream's start (parse/understated-output.ts): the agent
    // counted the final output it held in memory, estimated from the answer (ours). On the real
    // Claude Code 2.1.34–2.1.41 session 588184d4 that puts the first auto-compaction after the
    // logged call, one call late on the recorded output; no other replay of the corpus moves.
    output[k] = answers[call.index] || call.usage.outputTokens;
  }

  const posOfEntry = new Int32Array(entries.length).fill(-1);
  const ctxList: number[] = [];
  for (const entry of entries) {
    if (entry.kind !== 'user' && entry.kind !== 'assistant' && entry.kind !== 'attachment') continue;
    if (!isMainThreadEntry(session, entry) || !isOnFollowedBranch(session, entry.index)) continue;
    posOfEntry[entry.index] = ctxList.length;
    ctxList.push(entry.index);
  }
  const m = ctxList.length;
  const ctxEntry = Int32Array.from(ctxList);
  const callPos = new Int32Array(n + 1);
  for (let k = 0; k < n; k++) {
    const call = session.apiCalls[calls[k]!]!;
    let pos = lowerBound(ctxEntry, call.firstEntryIndex);
    // A dialect that logs a call's usage after its response items (Codex's `token_count`): the
    // call's first line is the first of the assistant items just before it (not before the
    // previous call's usage).
    const dialect = getDialectInfo(session.files[call.fileIndex]?.dialect);
    if (dialect?.usageFollowsResponse) {
      const floor = k > 0 ? lowerBound(ctxEntry, callFirstEntry[k - 1]!) : 0;
      while (pos > floor && entries[ctxEntry[pos - 1]!]!.kind === 'assistant') pos--;
    }
    callPos[k] = pos;
  }
  callPos[n] = m;
  return { calls, callFirstEntry, recorded, output, ctxEntry, posOfEntry, callPos };
}

/** First context position whose entry index is ≥ `entryIndex`. */
export function getPosAtOrAfter(axis: CallAxis, entryIndex: number): number {
  return lowerBound(axis.ctxEntry, entryIndex);
}

/** Main-call position of the last call starting before `entryIndex` (−1 if none). */
export function getCallBefore(axis: CallAxis, entryIndex: number): number {
  return lowerBound(axis.callFirstEntry, entryIndex) - 1;
}
