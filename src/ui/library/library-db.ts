import Dexie, { type Table } from 'dexie';
import type { LibraryRow } from '../../engine/library/library-row';

// The library's cache in IndexedDB: each session's row under the stamp of its files (path, size,
// modification time of every file), so reopening a folder rescans only what changed; and the last
// opened folder (its listing, and its directory handle where the browser gives one) so the list
// comes back after a reload.

export interface CachedRow {
  /** `getGroupStamp` of the session's files. */
  stamp: string;
  row: LibraryRow;
}

export interface CachedSessionRef {
  key: string;
  stamp: string;
  files: { path: string; sizeBytes: number; modifiedMs: number }[];
}

export interface LastFolder {
  id: 'last';
  name: string;
  openedAtMs: number;
  sessions: CachedSessionRef[];
  /** A File System Access directory handle (structured-cloneable); absent from an <input>. */
  handle?: FileSystemDirectoryHandle;
}

export class LibraryDatabase extends Dexie {
  rows!: Table<CachedRow, string>;
  folders!: Table<LastFolder, string>;
  constructor(name = 'compactlab-library') {
    super(name);
    this.version(1).stores({ rows: 'stamp', folders: 'id' });
  }
}

let shared: LibraryDatabase | undefined;

export function getLibraryDb(): LibraryDatabase {
  shared ??= new LibraryDatabase();
  return shared;
}

/** Cached rows by stamp (missing stamps are absent from the map). */
export async function getCachedRows(stamps: string[]): Promise<Map<string, LibraryRow>> {
  const found = await getLibraryDb().rows.bulkGet(stamps);
  const out = new Map<string, LibraryRow>();
  for (const r of found) if (r) out.set(r.stamp, r.row);
  return out;
}

export async function putCachedRow(stamp: string, row: LibraryRow): Promise<void> {
  await getLibraryDb().rows.put({ stamp, row });
}

export async function saveLastFolder(folder: Omit<LastFolder, 'id'>): Promise<void> {
  try {
    await getLibraryDb().folders.put({ id: 'last', ...folder });
  } catch {
    // A handle some browser cannot clone: keep the listing without it.
    await getLibraryDb().folders.put({ id: 'last', ...folder, handle: undefined });
  }
}

export async function getLastFolder(): Promise<LastFolder | undefined> {
  return getLibraryDb().folders.get('last');
}
