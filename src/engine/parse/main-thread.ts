import type { Compaction, Entry, Session } from '../types';

// The main thread: the one conversation whose API calls number the timeline. A subagent's log (or
// a 1.0.x subagent's entries inline in the main file) holds compactions of its own context, not of
// the session's; every figure that counts "the session's compactions" counts the main thread's
// here, and says the subagents' apart, so the header, the list, the CLI's rows, the markers and
// the report agree (the library's row, `compactlab stats` and `inspect`'s timeline).

/** True for entries of the main conversation (not a subagent's sidechain, not another file). */
export function isMainThreadEntry(session: Session, entry: Entry): boolean {
  const file = session.files[entry.fileIndex];
  if (file?.role !== 'main') return false;
  // A subagent's log opened without its session is read as the main thread (SessionFile.openedAlone).
  return !entry.isSidechain || file.openedAlone === true;
}

/** True for a compaction of the main conversation (its boundary entry is the main thread's). */
export function isMainThreadCompaction(session: Session, c: Compaction): boolean {
  const entry = session.entries[c.entryIndex];
  // An entry a scan did not keep: its file says (a subagent's boundary lives in the subagent's log).
  if (!entry) return session.files[c.fileIndex]?.role === 'main';
  return isMainThreadEntry(session, entry);
}

/** A session's compactions as its header and list count them. */
export interface CompactionCounts {
  /** The main thread's full compactions by trigger (a trigger other than `manual` counts as auto). */
  auto: number;
  manual: number;
  /** The main thread's microcompactions (cleared tool results), any trigger. */
  micro: number;
  /** The main thread's truncations (Cline's context manager dropping a range, no summary). */
  truncated: number;
  /** Compactions in subagent logs (their own contexts): said apart, never in the figures above. */
  inSubagents: number;
}

export function countCompactions(session: Session): CompactionCounts {
  const counts: CompactionCounts = { auto: 0, manual: 0, micro: 0, truncated: 0, inSubagents: 0 };
  for (const c of session.compactions) {
    if (!isMainThreadCompaction(session, c)) counts.inSubagents++;
    else if (c.kind === 'microcompact') counts.micro++;
    else if (c.kind === 'truncate') counts.truncated++;
    else if (c.trigger === 'manual') counts.manual++;
    else counts.auto++;
  }
  return counts;
}
