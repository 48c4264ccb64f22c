import { create } from 'zustand';
import type { SessionId } from '../../worker/protocol';

// The branch path: which uuid-tree branch the timeline and the replay take (engine/parse/branches.ts). UI state only; a new
// session starts on its main line (0).

interface BranchState {
  sessionId?: SessionId;
  branchId: number;
  setBranchPath(sessionId: SessionId, branchId: number): void;
}

export const useBranchStore = create<BranchState>()((set) => ({
  branchId: 0,
  setBranchPath: (sessionId, branchId) => set({ sessionId, branchId }),
}));

/** The branch path of a session: 0 (the main line) until the user picks another. */
export function useBranchPath(sessionId: SessionId): number {
  return useBranchStore((s) => (s.sessionId === sessionId ? s.branchId : 0));
}
