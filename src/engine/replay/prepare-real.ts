import { isMainThreadEntry } from '../parse/main-thread';
import { isOnFollowedBranch } from '../parse/branches';
import { getMessageRangePositions } from '../simulation/message-pairs';
import type { RealCompactionInfo } from '../simulation/prepared';
import type { Session } from '../types';
import { type CallAxis, getCallBefore, getPosAtOrAfter } from './prepare-call-axis';

// Phase 2 of `prepareReplay`: the log's own compactions of the main thread, placed on the call
// axis, with the context positions of what each re-attached (its summary, files).

interface RealCompactions {
  /** In entry order. */
  real: RealCompactionInfo[];
  /** Per context position: 1 + index into `real` for real compaction artifacts, else 0. */
  artifactOf: Int32Array;
}

/** The main thread's compactions and their artifacts (token figures filled by attribution). */
export function getRealCompactions(session: Session, axis: CallAxis): RealCompactions {
  const { entries } = session;
  const { posOfEntry } = axis;
  const real: RealCompactionInfo[] = [];
  for (const [compactionIndex, c] of session.compactions.entries()) {
    const entry = entries[c.entryIndex];
    if (!entry || !isMainThreadEntry(session, entry) || !isOnFollowedBranch(session, entry.index)) continue;
    const info: RealCompactionInfo = {
      compactionIndex,
      kind: c.kind,
      trigger: c.trigger,
      // The call the event followed: the last one before the first call it shaped (a Cline
      // truncation is written after that call started).
      afterCall: getCallBefore(
        axis,
        c.apiCallAfter === undefined ? c.entryIndex : session.apiCalls[c.apiCallAfter]!.firstEntryIndex,
      ),
      entryIndex: c.entryIndex,
      boundaryPos: getPosAtOrAfter(axis, c.entryIndex + 1),
      artifactPositions: [],
      artifactTokens: 0,
      unloggedTokens: 0,
      driftTokens: 0,
      summaryEntryIndex: c.summaryEntryIndex,
      preTokens: c.preTokens,
      cleared: [],
      savedTokens: 0,
      logicalParentUuid: entry.logicalParentUuid,
    };
    if (c.kind === 'truncate' && c.deletedRange)
      info.droppedRange = getMessageRangePositions(axis.callPos, c.deletedRange[0], c.deletedRange[1]);
    if (c.kind === 'compact') {
      const artifactEntries = [
        ...(c.summaryEntryIndex === undefined ? [] : [c.summaryEntryIndex]),
        ...c.reattachedEntryIndices,
      ];
      for (const e of artifactEntries) {
        const p = posOfEntry[e]!;
        if (p >= 0) info.artifactPositions.push(p);
      }
      info.artifactPositions.sort((a, b) => a - b);
    }
    real.push(info);
  }
  real.sort((a, b) => a.entryIndex - b.entryIndex);
  const artifactOf = new Int32Array(axis.ctxEntry.length);
  real.forEach((r, i) => {
    for (const p of r.artifactPositions) artifactOf[p] = i + 1;
  });
  return { real, artifactOf };
}
