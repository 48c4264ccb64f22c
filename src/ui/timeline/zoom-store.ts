import { create } from 'zustand';
import type { SessionId } from '../../worker/protocol';
import type { ViewRange } from './geometry';

// The timeline's zoom range, by session: a link carries it (url-state.ts), so a shared or reloaded
// view opens zoomed where it was (issue 24 item 2). Another session starts unzoomed; a live append
// or another branch keeps the range (the chart clamps it to the calls there are).

interface ZoomState {
  sessionId?: SessionId;
  /** The visible call positions; undefined: the whole session. */
  view?: ViewRange;
  setView(sessionId: SessionId, view: ViewRange | undefined): void;
}

export const useZoomStore = create<ZoomState>()((set) => ({
  setView: (sessionId, view) => set({ sessionId, view }),
}));
