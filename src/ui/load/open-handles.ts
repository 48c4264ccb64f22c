import type { QueryClient } from '@tanstack/react-query';
import type { LoadFile } from '../../worker/protocol';
import { isOpenCodeDatabaseName } from '../../engine/parse/dialects/opencode/database-name';
import { createHandleLiveSource, setLiveSource } from '../library/live';
import { fromDrop, openLibrary } from '../library/open-folder';
import { describeFiles, loadSession, sortSessionFiles } from './load-session';
import { readFileHandles, type RecentFile, rememberRecentFiles } from './recent-files';

// Files opened through File System Access handles: picked with "Open files…" where the browser
// has `showOpenFilePicker` (Chromium), or reopened from the start page's recent files. They load
// as the file input's do (one session: the main file, then its subagent files), picked ones are
// kept in recent files as dropped ones are, and a single file can be followed: live mode reads it
// again through its handle, as it reads the library's sessions (library/live.ts).

/**
 * The picker's options (WICG File System Access, `showOpenFilePicker`): several files at once,
 * transcripts offered first; its "All files" choice stays (`excludeAcceptAllOption` unset): the
 * file input also takes .txt, and a log saved under another name is still detected by its
 * structure (engine/parse/detect.ts). `id` lets the browser open the next pick where the last one was.
 */
const PICKER_OPTIONS = {
  id: 'transcripts',
  multiple: true,
  types: [
    {
      description: 'Transcripts',
      accept: { 'application/x-ndjson': ['.jsonl'], 'application/json': ['.json'] },
    },
  ],
};

type ShowOpenFilePicker = (options: typeof PICKER_OPTIONS) => Promise<FileSystemFileHandle[]>;

/** `showOpenFilePicker` where the browser has it (Chromium); undefined elsewhere. */
export function getFilePicker(): (() => Promise<FileSystemFileHandle[]>) | undefined {
  const w = window as unknown as { showOpenFilePicker?: ShowOpenFilePicker };
  return w.showOpenFilePicker ? () => w.showOpenFilePicker!(PICKER_OPTIONS) : undefined;
}

/**
 * Opens files through their handles as one session; resolves to the files read, undefined when
 * the load failed or was cancelled (the notice says so). Call from a click: read permission is
 * asked for where the browser no longer holds it. A single file is offered to live mode.
 */
export async function openHandleFiles(
  queryClient: QueryClient,
  label: string,
  files: RecentFile['files'],
): Promise<LoadFile[] | undefined> {
  // The live session before is not this one.
  setLiveSource(undefined);
  const single = files.length === 1 ? files[0] : undefined;
  let read: LoadFile[] = [];
  const loaded = await loadSession(
    queryClient,
    label,
    async () => {
      read = await readFileHandles(files);
      return read;
    },
    // One file costs live mode nothing beyond a plain parse (engine/parse/live-parse.ts
    // `parseForLive`); several would keep their parsed lines, so they are not offered.
    { live: single !== undefined, show: true },
  );
  if (!loaded) return undefined;
  if (single) setLiveSource(createHandleLiveSource(single.handle, single.name, []));
  return read;
}

/** Opens picked files as one session (main file first) and keeps them in recent files once shown. */
export async function openPickedFiles(
  queryClient: QueryClient,
  handles: FileSystemFileHandle[],
): Promise<void> {
  if (handles.length === 0) return;
  // An OpenCode database holds several sessions: the library lists them.
  if (handles.some((h) => isOpenCodeDatabaseName(h.name))) {
    const picked = await Promise.all(handles.map(async (h) => ({ name: h.name, blob: await h.getFile() })));
    await openLibrary(handles[0]!.name, fromDrop(picked));
    return;
  }
  const files = sortSessionFiles(handles.map((handle) => ({ name: handle.name, handle })));
  const label = describeFiles(files);
  const read = await openHandleFiles(queryClient, label, files);
  if (read) await rememberRecentFiles(label, files, read[0]?.blob.size ?? 0);
}
