import type { Table } from 'dexie';
import { sharedDatabase } from '../common/lazy-dexie';
import { hasIndexedDb } from '../common/storage';
import type { LoadFile } from '../../worker/protocol';

// Recently opened files, kept as File System Access handles in IndexedDB (the library's store
// design, library-db.ts: a Dexie table of structured-cloneable handles) so the start page lists
// them after a reload and reopens one with a click (read permission asked on that click). Only
// where the browser gives file handles (Chromium: `getAsFileSystemHandle` on a drop,
// `showOpenFilePicker` behind "Open files…"); elsewhere nothing is stored and the list is not shown.

/** How many sessions the list keeps. */
const MAX_RECENT_FILES = 8;

export interface RecentFile {
  /** The main file's name and size: the same file opened again replaces its entry. */
  id: string;
  /** What the list shows ("abc.jsonl + 2 more files"). */
  label: string;
  openedAtMs: number;
  /** The session's files, main first, each with the name the parser saw. */
  files: { name: string; handle: FileSystemFileHandle }[];
}

/** The recent files' database, opened (and Dexie loaded) on first use. */
const getDb = sharedDatabase<{ files: Table<RecentFile, string> }>('compactlab-recent', {
  files: 'id, openedAtMs',
});

type HandleItem = DataTransferItem & { getAsFileSystemHandle?: () => Promise<FileSystemHandle | null> };

/** Whether this browser gives file handles to keep (and IndexedDB to keep them in). */
export function isRecentFilesSupported(): boolean {
  const dropHandles =
    typeof DataTransferItem !== 'undefined' &&
    typeof (DataTransferItem.prototype as HandleItem).getAsFileSystemHandle === 'function';
  const pickerHandles = typeof (window as { showOpenFilePicker?: unknown }).showOpenFilePicker === 'function';
  return hasIndexedDb() && (dropHandles || pickerHandles);
}

/**
 * The handles of a drop's files. Must be called synchronously in the drop handler (items expire
 * after it); resolves to [] where the browser gives none, or when a folder was dropped.
 */
export function captureDropHandles(dataTransfer: DataTransfer): Promise<FileSystemFileHandle[]> {
  if (!hasIndexedDb()) return Promise.resolve([]);
  const pending: Promise<FileSystemHandle | null | undefined>[] = [];
  for (const item of Array.from(dataTransfer.items ?? [])) {
    const get = (item as HandleItem).getAsFileSystemHandle;
    if (item.kind === 'file' && get) pending.push(get.call(item).catch(() => null));
  }
  return Promise.all(pending).then((handles) =>
    handles.some((h) => h?.kind !== 'file') ? [] : (handles as FileSystemFileHandle[]),
  );
}

/** Keeps a session's handles at the top of the list (the oldest beyond `MAX_RECENT_FILES` go). */
export async function rememberRecentFiles(
  label: string,
  files: RecentFile['files'],
  sizeBytes: number,
  nowMs = Date.now(),
): Promise<void> {
  const main = files[0];
  if (!main || !hasIndexedDb()) return;
  try {
    const db = await getDb();
    await db.files.put({ id: `${main.name}\u0000${sizeBytes}`, label, openedAtMs: nowMs, files });
    const all = await db.files.orderBy('openedAtMs').reverse().primaryKeys();
    if (all.length > MAX_RECENT_FILES) await db.files.bulkDelete(all.slice(MAX_RECENT_FILES));
  } catch {
    // A handle this browser cannot store: the list just lacks it.
  }
}

/** Most recent first. */
export async function listRecentFiles(): Promise<RecentFile[]> {
  if (!isRecentFilesSupported()) return [];
  try {
    return await (await getDb()).files.orderBy('openedAtMs').reverse().toArray();
  } catch {
    return [];
  }
}

export async function forgetRecentFile(id: string): Promise<void> {
  if (hasIndexedDb()) await (await getDb()).files.delete(id);
}

type PermissionHandle = FileSystemFileHandle & {
  queryPermission?: (d: { mode: 'read' }) => Promise<PermissionState>;
  requestPermission?: (d: { mode: 'read' }) => Promise<PermissionState>;
};

/**
 * The files behind handles (a recent entry's, or just picked). Call from the click (a user
 * gesture): read permission is asked for when the browser no longer holds it. Throws with a
 * sentence when it is refused or a file is gone.
 */
export async function readFileHandles(files: RecentFile['files']): Promise<LoadFile[]> {
  const out: LoadFile[] = [];
  for (const { name, handle } of files) {
    const h = handle as PermissionHandle;
    let state = (await h.queryPermission?.({ mode: 'read' })) ?? 'granted';
    if (state !== 'granted') state = (await h.requestPermission?.({ mode: 'read' })) ?? 'denied';
    if (state !== 'granted') throw new Error(`Reading ${name} was not allowed`);
    try {
      out.push({ name, blob: await handle.getFile() });
    } catch {
      throw new Error(`${name} can no longer be read (moved or deleted?)`);
    }
  }
  return out;
}
