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
  const [main] = files;
  setFollowSource(
    main?.handle ? createHandleFollowSource(main.handle, main.path, loadFiles.slice(1), key) : undefined,
  );
  useLibraryStore.getState().showView('session');
  await loadSession(queryClient, key.split('/').pop() ?? key, async () => loadFiles);
}
