import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { create } from 'zustand';
import { appendSession } from '../load/load-session';
import { queryClient as pageQueryClient } from '../query-client';
import { setListingRows } from './library-queries';
import { type LiveReading, nextReading } from './live-reading';

// Live mode ("live" is its one word; the transcript's scrolling is "reveal", the uuid tree's choice the "branch path"): while the agent writes a session, its files (the main log, its subagent logs and
// their .meta.json) are looked at again every second; only whole lines count (a last line without
// its newline waits). When one has grown, the engine worker is given them, JSON-lines files cut at
// their last newline, and reads only the bytes past its last read of each (a new file whole;
// engine/parse/live-parse.ts): the timeline grows, and the library row and the header's forecast
// come from the grown session (no scan). When a new compaction lands, the forecasts made before it
// are scored (engine/live/forecast-score.ts, as `watch` scores them). A file that shrank or was
// replaced is parsed again whole, the bar says why, and the compactions it holds then are its
// history, never scored. A file that cannot be read keeps its last figures, said to be the last known.

/** A file of the live session besides its main file, read again on each step. */
export interface LiveFile {
  /** Its name, as the parser should see it (`<session>/subagents/agent-….jsonl`). */
  name: string;
  read(): Promise<Blob>;
}

/** Where the live file's current bytes come from. */
interface LiveSource {
  label: string;
  /** The main file's name, as the parser should see it. */
  name: string;
  read(): Promise<Blob>;
  /** Files loaded with it (subagent logs, their .meta.json), read again on each step. */
  others: LiveFile[];
  /**
   * The session's other files as they are now, where the source can list its folder: a running
   * session starts subagents, whose logs appear after it was opened. Called on each step.
   */
  discover?: () => Promise<LiveFile[]>;
  /** The library row it was opened from: the row grows with it. */
  libraryKey?: string;
}

/** The agent flushes a line at a time; a second is what a person reading along notices. */
const POLL_MS = 1_000;

interface LiveStep {
  /** Bytes the engine read and parsed (the appended bytes, or the whole file when `reparsed`). */
  readBytes: number;
  newLines: number;
  /** Time of the step, read and parse (ms). */
  ms: number;
  /** When it happened (ms since the epoch). */
  atMs: number;
  reparsed?: string;
}

const READING_KEY = ['live', 'reading'] as const;
pageQueryClient.setQueryDefaults(READING_KEY, { gcTime: Number.POSITIVE_INFINITY, structuralSharing: false });

/** Live mode's last reading; null before the first step (or after another session opened). */
export function liveReadingQuery() {
  return queryOptions<LiveReading | null>({
    queryKey: READING_KEY,
    queryFn: () => pageQueryClient.getQueryData<LiveReading | null>(READING_KEY) ?? null,
    initialData: null,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    structuralSharing: false,
  });
}

function setReading(reading: LiveReading | null): void {
  pageQueryClient.setQueryData(READING_KEY, reading);
}

/** Live mode's UI state: the source, on or off, and how the last step went. */
interface LiveState {
  source?: LiveSource;
  live: boolean;
  bytes: number;
  /** The last step that read something: bytes read and parsed, its time, why it was a whole parse. */
  step?: LiveStep;
  /** The last read that failed (the file moved, the server went away); live mode goes on. */
  error?: string;
  /** That read found no file (HTTP 404 or 410, a handle's file deleted): the bar says it is gone. */
  gone?: boolean;
  /**
   * The session's other files (subagent logs) the last step could not read, each with why: left
   * out of that step, the main file and the others followed all the same.
   */
  skipped?: string[];
  /**
   * The main file was found shorter than the last read (cut, emptied, replaced) and holds no whole
   * line yet: the session shown is still the last read's, the bar says so until a line is read.
   */
  shrank?: { fromBytes: number; toBytes: number };
}

export const useLiveStore = create<LiveState>()(() => ({ live: false, bytes: 0 }));

let timer: ReturnType<typeof setTimeout> | undefined;
let generation = 0;

