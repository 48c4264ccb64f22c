import { create } from 'zustand';
import type { LibraryRow } from '../../engine/library/library-row';

// The library's UI state: which view shows, the opened folder's sessions with their rows as the
// scan delivers them, the scan's progress, and the table's sort and filters. Rows are plain list
// data (not engine results): the scan streams them here one by one.

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
  key: string;
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
  folderName?: string;
  /** True when the files are at hand (not only the cached listing after a reload). */
  filesOpen: boolean;
  sessions: LibrarySession[];
  scan?: ScanProgress;
  sort: { key: LibrarySortKey; descending: boolean };
  search: string;
  agent: string;
  showView(view: 'session' | 'library'): void;
  /** Lists a folder; `show` false keeps the current view (a folder reopened on its own at start). */
  setFolder(name: string, sessions: LibrarySession[], filesOpen: boolean, show?: boolean): void;
  /** Updates several sessions at once (the scan delivers rows in batches). */
  setRows(updates: ReadonlyMap<string, Partial<LibrarySession>>): void;
  setScan(scan: ScanProgress | undefined): void;
  setSort(key: LibrarySortKey): void;
  setSearch(search: string): void;
  setAgent(agent: string): void;
}

export const useLibraryStore = create<LibraryState>()((set) => ({
  view: 'session',
  filesOpen: false,
  sessions: [],
  sort: { key: 'start', descending: true },
  search: '',
  agent: '',
  showView: (view) => set({ view }),
  setFolder: (folderName, sessions, filesOpen, show = true) =>
    set(show ? { folderName, sessions, filesOpen, view: 'library' } : { folderName, sessions, filesOpen }),
  setRows: (updates) =>
    set((s) => ({
      sessions: s.sessions.map((x) => (updates.has(x.key) ? { ...x, ...updates.get(x.key) } : x)),
    })),
  setScan: (scan) => set({ scan }),
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
