import { create } from 'zustand';
import type { SessionId } from '../../worker/protocol';
import type { ViewRange } from './geometry';

// The timeline's zoom range, by session: a link carries it (url-state.ts), so a shared or reloaded
// view opens zoomed where it was (issue 24 item 2). Another session starts unzoomed; a live append
// or another branch keeps the range (the chart clamps it to the calls there are). `fitHeight`, a
// preference across sessions: the height is the context's, not the window's (offered by the chart
// when the context stays far under its window, as a 55k session in a 1M window does).

interface ZoomState {
  sessionId?: SessionId;
  /** The visible call positions; undefined: the whole session. */
  view?: ViewRange;
  setView(sessionId: SessionId, view: ViewRange | undefined): void;
  fitHeight: boolean;
  setFitHeight(fit: boolean): void;
}

export const useZoomStore = create<ZoomState>()((set) => ({
  setView: (sessionId, view) => set({ sessionId, view }),
  fitHeight: false,
  setFitHeight: (fitHeight) => set({ fitHeight }),
}));
