import type { Table } from 'dexie';
import { sharedDatabase } from '../common/lazy-dexie';
import type { LibraryRow } from '../../engine/library/library-row';
import type { SessionNamesFile } from '../../engine/library/session-names';
import { hasIndexedDb } from '../common/storage';
import { LIBRARY_ROW_VERSION } from '../../engine/library/row-version';

// The library's cache in IndexedDB: each session's row under the stamp of its files (path, size,
// modification time of every file), so reopening a folder rescans only what changed; and each
// listed folder (its listing, and its directory handle where the browser gives one) so the list
// of every root comes back after a reload.

export interface CachedRow {
  /** `getGroupStamp` of the session's files. */
  stamp: string;
  row: LibraryRow;
}

/** The key a row is stored under: its files' stamp and the row version that computed it. */
const rowKey = (stamp: string): string => `v${LIBRARY_ROW_VERSION}|${stamp}`;

interface CachedSessionRef {
  key: string;
  stamp: string;
  files: { path: string; sizeBytes: number; modifiedMs: number }[];
}

interface StoredRoot {
  /** `root:<root id>`; `last` for the one folder an older version kept. */
  id: string;
  /** The root's id (library-queries.ts `LibraryRoot`); absent from the older record. */
  root?: string;
  name: string;
  /** When the root was first listed: the roots' order. */
  openedAtMs: number;
  sessions: CachedSessionRef[];
  /** A File System Access directory handle (structured-cloneable); absent from an <input>. */
  handle?: FileSystemDirectoryHandle;
  /** Its names files as read when it was opened (session-names.ts); absent from older records. */
  names?: SessionNamesFile[];
}

/** The app's library database, opened (and Dexie loaded) on first use. */
const getLibraryDb = sharedDatabase<{ rows: Table<CachedRow, string>; folders: Table<StoredRoot, string> }>(
  'compactlab-library',
  { rows: 'stamp', folders: 'id' },
);

/**
 * Stamps looked up per IndexedDB request: one `bulkGet` of 500 stamps was ~40 ms of the page's
 * thread (Dexie's requests and the rows' structured clone), so a big folder is read in chunks.
 */
const GET_CHUNK = 100;

/**
 * Cached rows by stamp (missing stamps are absent from the map). `between` runs between chunks
 * (the caller yields to the page there).
 */
export async function getCachedRows(
  stamps: string[],
  between: () => Promise<void> = async () => {},
): Promise<Map<string, LibraryRow>> {
  const out = new Map<string, LibraryRow>();
  if (!hasIndexedDb()) return out;
  for (let i = 0; i < stamps.length; i += GET_CHUNK) {
    if (i > 0) await between();
    const chunk = stamps.slice(i, i + GET_CHUNK);
    const found = await (await getLibraryDb()).rows.bulkGet(chunk.map(rowKey));
    found.forEach((r, j) => {
      if (r) out.set(chunk[j] as string, r.row);
    });
  }
  return out;
}

/** Several rows in one transaction (the scan writes each batch it hands to the list at once). */
export async function putCachedRows(rows: readonly CachedRow[]): Promise<void> {
  if (rows.length > 0 && hasIndexedDb())
    await (await getLibraryDb()).rows.bulkPut(rows.map((r) => ({ ...r, stamp: rowKey(r.stamp) })));
}

/** The record of the one folder an older version kept: read as a root, then replaced. */
const LEGACY_ID = 'last';
const storedId = (root: string) => `root:${root}`;

export type SavedRoot = Omit<StoredRoot, 'id' | 'root'> & { root: string };

/** Keeps a root's listing (replacing what was kept of it). */
export async function saveRoot(folder: SavedRoot): Promise<void> {
  if (!hasIndexedDb()) return;
  const db = await getLibraryDb();
  const record: StoredRoot = { id: storedId(folder.root), ...folder };
  try {
    await db.folders.put(record);
  } catch {
    // A handle some browser cannot clone: keep the listing without it.
    await db.folders.put({ ...record, handle: undefined });
  }
}

export async function deleteRoot(root: string): Promise<void> {
  if (hasIndexedDb()) await (await getLibraryDb()).folders.delete(storedId(root));
}

/** Every kept root, first listed first (the older single-folder record made a root of its name). */
export async function getSavedRoots(): Promise<SavedRoot[]> {
  if (!hasIndexedDb()) return [];
  const db = await getLibraryDb();
  const legacy = await db.folders.get(LEGACY_ID);
  if (legacy) {
    // Kept as a root of its name (its sessions' paths start with it), unless one is kept already.
    const { id: _, ...rest } = legacy;
    if (!(await db.folders.get(storedId(legacy.name)))) await saveRoot({ ...rest, root: legacy.name });
    await db.folders.delete(LEGACY_ID);
  }
  const all = await db.folders.toArray();
  return all
    .map(({ id, root, ...rest }) => ({ ...rest, root: root ?? id.slice('root:'.length) }))
    .sort((a, b) => a.openedAtMs - b.openedAtMs);
}
