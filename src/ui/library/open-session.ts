import type { QueryClient } from '@tanstack/react-query';
import type { LoadFile } from '../../worker/protocol';
import { loadSession } from '../load/load-session';
import { createHandleFollowSource, setFollowSource } from './follow';
import { useLibraryStore } from './library-store';
import { type FolderFile, getSessionFiles } from './open-folder';

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
  // The session followed before is not this one; this one's source comes with its fresh files.
  setFollowSource(undefined);
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
      if (live) setFollowSource(createHandleFollowSource(main!.handle!, main!.path, followed, key));
      return loadFiles;
    },
    { live },
  );
}

async function readNow(f: FolderFile): Promise<LoadFile> {
  return { name: f.path, blob: f.handle ? await f.handle.getFile() : f.file };
}
