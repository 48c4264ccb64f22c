// The library's search across sessions: each listed session's files streamed in turn through the
// engine's text search (engine/query/text-search.ts, the code of `compactlab search`), one session
// at a time, so no more than a chunk of one file is held. A session that holds the query goes back
// as progress at once (the page lists it as it comes); bytes read go back during a big one.

import { searchSessionText } from '../engine/query/text-search';
import { createBlobSource } from './blob-source';
import type { EngineHandlers } from './engine-host';
import type { LibrarySearchProgress } from './protocol';
import { expandDatabases } from './sqlite';

/** Lets the worker take its messages (a cancel) between two sessions. */
const yieldToEventLoop = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
/** Least time between two byte-progress messages within a session (ms). */
const PROGRESS_MS = 100;

export const SEARCH_HANDLERS: Pick<EngineHandlers, 'library-search'> = {
  'library-search': async (request, { signal, onProgress }) => {
    const t0 = performance.now();
    const { sessions, query } = request;
    const totalBytes = sessions.reduce((s, x) => s + x.files.reduce((t, f) => t + f.blob.size, 0), 0);
    let doneBytes = 0;
    let matched = 0;
    let lastSent = 0;
    for (const [i, s] of sessions.entries()) {
      await yieldToEventLoop();
      signal.throwIfAborted();
      const progress: LibrarySearchProgress = {
        done: i + 1,
        total: sessions.length,
        bytesRead: 0,
        totalBytes,
      };
      try {
        const sources = await expandDatabases(s.files.map((f) => createBlobSource(f.name, f.blob)));
        const matches = await searchSessionText(sources, query, {
          signal,
          onProgress: (read) => {
            const now = performance.now();
            if (now - lastSent < PROGRESS_MS) return;
            lastSent = now;
            onProgress({ done: i, total: sessions.length, bytesRead: doneBytes + read, totalBytes });
          },
        });
        if (matches.matches > 0) {
          matched++;
          progress.hit = { file: s.file, matches };
        }
      } catch (e) {
        signal.throwIfAborted();
        progress.hit = { file: s.file, error: e instanceof Error ? e.message : String(e) };
      }
      doneBytes += s.files.reduce((t, f) => t + f.blob.size, 0);
      progress.bytesRead = doneBytes;
      onProgress(progress);
    }
    return { result: { searched: sessions.length, matched, computeMs: performance.now() - t0 } };
  },
};
