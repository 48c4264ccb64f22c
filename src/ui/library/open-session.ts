import type { QueryClient } from '@tanstack/react-query';
import { loadSession } from '../load/load-session';
import { createHandleFollowSource, setFollowSource } from './follow';
import { useLibraryStore } from './library-store';
import { getSessionFiles } from './open-folder';

/** Opens a listed session with its subagent files through the usual load path. */
export async function openLibrarySession(queryClient: QueryClient, key: string): Promise<void> {
  const files = getSessionFiles(key);
  if (!files) return;
  const loadFiles = files.map((f) => ({ name: f.path, blob: f.file as Blob }));
  const [main, ...others] = files;
  // Each step reads the files again: through their handles where the folder gave them.
  const followed = others.map((f) => ({
    name: f.path,
    read: async (): Promise<Blob> => (f.handle ? f.handle.getFile() : f.file),
  }));
  const live = main?.handle !== undefined;
  setFollowSource(live ? createHandleFollowSource(main.handle!, main.path, followed, key) : undefined);
  useLibraryStore.getState().showView('session');
  // A session that can be followed keeps, in the worker, what live mode reads on from.
  await loadSession(queryClient, key.split('/').pop() ?? key, async () => loadFiles, { live });
}
