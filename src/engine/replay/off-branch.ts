import { isMainThreadEntry } from '../parse/main-thread';
import { isOnFollowedBranch } from '../parse/branches';
import type { Session } from '../types';
import type { LeftOutCompaction } from './types';

// The log's compactions a replay leaves out: those on a branch of the uuid tree it does not
// follow (a resume or a rewind to before them; parse/branches.ts says what following a branch
// means). The replay is right to leave them out, their context is another history's; it says so,
// with where the branch left and where the log went on, so the count of the log's compactions
// (inspect's, the truth readers') and the replay's can be told apart: never dropped silently.
// The real case: Claude Code 2.0.76 c76ab3a5 (aistrad/work), whose compaction at line 209 lies on
// the branch a resume at line 256 abandoned (its parent is line 208, before the compaction).

/** The main thread's compactions off the followed branch, in log order (none on a session without forks). */
export function getLeftOutCompactions(session: Session): LeftOutCompaction[] {
  const branches = session.branches;
  if (!branches) return [];
  const { entries } = session;
  const out: LeftOutCompaction[] = [];
  for (const [compactionIndex, c] of session.compactions.entries()) {
    const entry = entries[c.entryIndex];
    if (!entry || !isMainThreadEntry(session, entry) || isOnFollowedBranch(session, entry.index)) continue;
    const branchId = branches.branchOfEntry[entry.index] ?? -1;
    const fork = branches.forks[branches.branches[branchId]?.forkIndex ?? -1];
    const continuedChild = fork?.childEntryIndices[fork.branchIds.indexOf(fork.continuedBranchId)];
    out.push({
      compactionIndex,
      kind: c.kind,
      trigger: c.trigger,
      line: c.line,
      ...(c.preTokens !== undefined ? { preTokens: c.preTokens } : {}),
      ...(c.apiCallBefore !== undefined ? { afterApiCall: c.apiCallBefore } : {}),
      branchId,
      ...(fork ? { forkLine: entries[fork.entryIndex]!.line } : {}),
      continued: fork?.continuedBranchId === branchId,
      ...(fork && continuedChild !== undefined && fork.continuedBranchId !== branchId
        ? { continuedAtLine: entries[continuedChild]!.line }
        : {}),
    });
  }
  return out;
}
