import {
  type LibraryFile,
  getGroupStamp,
  groupSessionFiles,
  joinSiblingSubagents,
  SIBLING_HEAD_BYTES,
  type SessionGroup,
} from '../../engine/library/group-files';
import type { LibraryRow } from '../../engine/library/library-row';
import { isFolderFileName, loadsAfterMain } from '../../engine/parse/detect';
import { isOpenCodeDatabaseName } from '../../engine/parse/dialects/opencode/database-name';
import { scanInPool } from '../../worker/scan-pool';
import { listDatabaseSessions, shownSizeOf, sizeOf } from './database-files';
import {
  type CachedRow,
  deleteRoot,
  getCachedRows,
  getSavedRoots,
  putCachedRows,
  saveRoot,
} from './library-db';
import {
  clearListing,
  getListing,
  type LibraryRoot,
  setListing,
  setListingRows,
  setListingScan,
} from './library-queries';
import { placeRoot, toRootPath } from './root-identity';
import { nameListedRow, readFolderNames, setRootNames } from './session-names';
import { isSessionNamesPath } from '../../engine/library/session-names';
import { useUiStore } from '../store';
import { type LibrarySession, useLibraryStore } from './library-store';

// Opening a folder as a library: its files from a directory input, a File System Access handle or
// a drop; grouped into sessions; rows from the IndexedDB cache where the files have not changed,
// the rest scanned in the worker pool and streamed into the list.

export interface FolderFile extends LibraryFile {
  file: File;
  /** A database's session (`opencode.db#ses_…`): its own bytes, where `sizeBytes` is the file's. */
  sessionBytes?: number;
  /** Where the file came from a directory handle: live mode re-reads it. */
  handle?: FileSystemFileHandle;
}

/** Rows are handed to the store at most this often (ms), so a fast scan does not re-render per row. */
const FLUSH_MS = 100;
/** Folder walks stop here: a home directory picked by mistake should not hang the tab. */
const MAX_FOLDER_FILES = 50_000;

/** Every listed session's files, by key (keys are unique across roots). */
const groups = new Map<string, SessionGroup<FolderFile>>();

/** The files of a listed session (main first), when the folder's files are at hand. */
export function getSessionFiles(key: string): FolderFile[] | undefined {
  return groups.get(key)?.files;
}

/**
 * Longest stretch (ms) the folder walk runs on the page's thread before it yields: a task over
 * 50 ms is one a person notices (issue 12's goal; the RAIL model's 50 ms budget).
 */
const SLICE_MS = 12;

