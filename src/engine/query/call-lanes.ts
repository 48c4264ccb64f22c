import type { Session } from '../types';

// API calls split into lanes: the main conversation's context, and each subagent's own context.
// Deltas only make sense between consecutive calls of the same lane.

interface CallLanes {
  /** 1 when the call belongs to the main conversation, 0 for subagents / compaction calls. */
  isMain: Uint8Array;
  /** Previous call of the same lane (same file and agent), or -1. */
  previousInLane: Int32Array;
}

const cache = new WeakMap<Session, CallLanes>();

/** Memoized per session. */
export function getCallLanes(session: Session): CallLanes {
  let lanes = cache.get(session);
  if (lanes) return lanes;
  const n = session.apiCalls.length;
  const isMain = new Uint8Array(n);
  const previousInLane = new Int32Array(n).fill(-1);
  const lastByLane = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const call = session.apiCalls[i]!;
    const entry = session.entries[call.firstEntryIndex];
    const file = session.files[call.fileIndex];
    // A subagent file opened on its own is read as the main thread (SessionFile.openedAlone).
    const main = (file?.role ?? 'main') === 'main' && (!entry?.isSidechain || file?.openedAlone === true);
    isMain[i] = main ? 1 : 0;
    const lane = main ? 'main' : `${call.fileIndex}:${entry?.agentId ?? entry?.spawnedBy ?? ''}`;
    const previous = lastByLane.get(lane);
    if (previous !== undefined) previousInLane[i] = previous;
    lastByLane.set(lane, i);
  }
  lanes = { isMain, previousInLane };
  cache.set(session, lanes);
  return lanes;
}
