import { create } from 'zustand';

// The timeline's zoom/pan asks the transcript to show the first entry of the visible range;
// `nonce` makes a repeated request for the same entry scroll again.

interface FollowState {
  follow?: { entryIndex: number; nonce: number };
  requestFollow(entryIndex: number): void;
}

export const useFollowStore = create<FollowState>()((set) => ({
  requestFollow: (entryIndex) => set((s) => ({ follow: { entryIndex, nonce: (s.follow?.nonce ?? 0) + 1 } })),
}));
