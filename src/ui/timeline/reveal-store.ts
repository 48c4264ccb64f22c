import { create } from 'zustand';

// The timeline's zoom/pan asks the transcript to reveal the first entry of the visible range
// ("reveal" is this idea's word: live mode is "live", the uuid tree's choice a "branch path");
// `nonce` makes a repeated request for the same entry scroll again.

interface RevealState {
  reveal?: { entryIndex: number; nonce: number };
  requestReveal(entryIndex: number): void;
}

export const useRevealStore = create<RevealState>()((set) => ({
  requestReveal: (entryIndex) => set((s) => ({ reveal: { entryIndex, nonce: (s.reveal?.nonce ?? 0) + 1 } })),
}));
