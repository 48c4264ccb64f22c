/// <reference lib="webworker" />
// Thin: turns protocol messages into engine calls. Holds the one loaded session and its sources.

import { parseSession, readEntryText } from '../engine/parse/parse-session';
import type { ByteSource } from '../engine/parse/source';
import { getCompactionDetail } from '../engine/query/compaction-detail';
import { getEntryDetail } from '../engine/query/entry-detail';
import { computeFullTextMatches, type FullTextProgress } from '../engine/query/full-text-search';
import { formatRawJson } from '../engine/query/raw-json';
import { getRowFilterKey, type RowFilter } from '../engine/query/row-filter';
import { computeRowIndex } from '../engine/query/row-index';
import { getRowPage } from '../engine/query/row-page';
import { getSessionSummary } from '../engine/query/session-summary';
import { followBranch } from '../engine/parse/branches';
import { computeTimelineSeries, getTimelineTransferables } from '../engine/query/timeline-series';
import { computeTokenTable, getTokenTableTransferables } from '../engine/query/token-table';
import { handleSummariesOp } from '../engine/summarize/session-ops';
import type { Session } from '../engine/types';
import { createBlobSource } from './blob-source';
import { handleReplayOp } from './replay-handlers';
import {
  ABORT_ERROR,
  type EngineRequest,
  type EngineResults,
  type FromWorker,
  STALE_SESSION_ERROR,
  type ToWorker,
} from './protocol';

declare const self: DedicatedWorkerGlobalScope;

interface Loaded {
  sessionId: number;
  session: Session;
  sources: ByteSource[];
  /** Row indices of recent filters, by filter key (a few; each is 4 bytes per entry). */
  rowIndexCache: Map<string, Int32Array>;
  /** Full-text matches of recent queries, by lower-cased query (1 byte per entry each). */
  fullTextCache: Map<string, Uint8Array>;
}

const ROW_INDEX_CACHE_SIZE = 6;
const FULL_TEXT_CACHE_SIZE = 4;

let loaded: Loaded | undefined;
const controllers = new Map<number, AbortController>();

type Reply<K extends keyof EngineResults> = { result: EngineResults[K]; transfer?: Transferable[] };

function getLoaded(sessionId: number): Loaded {
  if (!loaded || loaded.sessionId !== sessionId) {
    const error = new Error(`Session ${sessionId} is not loaded (current: ${loaded?.sessionId ?? 'none'})`);
    error.name = STALE_SESSION_ERROR;
    throw error;
  }
  return loaded;
}

/** Puts `value` last (most recently used), dropping the oldest entry beyond `size`. */
function setRecent<V>(cache: Map<string, V>, key: string, value: V, size: number): void {
  cache.delete(key);
  if (cache.size >= size) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  cache.set(key, value);
}

async function getFullTextMatches(
  state: Loaded,
  search: string,
  signal: AbortSignal,
  onProgress: (progress: FullTextProgress) => void,
): Promise<Uint8Array> {
  const key = search.trim().toLowerCase();
  let matches = state.fullTextCache.get(key);
  if (!matches) {
    matches = await computeFullTextMatches(state.session, state.sources, key, { signal, onProgress });
    signal.throwIfAborted();
  }
  setRecent(state.fullTextCache, key, matches, FULL_TEXT_CACHE_SIZE);
  return matches;
}

async function getRowIndex(
  state: Loaded,
  filter: RowFilter,
  signal: AbortSignal,
  onProgress: (progress: FullTextProgress) => void = () => {},
): Promise<Int32Array> {
  const key = getRowFilterKey(filter);
  let indices = state.rowIndexCache.get(key);
  if (!indices) {
    const fullText =
      filter.fullText && filter.search.trim() !== ''
        ? await getFullTextMatches(state, filter.search, signal, onProgress)
        : undefined;
    indices = computeRowIndex(state.session, filter, fullText);
  }
  setRecent(state.rowIndexCache, key, indices, ROW_INDEX_CACHE_SIZE);
  return indices;
}

