import { create } from 'zustand';
import { ALL_FILTER_KINDS, type FilterKind } from '../engine/query/entry-kinds';
import type { ParseProgressMessage, SessionId } from '../worker/protocol';

// UI state only: what is loaded/loading (ids, progress), selection, filters, panels. Knob
// overrides are the replay's (replay/replay-store.ts). Results live in TanStack Query (see
// queries.ts), never here.

export type SidePanel = 'detail' | 'tokens' | 'issues' | 'bash' | 'secrets' | 'erosion';

export interface LoadState {
  sessionId: SessionId;
  label: string;
  progress?: ParseProgressMessage;
  /** Fetching the bundled sample, before parsing starts. */
  phase: 'fetching' | 'parsing';
  /** Cancel was pressed: the load ends once the engine has stopped it. */
  cancelling?: boolean;
  /** The context of each main-thread call read so far: the timeline drawn while the file streams in. */
  contexts?: number[];
}

interface UiState {
  currentSessionId?: SessionId;
  currentLabel?: string;
  loading?: LoadState;
  /** A message about the last load that failed or was cancelled. */
  notice?: { kind: 'error' | 'info'; text: string };

  filterKinds: FilterKind[];
  search: string;
  /** Search whole raw lines (a file scan in the worker), not only the previews. */
  fullText: boolean;
  selectedEntry?: number;
  /** Incremented to ask the transcript list to scroll the selected entry into view. */
  revealNonce: number;
  openCompaction?: number;
  panel: SidePanel;

  startLoad(load: LoadState): void;
  setLoadProgress(sessionId: SessionId, progress: ParseProgressMessage): void;
  setLoadPhase(sessionId: SessionId, phase: LoadState['phase'], label?: string): void;
  setLoadCancelling(sessionId: SessionId): void;
  finishLoad(sessionId: SessionId): void;
  endLoad(sessionId: SessionId, notice?: UiState['notice']): void;
  dismissNotice(): void;
  toggleFilterKind(kind: FilterKind): void;
  setFilterKinds(kinds: FilterKind[]): void;
  setSearch(search: string): void;
  setFullText(fullText: boolean): void;
  selectEntry(entryIndex: number | undefined, reveal?: boolean): void;
  openCompactionCard(compactionIndex: number | undefined): void;
  setPanel(panel: SidePanel): void;
}

export const useUiStore = create<UiState>()((set) => ({
  filterKinds: [...ALL_FILTER_KINDS],
  search: '',
  fullText: false,
  revealNonce: 0,
  panel: 'detail',

  startLoad: (load) => set({ loading: load, notice: undefined }),
  setLoadProgress: (sessionId, progress) =>
    set((s) => {
      if (s.loading?.sessionId !== sessionId) return {};
      const { contexts } = progress;
      const drawn = contexts
        ? (s.loading.contexts ?? []).slice(0, contexts.from).concat(contexts.tokens)
        : s.loading.contexts;
      return { loading: { ...s.loading, progress, phase: 'parsing', contexts: drawn } };
    }),
  setLoadPhase: (sessionId, phase, label) =>
    set((s) =>
      s.loading?.sessionId === sessionId
        ? { loading: { ...s.loading, phase, label: label ?? s.loading.label } }
        : {},
    ),
  setLoadCancelling: (sessionId) =>
    set((s) => (s.loading?.sessionId === sessionId ? { loading: { ...s.loading, cancelling: true } } : {})),
  finishLoad: (sessionId) =>
    set((s) => ({
      currentSessionId: sessionId,
      currentLabel: s.loading?.sessionId === sessionId ? s.loading.label : s.currentLabel,
      loading: s.loading?.sessionId === sessionId ? undefined : s.loading,
      selectedEntry: undefined,
      openCompaction: undefined,
    })),
  endLoad: (sessionId, notice) =>
    set((s) => (s.loading?.sessionId === sessionId ? { loading: undefined, notice } : {})),
  dismissNotice: () => set({ notice: undefined }),
  toggleFilterKind: (kind) =>
    set((s) => ({
      filterKinds: s.filterKinds.includes(kind)
        ? s.filterKinds.filter((k) => k !== kind)
        : [...s.filterKinds, kind],
    })),
  setFilterKinds: (filterKinds) => set({ filterKinds }),
  setSearch: (search) => set({ search }),
  setFullText: (fullText) => set({ fullText }),
  selectEntry: (selectedEntry, reveal = false) =>
    set((s) => ({ selectedEntry, revealNonce: reveal ? s.revealNonce + 1 : s.revealNonce, panel: 'detail' })),
  openCompactionCard: (openCompaction) => set({ openCompaction }),
  setPanel: (panel) => set({ panel }),
}));