/** Lets the page paint and take input: `scheduler.yield()` where Chromium has it, else a task. */
function yieldToPage(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * The files of a directory input. Reading a picked file's `size` and `lastModified` makes Chromium
 * stat it on the page's thread (~1 ms each on a busy machine): 500 files were one 450 ms task. So
 * files no dialect takes are skipped by path first, and the rest are read in slices with yields.
 * Takes an array (copy the input's FileList at once: clearing the input empties it).
 */
export async function fromFileList(files: readonly File[]): Promise<FolderFile[]> {
  const out: FolderFile[] = [];
  let sliceStart = performance.now();
  for (const file of files) {
    const path = file.webkitRelativePath || file.name;
    if (!isFolderFileName(path) && !isSessionNamesPath(path)) continue;
    if (performance.now() - sliceStart > SLICE_MS) {
      await yieldToPage();
      sliceStart = performance.now();
    }
    out.push({ path, sizeBytes: file.size, modifiedMs: file.lastModified, file });
  }
  return out;
}

/** The picked folders' directories by path (`<root>/<project>`…): live mode lists them again. */
const folderHandles = new Map<string, FileSystemDirectoryHandle>();

/** The directories of the last walk of each folder handle, by path as walked (`<name>/…`). */
const walkedDirs = new WeakMap<FileSystemDirectoryHandle, Map<string, FileSystemDirectoryHandle>>();

/** A directory of a folder walked through its handle, by its path in the list. */
export function getFolderHandle(path: string): FileSystemDirectoryHandle | undefined {
  return folderHandles.get(path);
}

/** Walks a directory handle for the files the dialects take (paths start with the folder's name). */
async function fromDirectoryHandle(root: FileSystemDirectoryHandle): Promise<FolderFile[]> {
  const dirs = new Map<string, FileSystemDirectoryHandle>();
  walkedDirs.set(root, dirs);
  const found = await listFolderFiles(root, root.name, {
    limit: MAX_FOLDER_FILES,
    onFolder: (path, dir) => dirs.set(path, dir),
  });
  const out: FolderFile[] = [];
  for (const { path, handle } of found) {
    const file = await handle.getFile();
    out.push({ path, sizeBytes: file.size, modifiedMs: file.lastModified, file, handle });
  }
  return out;
}

/**
 * The files the dialects take under `dir` (named from `path`), with their handles, up to `limit`;
 * `onFolder` sees every directory walked, `dir` first.
 */
export async function listFolderFiles(
  dir: FileSystemDirectoryHandle,
  path: string,
  options: {
    limit?: number;
    onFolder?: (path: string, dir: FileSystemDirectoryHandle) => void;
  } = {},
): Promise<{ path: string; handle: FileSystemFileHandle }[]> {
  const out: { path: string; handle: FileSystemFileHandle }[] = [];
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const walk = async (folder: FileSystemDirectoryHandle, folderPath: string): Promise<void> => {
    options.onFolder?.(folderPath, folder);
    // biome-ignore lint/suspicious/noExplicitAny: `values()` is missing from TypeScript's DOM types.
    for await (const child of (folder as any).values() as AsyncIterable<FileSystemHandle>) {
      if (out.length >= limit) return;
      const childPath = `${folderPath}/${child.name}`;
      if (child.kind === 'directory') await walk(child as FileSystemDirectoryHandle, childPath);
      else if (isFolderFileName(childPath) || isSessionNamesPath(childPath))
        out.push({ path: childPath, handle: child as FileSystemFileHandle });
    }
  };
  await walk(dir, path);
  return out;
}

/**
 * True when a dropped folder holds more than one main transcript (it opens the library, not one
 * timeline). Loose subagent logs next to a transcript (1.0.x `agent-*.jsonl`) do not count.
 */
export function isSeveralSessions(files: readonly { name: string; blob: Blob }[]): boolean {
  // An OpenCode database holds sessions: listed, each a row.
  if (files.some((f) => isOpenCodeDatabaseName(f.name) && !f.name.includes('#'))) return true;
  if (!files.some((f) => f.name.includes('/'))) return false;
  const groups = groupSessionFiles(
    files.map((f) => ({ path: f.name, sizeBytes: f.blob.size, modifiedMs: 0 })),
  );
  return groups.filter((g) => !loadsAfterMain(g.key)).length > 1;
}

export function fromDrop(files: readonly { name: string; blob: Blob }[]): FolderFile[] {
  return files.map((f) => ({
    path: f.name,
    sizeBytes: f.blob.size,
    modifiedMs: f.blob instanceof File ? f.blob.lastModified : 0,
    file: f.blob instanceof File ? f.blob : new File([f.blob], f.name),
  }));
}

export function cancelScan(): void {
  for (const abort of scans.values()) abort.abort();
}

/** Each root's running scan, by root id: a newer opening of the root replaces it. */
const scans = new Map<string, AbortController>();

/** The keys of a root's listed sessions. */
const keysOf = (root: LibraryRoot) =>
  (getListing()?.sessions ?? []).filter((s) => s.root === root.id).map((s) => s.key);

/**
 * Lists a folder as one of the library's roots: cached rows at once, the others as the pool scans
 * them. The same folder opened again replaces its own listing; a folder inside a listed root adds
 * nothing (it says so); another folder is added beside the listed ones (issue 24 item 7). `show`
 * false lists it without switching to the library view (a folder reopened on its own after a reload).
 */
export async function openLibrary(
  name: string,
  opened: FolderFile[],
  handle?: FileSystemDirectoryHandle,
  show = true,
): Promise<void> {
  const listed = getListing()?.roots ?? [];
  const place = await placeRoot(
    name,
    handle,
    opened.map((f) => f.path),
    listed,
    keysOf,
  );
  if (place.kind === 'inside') {
    useUiStore.setState({
      notice: { kind: 'info', text: `${name} is inside ${place.id}, which is listed already` },
    });
    if (show) useLibraryStore.getState().showView('library');
    return;
  }
  const id = place.id;
  const replaced = new Set(place.kind === 'new' ? place.replaces : []);
  for (const r of replaced) removeRoot(r);
  scans.get(id)?.abort();
  const abort = new AbortController();
  scans.set(id, abort);
  const isCurrent = () => scans.get(id) === abort;
  // Each step of a big folder's start is a task of its own (grouping, the cache lookup in chunks,
  // the first render), so none of them holds the page for 50 ms.
  await yieldToPage();
  // Under the root's id: "projects (2)/…" for a second folder named projects.
  let files = opened.map((f) => (id === name ? f : { ...f, path: toRootPath(f.path, name, id) }));
  // An OpenCode database: one file per session it holds (`opencode.db#ses_…`), grouped with its log.
  files = await listDatabaseSessions(files);
  // The names the agent lists its sessions under (Codex's session_index.jsonl): put on each row.
  const names = await readFolderNames(files);
  if (!isCurrent()) return;
  // 2.0.x subagent logs beside their session name it only inside: their heads are read (a few).
  const list = await joinSiblingSubagents(groupSessionFiles(files), (f) =>
    f.file.slice(0, SIBLING_HEAD_BYTES).text(),
  );
  await yieldToPage();
  if (!isCurrent()) return;
  const stamps = new Map(list.map((g) => [g.key, getGroupStamp(g)]));
  await yieldToPage();
  const cached = await getCachedRows([...stamps.values()], yieldToPage);
  await yieldToPage();
  if (!isCurrent()) return;
  for (const key of groups.keys()) if (groupRoots.get(key) === id) groups.delete(key);
  forgetFolderHandles(id);
  for (const [path, dir] of (handle && walkedDirs.get(handle)) ?? [])
    folderHandles.set(toRootPath(path, name, id), dir);
  for (const g of list) {
    groups.set(g.key, g);
    groupRoots.set(g.key, id);
  }
  setRootNames(id, [...names.values()]);
  const sessions: LibrarySession[] = list.map((g) => {
    const row = nameListedRow(id, g.key, cached.get(stamps.get(g.key)!));
    return {
      key: g.key,
      root: id,
      sizeBytes: shownSizeOf(g),
      fileCount: g.files.length,
      row,
      fromCache: row !== undefined,
    };
  });
  const jobs = list.filter((g) => !cached.has(stamps.get(g.key)!));
  const totalBytes = jobs.reduce((s, g) => s + sizeOf(g), 0);
  const progress = { bytesRead: 0, totalBytes, sessionsDone: 0, sessionsTotal: jobs.length };
  // With its scan's progress: the list never shows as done while its scan is about to start.
  const before = getListing();
  const roots = before?.roots.filter((r) => !replaced.has(r.id)) ?? [];
  const at = roots.findIndex((r) => r.id === id);
  const root: LibraryRoot = {
    id,
    name,
    filesOpen: true,
    handle,
    listedAtMs: roots[at]?.listedAtMs ?? Date.now(),
    scan: jobs.length > 0 ? { ...progress } : undefined,
  };
  setListing({
    roots: at >= 0 ? roots.map((r, i) => (i === at ? root : r)) : [...roots, root],
    sessions: [
      ...(before?.sessions.filter((s) => s.root !== id && !replaced.has(s.root)) ?? []),
      ...sessions,
    ],
  });
  if (show) useLibraryStore.getState().showView('library');
  await yieldToPage();
  void saveRoot({
    root: id,
    name,
    openedAtMs: root.listedAtMs,
    handle,
    names: [...names.values()],
    sessions: list.map((g) => ({
      key: g.key,
      stamp: stamps.get(g.key)!,
      files: g.files.map(({ path, sizeBytes, modifiedMs }) => ({ path, sizeBytes, modifiedMs })),
    })),
  });

  if (jobs.length === 0) {
    scans.delete(id);
    return;
  }
  const pending = new Map<string, Partial<LibrarySession>>();
  // Rows go to the cache per batch, in one transaction: a `put` per row was a transaction per row.
  let toCache: CachedRow[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  // A scan another opening of this root replaced leaves the list to the newer one (its rows still
  // go to the cache: they are keyed by the files' stamps).
  const flush = () => {
    timer = undefined;
    if (pending.size > 0 && isCurrent()) setListingRows(new Map(pending));
    pending.clear();
    void putCachedRows(toCache);
    toCache = [];
    if (isCurrent()) setListingScan(id, abort.signal.aborted ? undefined : { ...progress });
  };
  const schedule = () => {
    timer ??= setTimeout(flush, FLUSH_MS);
  };
  const done = (key: string, update: Partial<LibrarySession>) => {
    progress.sessionsDone++;
    pending.set(key, update);
    schedule();
  };
  await scanInPool(
    jobs.map((g) => ({ key: g.key, files: g.files.map((f) => ({ name: f.path, blob: f.file })) })),
    {
      signal: abort.signal,
      onRow: (key: string, row: LibraryRow) => {
        done(key, { row });
        toCache.push({ stamp: stamps.get(key)!, row });
      },
      onFailed: (key, message) => done(key, { error: message }),
      onProgress: (bytesRead) => {
        progress.bytesRead = bytesRead;
        schedule();
      },
    },
  );
  if (timer) clearTimeout(timer);
  flush();
  if (!isCurrent()) return;
  scans.delete(id);
  setListingScan(id, undefined);
}

function forgetFolderHandles(id: string): void {
  for (const path of folderHandles.keys())
    if (path === id || path.startsWith(`${id}/`)) folderHandles.delete(path);
}

/** Which root each session of `groups` came from. */
const groupRoots = new Map<string, string>();

/**
 * Takes a root out of the library: its scan stops, its sessions leave the list (what-if and the
 * search take the rest), and it is not brought back after a reload. The session open stays open.
 */
export function removeRoot(id: string): void {
  scans.get(id)?.abort();
  scans.delete(id);
  for (const [key, root] of groupRoots) {
    if (root !== id) continue;
    groups.delete(key);
    groupRoots.delete(key);
  }
  forgetFolderHandles(id);
  setRootNames(id, undefined);
  void deleteRoot(id).catch(() => undefined);
  const listing = getListing();
  if (!listing) return;
  const roots = listing.roots.filter((r) => r.id !== id);
  if (roots.length === 0) {
    // Nothing listed: the session open, or the start page.
    clearListing();
    useLibraryStore.getState().showView('session');
    return;
  }
  setListing({ roots, sessions: listing.sessions.filter((s) => s.root !== id) });
}

/**
 * Brings back every kept root's listing from the cache (after a reload); their files are not open.
 * Resolves to the roots brought back (with their handles where the browser gave them).
 */
export async function restoreRoots(): Promise<LibraryRoot[]> {
  const saved = await getSavedRoots().catch(() => []);
  if (saved.length === 0 || getListing() !== undefined) return [];
  const cached = await getCachedRows(saved.flatMap((r) => r.sessions.map((s) => s.stamp)));
  // Two records of one root id (an older version's and a newer one's): the newer wins.
  const byId = new Map(saved.map((r) => [r.root, r]));
  // The names the folder's agent listed its sessions under when it was last opened.
  for (const r of byId.values()) setRootNames(r.root, r.names);
  const roots: LibraryRoot[] = [...byId.values()].map((r) => ({
    id: r.root,
    name: r.name,
    filesOpen: false,
    handle: r.handle,
    listedAtMs: r.openedAtMs,
  }));
  setListing({
    roots,
    sessions: [...byId.values()].flatMap((r) =>
      r.sessions.map((s) => {
        const row = nameListedRow(r.root, s.key, cached.get(s.stamp));
        return {
          key: s.key,
          root: r.root,
          sizeBytes: s.files.reduce((t, f) => t + f.sizeBytes, 0),
          fileCount: s.files.length,
          row,
          fromCache: row !== undefined,
        };
      }),
    ),
  });
  useLibraryStore.getState().showView('library');
  return roots;
}

type PermissionHandle = FileSystemDirectoryHandle & {
  queryPermission?: (d: { mode: 'read' }) => Promise<PermissionState>;
  requestPermission?: (d: { mode: 'read' }) => Promise<PermissionState>;
};

/** Whether the folder can be read now, without asking (absent permission methods: yes). */
async function canReadNow(handle: FileSystemDirectoryHandle): Promise<boolean> {
  return (
    ((await (handle as PermissionHandle).queryPermission?.({ mode: 'read' })) ?? 'granted') === 'granted'
  );
}

/**
 * Reads a directory handle and lists it. Read permission is asked for where the browser no longer
 * holds it: call from a click (Chromium asks only during a user gesture). Throws with a sentence
 * when reading is refused or the folder is gone.
 */
export async function openDirectoryHandle(handle: FileSystemDirectoryHandle, show = true): Promise<void> {
  if (!(await canReadNow(handle))) {
    const state = (await (handle as PermissionHandle).requestPermission?.({ mode: 'read' })) ?? 'denied';
    if (state !== 'granted') throw new Error(`Reading ${handle.name} was not allowed`);
  }
  let files: FolderFile[];
  try {
    files = await fromDirectoryHandle(handle);
  } catch {
    throw new Error(`${handle.name} can no longer be read (moved or deleted?)`);
  }
  await openLibrary(handle.name, files, handle, show);
}

/**
 * After a reload: the restored listing's folder read again when the browser still lets the page
 * read it without asking (a permission kept "on every visit", an origin-private folder); true when
 * it did. Elsewhere the listing stays as restored, with its "Reopen" button.
 */
export async function reopenIfAllowed(handle: FileSystemDirectoryHandle): Promise<boolean> {
  try {
    if (!(await canReadNow(handle))) return false;
    // The restored listing already switched to the library; a person who left it stays away.
    await openDirectoryHandle(handle, false);
    return true;
  } catch {
    return false;
  }
}

/** `showDirectoryPicker` where the browser has it (Chromium); undefined elsewhere. */
export function getDirectoryPicker(): (() => Promise<FileSystemDirectoryHandle>) | undefined {
  const w = window as unknown as { showDirectoryPicker?: (o?: object) => Promise<FileSystemDirectoryHandle> };
  return w.showDirectoryPicker ? () => w.showDirectoryPicker!({ mode: 'read' }) : undefined;
}
