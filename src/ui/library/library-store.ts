import { create } from 'zustand';
import type { LibraryRow } from '../../engine/library/library-row';

// The library's UI state: which view shows and the table's sort and filters. The listing itself
// (sessions, rows, the scan's progress) is an async result: library-queries.ts.

export type LibrarySortKey =
  | 'start'
  | 'project'
  | 'agent'
  | 'prompt'
  | 'duration'
  | 'size'
  | 'calls'
  | 'peak'
  | 'compactions'
  | 'subagents'
  | 'issues'
  | 'cost';

export interface LibrarySession {
  /** The main file's path, starting with its root's id: unique across roots. */
  key: string;
  /** The id of the root (library-queries.ts `LibraryRoot`) it was listed from. */
  root: string;
  sizeBytes: number;
  fileCount: number;
  row?: LibraryRow;
  error?: string;
  /** The row came from the IndexedDB cache (the session's files unchanged), not from a scan. */
  fromCache?: boolean;
}

export interface ScanProgress {
  bytesRead: number;
  totalBytes: number;
  sessionsDone: number;
  sessionsTotal: number;
}

interface LibraryState {
  view: 'session' | 'library';
  sort: { key: LibrarySortKey; descending: boolean };
  search: string;
  agent: string;
  /** "Find in transcripts" is open: it stays so (with its results) while a found session is read. */
  findOpen: boolean;
  showView(view: 'session' | 'library'): void;
  setFindOpen(open: boolean): void;
  setSort(key: LibrarySortKey): void;
  setSearch(search: string): void;
  setAgent(agent: string): void;
}

export const useLibraryStore = create<LibraryState>()((set) => ({
  view: 'session',
  sort: { key: 'start', descending: true },
  search: '',
  agent: '',
  findOpen: false,
  showView: (view) => set({ view }),
  setFindOpen: (findOpen) => set({ findOpen }),
  setSort: (key) =>
    set((s) => ({
      sort: {
        key,
        descending:
          s.sort.key === key ? !s.sort.descending : key !== 'project' && key !== 'prompt' && key !== 'agent',
      },
    })),
  setSearch: (search) => set({ search }),
  setAgent: (agent) => set({ agent }),
}));
