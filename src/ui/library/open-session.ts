import type { QueryClient } from '@tanstack/react-query';
import type { LoadFile } from '../../worker/protocol';
import { loadSession } from '../load/load-session';
import { createHandleLiveSource, type LiveFile, setLiveSource } from './live';
import { useLibraryStore } from './library-store';
import { type FolderFile, getFolderHandle, getSessionFiles, listFolderFiles } from './open-folder';

/**
 * Opens a listed session with its subagent files through the usual load path. Files from a
 * directory handle are read through it again: the `File` taken when the folder was listed is a
 * snapshot, and a session its agent is still writing has grown since (the e2e test saw 28 of 40
 * calls).
 */
export async function openLibrarySession(queryClient: QueryClient, key: string): Promise<void> {
  const files = getSessionFiles(key);
  if (!files) return;
  const [main, ...others] = files;
  // The live session before is not this one; this one's source comes with its fresh files.
  setLiveSource(undefined);
  useLibraryStore.getState().showView('session');
  // Each step reads the files again: through their handles where the folder gave them.
  const followed = others.map((f) => ({
    name: f.path,
    read: async (): Promise<Blob> => (f.handle ? f.handle.getFile() : f.file),
  }));
  const live = main?.handle !== undefined;
  // A session that can be followed keeps, in the worker, what live mode reads on from.
  await loadSession(
    queryClient,
    key.split('/').pop() ?? key,
    async () => {
      const loadFiles = await Promise.all(files.map(readNow));
      if (live)
        setLiveSource(
          createHandleLiveSource(
            main!.handle!,
            main!.path,
            followed,
            key,
            discoverSessionFiles(main!.path, followed),
          ),
        );
      return loadFiles;
    },
    { live },
  );
}

async function readNow(f: FolderFile): Promise<LoadFile> {
  return { name: f.path, blob: f.handle ? await f.handle.getFile() : f.file };
}

/**
 * A Claude Code session's files as they are now: those it was opened with and whatever is under
 * its `<id>/` folder beside the transcript (docs/sources.md#fmt-subagents: `subagents/agent-*.jsonl` and their
 * `.meta.json`), which a running session creates as it starts subagents. Listed through the
 * picked folder's directory handle; undefined where the folder came without one.
 */
function discoverSessionFiles(mainPath: string, known: LiveFile[]): (() => Promise<LiveFile[]>) | undefined {
  const cut = mainPath.lastIndexOf('/');
  const project = cut > 0 ? getFolderHandle(mainPath.slice(0, cut)) : undefined;
  if (!project || !/\.jsonl$/i.test(mainPath)) return undefined;
  const id = mainPath.slice(cut + 1, -'.jsonl'.length);
  const folderPath = `${mainPath.slice(0, cut)}/${id}`;
  return async () => {
    let folder: FileSystemDirectoryHandle;
    try {
      folder = await project.getDirectoryHandle(id);
    } catch {
      return known; // no `<id>/` folder (yet)
    }
    const found = await listFolderFiles(folder, folderPath);
    const names = new Set(known.map((f) => f.name));
    const added = found
      .filter((f) => !names.has(f.path))
      .map((f) => ({ name: f.path, read: async (): Promise<Blob> => f.handle.getFile() }));
    return added.length === 0 ? known : [...known, ...added];
  };
}