async function handle(
  id: number,
  request: EngineRequest,
  signal: AbortSignal,
): Promise<Reply<keyof EngineResults>> {
  switch (request.kind) {
    case 'load': {
      const sources = request.files.map((f) => createBlobSource(f.name, f.blob));
      const session = await parseSession(sources, {
        signal,
        onProgress: (progress) => post({ type: 'progress', id, progress }),
      });
      signal.throwIfAborted();
      loaded = {
        sessionId: request.sessionId,
        session,
        sources,
        rowIndexCache: new Map(),
        fullTextCache: new Map(),
      };
      return { result: getSessionSummary(session) };
    }
    case 'row-index': {
      const state = getLoaded(request.sessionId);
      const rows = await getRowIndex(state, request.filter, signal, (progress) =>
        post({ type: 'progress', id, progress }),
      );
      const indices = rows.slice();
      return { result: { indices }, transfer: [indices.buffer] };
    }
    case 'row-page': {
      const state = getLoaded(request.sessionId);
      return {
        result: getRowPage(
          state.session,
          await getRowIndex(state, request.filter, signal),
          request.start,
          request.count,
        ),
      };
    }
    case 'entry-detail':
      return { result: getEntryDetail(getLoaded(request.sessionId).session, request.entryIndex) };
    case 'raw-entry': {
      const state = getLoaded(request.sessionId);
      const raw = await readEntryText(state.sources, state.session, request.entryIndex);
      const formatted = formatRawJson(raw);
      return {
        result: { ...formatted, lengthBytes: state.session.entries[request.entryIndex]?.lengthBytes ?? 0 },
      };
    }
    case 'compaction-detail': {
      const state = getLoaded(request.sessionId);
      const summaryIndex = state.session.compactions[request.compactionIndex]?.summaryEntryIndex;
      const raw =
        summaryIndex === undefined
          ? undefined
          : await readEntryText(state.sources, state.session, summaryIndex);
      return { result: getCompactionDetail(state.session, request.compactionIndex, raw) };
    }
    case 'timeline': {
      const series = computeTimelineSeries(
        followBranch(getLoaded(request.sessionId).session, request.branchId ?? 0),
      );
      return { result: series, transfer: getTimelineTransferables(series) };
    }
    case 'token-table': {
      const table = computeTokenTable(getLoaded(request.sessionId).session);
      return { result: table, transfer: getTokenTableTransferables(table) };
    }
    case 'issues': {
      const { session } = getLoaded(request.sessionId);
      return {
        result: {
          issues: session.issues,
          unknownTypes: session.unknownTypes,
          fileNames: session.files.map((f) => f.name),
        },
      };
    }
    case 'summaries': {
      const state = getLoaded(request.sessionId);
      return { result: await handleSummariesOp(state.session, state.sources, request.request, signal) };
    }
    case 'replay': {
      const state = getLoaded(request.sessionId);
      return handleReplayOp(state.session, state.sources, request.request, signal, (progress) =>
        post({ type: 'progress', id, progress }),
      );
    }
  }
}

function post(message: FromWorker, transfer: Transferable[] = []) {
  self.postMessage(message, transfer);
}

function toWorkerError(error: unknown, signal: AbortSignal) {
  if (signal.aborted) return { name: ABORT_ERROR, message: 'Cancelled' };
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}

self.onmessage = (event: MessageEvent<ToWorker>) => {
  const message = event.data;
  if (message.type === 'cancel') {
    controllers.get(message.id)?.abort();
    return;
  }
  const { id, request } = message;
  const controller = new AbortController();
  controllers.set(id, controller);
  handle(id, request, controller.signal)
    .then(
      ({ result, transfer }) => post({ type: 'result', id, result }, transfer),
      (error: unknown) => post({ type: 'error', id, error: toWorkerError(error, controller.signal) }),
    )
    .finally(() => controllers.delete(id));
};