/** Offers live mode for the session just opened from `source` (undefined: it cannot go live). */
export function setLiveSource(source: LiveSource | undefined): void {
  stopLive();
  useLiveStore.setState({
    source,
    live: false,
    bytes: 0,
    step: undefined,
    error: undefined,
    gone: undefined,
    skipped: undefined,
    shrank: undefined,
  });
  setReading(null);
}

export function stopLive(): void {
  generation++;
  if (timer) clearTimeout(timer);
  timer = undefined;
  useLiveStore.setState({ live: false });
}

/** The offset just past the last newline of `blob` from `from` on (undefined: none yet). */
async function getWholeLinesEnd(blob: Blob, from: number): Promise<number | undefined> {
  const tail = new Uint8Array(await blob.slice(from).arrayBuffer());
  const at = tail.lastIndexOf(0x0a);
  return at < 0 ? undefined : from + at + 1;
}

export function startLive(queryClient: QueryClient): void {
  const { source } = useLiveStore.getState();
  if (!source) return;
  stopLive();
  const mine = ++generation;
  useLiveStore.setState({ live: true });
  let cut = 0;
  /** Each other file's bytes given at the last step. */
  let otherCuts = new Map<string, number>();
  /** Each other file's bytes as given at the last step: kept for a step that cannot read it. */
  let otherBlobs = new Map<string, Blob>();
  const tick = async (): Promise<void> => {
    if (mine !== generation) return;
    try {
      const blob = await source.read();
      // A file shorter than the last read was replaced, cut or emptied: looked at from the start,
      // and the figures of what it held (the forecast, a compaction's score) are gone with it.
      if (blob.size < cut) {
        useLiveStore.setState({ bytes: 0, step: undefined, shrank: { fromBytes: cut, toBytes: blob.size } });
        cut = 0;
        otherCuts = new Map();
        otherBlobs = new Map();
        setReading(null);
      }
      // Readable again: the figures shown are current again.
      if (useLiveStore.getState().error !== undefined)
        useLiveStore.setState({ error: undefined, gone: undefined });
      const end = blob.size > cut ? await getWholeLinesEnd(blob, cut) : undefined;
      const files = source.discover ? await source.discover() : source.others;
      // One file that cannot be read (a subagent log's URL answering 404) is said and left out,
      // or, read before, kept as it was last read: the main file and the others go on.
      const reads = await Promise.allSettled(files.map((f) => f.read()));
      const others: { name: string; blob: Blob }[] = [];
      const skipped: string[] = [];
      for (const [i, r] of reads.entries()) {
        const name = files[i]!.name;
        const last = otherBlobs.get(name);
        if (r.status === 'fulfilled') others.push({ name, blob: r.value });
        else {
          skipped.push(r.reason instanceof Error ? r.reason.message : String(r.reason));
          if (last) others.push({ name, blob: last });
        }
      }
      if (mine !== generation) return;
      if (String(useLiveStore.getState().skipped ?? []) !== String(skipped))
        useLiveStore.setState({ skipped: skipped.length > 0 ? skipped : undefined });
      const nextCuts = new Map<string, number>();
      let othersChanged = false;
      for (const f of others) {
        const before = otherCuts.get(f.name);
        let size = f.blob.size;
        if (f.name.endsWith('.jsonl')) {
          const from = before === undefined || size < before ? 0 : before;
          size = (size > from ? await getWholeLinesEnd(f.blob, from) : undefined) ?? from;
        }
        if (size !== before) othersChanged = true;
        nextCuts.set(f.name, size);
      }
      if ((end !== undefined || othersChanged) && mine === generation) {
        const mainEnd = end ?? cut;
        const started = performance.now();
        const given = others.map((f) => ({ name: f.name, blob: f.blob.slice(0, nextCuts.get(f.name)) }));
        const step = await appendSession(
          queryClient,
          source.label,
          { name: source.name, blob: blob.slice(0, mainEnd) },
          given,
        );
        if (!step || mine !== generation) return;
        cut = mainEnd;
        otherCuts = nextCuts;
        otherBlobs = new Map(given.map((f) => [f.name, f.blob]));
        const row = step.row;
        const before = pageQueryClient.getQueryData<LiveReading | null>(READING_KEY);
        const update: Partial<LiveState> = {
          bytes: mainEnd,
          step: {
            readBytes: step.readBytes,
            newLines: step.newLines,
            ms: performance.now() - started,
            atMs: Date.now(),
            reparsed: step.reparsed,
          },
          error: undefined,
          gone: undefined,
          shrank: undefined,
        };
        if (source.libraryKey !== undefined) {
          let sizeBytes = mainEnd;
          for (const size of nextCuts.values()) sizeBytes += size;
          setListingRows(new Map([[source.libraryKey, { row, sizeBytes }]]));
        }
        setReading(nextReading(before ?? undefined, row, step.autoCompactTokens, step.restarted === true));
        useLiveStore.setState(update);
      }
    } catch (error) {
      // The file cannot be read (404, the server gone): its last figures stay, the bar says they
      // are the last known (the header's still are the last read's), and why.
      // Never read (a `?follow=` link's server not answering), no session is shown: the start
      // page shows the bar (app.tsx).
      useLiveStore.setState({
        error: error instanceof Error ? error.message : String(error),
        gone: error instanceof LiveFileGoneError,
      });
    } finally {
      if (mine === generation) timer = setTimeout(() => void tick(), POLL_MS);
    }
  };
  void tick();
}

