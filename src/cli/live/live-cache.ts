import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
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
const CACHE_VERSION = 5;

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

/** What a budgeted read got: the figures so far and how much of the file they cover. */
interface LiveRead {
  figures: LiveFigures;
  /** Bytes read (up to the last complete line) and the file's size when the read began. */
  readBytes: number;
  sizeBytes: number;
  /** No file at the path (a new session before its first exchange, or a wrong path). */
  missing?: true;
}

/**
 * The figures of a transcript, reading only what was appended since the cached call, and no
 * further than `deadline` (a `performance.now()` time): a read cut short is cached where it
 * stopped, so the next call goes on from there and a huge file is read over a few calls.
 */
export async function readLiveFiguresCached(transcriptPath: string, deadline = Infinity): Promise<LiveRead> {
  // Never a wait: a path that is not a regular file (a FIFO would block the open) reads nothing.
  try {
    if (!(await stat(transcriptPath)).isFile())
      return { figures: createLiveFigures(), readBytes: 0, sizeBytes: 0 };
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT' ? { missing: true as const } : {};
    return { figures: createLiveFigures(), readBytes: 0, sizeBytes: 0, ...missing };
  }
  const cached = loadCache(transcriptPath);
  let figures = cached?.figures ?? createLiveFigures();
  const source = createGrowingFileSource(transcriptPath);
  try {
    const { state, pendingBytes } = await readAppendedLines(
      source,
      cached?.reader ?? INITIAL_READER_STATE,
      (text, line) => addLiveLine(figures, text, line),
      () => {
        figures = createLiveFigures();
      },
      () => performance.now() >= deadline,
    );
    saveCache({ v: CACHE_VERSION, path: transcriptPath, reader: state, figures });
    return { figures, readBytes: state.offsetBytes, sizeBytes: state.offsetBytes + pendingBytes };
  } finally {
    source.close();
  }
}
