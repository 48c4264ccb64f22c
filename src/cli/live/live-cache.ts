import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  INITIAL_READER_STATE,
  type IncrementalReaderState,
  readAppendedLines,
} from '../../engine/parse/incremental-reader';
import { addLiveLine, createLiveFigures, type LiveFigures } from '../../engine/live/live-figures';
import { createGrowingFileSource } from './growing-file';

// The status line runs as a new process on every update: what it read of a transcript is kept in
// a small JSON file in the temp folder, keyed by a hash of the transcript's path. It holds the
// reader's offset and the running figures (counts, version, model id), never transcript text.

/** Bump when the cached shape changes: an old cache is then read again from the start. */
const CACHE_VERSION = 2;

interface CacheFile {
  v: number;
  path: string;
  reader: IncrementalReaderState;
  figures: LiveFigures;
}

function getLiveCacheDir(): string {
  return process.env.COMPACTLAB_CACHE_DIR ?? join(tmpdir(), 'compactlab-statusline');
}

function cachePathOf(transcriptPath: string): string {
  const key = createHash('sha256').update(transcriptPath).digest('hex').slice(0, 32);
  return join(getLiveCacheDir(), `${key}.json`);
}

function loadCache(transcriptPath: string): CacheFile | undefined {
  try {
    const c = JSON.parse(readFileSync(cachePathOf(transcriptPath), 'utf8')) as CacheFile;
    return c.v === CACHE_VERSION && c.path === transcriptPath ? c : undefined;
  } catch {
    return undefined;
  }
}

function saveCache(c: CacheFile): void {
  try {
    mkdirSync(getLiveCacheDir(), { recursive: true, mode: 0o700 });
    const path = cachePathOf(c.path);
    // Write then rename: two status lines at once never leave a half-written cache.
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(c), { mode: 0o600 });
    renameSync(tmp, path);
  } catch {
    // A cache that cannot be written costs speed, not correctness.
  }
}

/** The figures of a transcript, reading only what was appended since the cached call. */
export async function readLiveFiguresCached(transcriptPath: string): Promise<LiveFigures> {
  // Never a wait: a path that is not a regular file (a FIFO would block the open) reads nothing.
  try {
    if (!statSync(transcriptPath).isFile()) return createLiveFigures();
  } catch {
    return createLiveFigures();
  }
  const cached = loadCache(transcriptPath);
  let figures = cached?.figures ?? createLiveFigures();
  const source = createGrowingFileSource(transcriptPath);
  try {
    const { state } = await readAppendedLines(
      source,
      cached?.reader ?? INITIAL_READER_STATE,
      (text, line) => addLiveLine(figures, text, line),
      () => {
        figures = createLiveFigures();
      },
    );
    saveCache({ v: CACHE_VERSION, path: transcriptPath, reader: state, figures });
    return figures;
  } finally {
    source.close();
  }
}