/** No file where live mode reads (HTTP 404 or 410; a handle whose file was deleted). */
class LiveFileGoneError extends Error {}

/** A URL's bytes as they are now. */
async function fetchNow(url: string): Promise<Blob> {
  let response: Response;
  try {
    response = await fetch(url, { cache: 'no-store' });
  } catch (error) {
    // fetch says only "Failed to fetch": no server there, or one of another origin that does not
    // let this page read its answer (CORS: a plain `python3 -m http.server` on another port).
    const otherOrigin = new URL(url, location.href).origin !== location.origin;
    throw new Error(
      `${url}: no answer the page may read (${(error as Error)?.message ?? String(error)}): ${
        otherOrigin
          ? `is its server running, and does it send Access-Control-Allow-Origin: ${location.origin} (or *)?`
          : 'is the server running?'
      }`,
    );
  }
  if (response.status === 404 || response.status === 410)
    throw new LiveFileGoneError(`${url}: HTTP ${response.status}`);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.blob();
}

/**
 * A source over URLs read again each time (`?follow=<url>`, repeated for a subagent log: files
 * another program appends to). The first is the main file; the others are named by their path
 * from its folder (`<session>/subagents/agent-….jsonl`, as the parser recognises them).
 */
export function createUrlLiveSource(urls: readonly string[]): LiveSource {
  const [main = '', ...rest] = urls;
  const path = (url: string) => decodeURIComponent(new URL(url, location.href).pathname);
  const mainPath = path(main);
  const folder = mainPath.slice(0, mainPath.lastIndexOf('/') + 1);
  const name = mainPath.split('/').pop() || 'followed.jsonl';
  return {
    label: name,
    name,
    others: rest.map((url) => {
      const p = path(url);
      return { name: p.startsWith(folder) ? p.slice(folder.length) : p, read: () => fetchNow(url) };
    }),
    read: () => fetchNow(main),
  };
}

/** A source over a File System Access handle: `getFile()` is a fresh snapshot each time. */
export function createHandleLiveSource(
  handle: FileSystemFileHandle,
  path: string,
  others: LiveFile[],
  libraryKey?: string,
  discover?: () => Promise<LiveFile[]>,
): LiveSource {
  return {
    label: path.split('/').pop() ?? path,
    name: path,
    others,
    discover,
    libraryKey,
    read: async () => {
      try {
        return await handle.getFile();
      } catch (error) {
        // A deleted file's handle answers NotFoundError (File System Access API, getFile()).
        if ((error as DOMException)?.name === 'NotFoundError')
          throw new LiveFileGoneError(`${path}: the file is not there`);
        throw error;
      }
    },
  };
}
