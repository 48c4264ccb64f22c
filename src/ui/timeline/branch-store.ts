import { create } from 'zustand';
import type { SessionId } from '../../worker/protocol';

// Which uuid-tree branch the timeline follows (engine/parse/branches.ts). UI state only; a new
// session starts on its main line (0).

interface BranchState {
  sessionId?: SessionId;
  branchId: number;
  follow(sessionId: SessionId, branchId: number): void;
}

export const useBranchStore = create<BranchState>()((set) => ({
  branchId: 0,
  follow: (sessionId, branchId) => set({ sessionId, branchId }),
}));

/** The branch followed in a session: 0 (the main line) until the user picks another. */
export function useFollowedBranch(sessionId: SessionId): number {
  return useBranchStore((s) => (s.sessionId === sessionId ? s.branchId : 0));
}
