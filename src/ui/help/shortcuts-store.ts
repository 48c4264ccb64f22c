import { create } from 'zustand';

// Whether the `?` overlay is open (shortcuts-overlay.tsx opens it; the first-run line too).

interface ShortcutsState {
  open: boolean;
  setOpen(open: boolean): void;
}

export const useShortcutsStore = create<ShortcutsState>()((set) => ({
  open: false,
  setOpen: (open) => set({ open }),
}));
