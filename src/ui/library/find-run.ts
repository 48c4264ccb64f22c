import type { QueryClient } from '@tanstack/react-query';
import { create } from 'zustand';
import { ALL_FILTER_KINDS } from '../../engine/query/entry-kinds';
import type { RowFilter } from '../../engine/query/row-filter';
import type { SessionTextMatches } from '../../engine/query/text-search';
import { getEngineClient } from '../../worker/engine-client';
import { ABORT_ERROR, type WhatIfSession } from '../../worker/protocol';
import { ROW_PAGE_SIZE, rowIndexQuery, rowPageQuery, sessionOverviewQuery } from '../queries';
import { useUiStore } from '../store';
import { getSessionFiles } from './open-folder';
import { openLibrarySession } from './open-session';

// The library's search across sessions (issue 24 item 9): the listed sessions sent to the engine
// worker (`library-search`: engine/query/text-search.ts, the code of `compactlab search`), the
// sessions that hold the text listed as they come, a cancel that stops the worker's loop; a hit
// opens its session with the transcript's own full-text search on the same text, at the hit.

export interface FindHit {
  key: string;
  matches: SessionTextMatches;
}

interface FindState {
  status: 'idle' | 'running' | 'done' | 'cancelled' | 'failed';
  /** The text searched for (trimmed). */
  query: string;
  done: number;
  total: number;
  bytesRead: number;
  totalBytes: number;
  hits: FindHit[];
  /** Sessions that could not be read, with why. */
  failed: { key: string; error: string }[];
  error?: string;
}

const IDLE: FindState = {
  status: 'idle',
  query: '',
  done: 0,
  total: 0,
  bytesRead: 0,
  totalBytes: 0,
  hits: [],
  failed: [],
};

export const useFindStore = create<FindState>()(() => IDLE);

let running: AbortController | undefined;
/** Least time between two renders of a search's progress (ms). */
const FLUSH_MS = 100;

function toSessions(keys: readonly string[]): WhatIfSession[] {
  return keys.flatMap((key) => {
    const files = getSessionFiles(key);
    return files ? [{ file: key, files: files.map((f) => ({ name: f.path, blob: f.file })) }] : [];
  });
}

/** Searches the sessions of `keys` for `text`; a search already going is cancelled first. */
export async function runFind(keys: readonly string[], text: string): Promise<void> {
  running?.abort();
  const query = text.trim();
  if (query === '') return;
  const controller = new AbortController();
  running = controller;
  const sessions = toSessions(keys);
  const hits: FindHit[] = [];
  const failed: FindState['failed'] = [];
  let latest: Pick<FindState, 'done' | 'total' | 'bytesRead' | 'totalBytes'> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    timer = undefined;
    if (latest && running === controller)
      useFindStore.setState({ ...latest, hits: [...hits], failed: [...failed] });
  };
  useFindStore.setState({ ...IDLE, status: 'running', query, total: sessions.length });
  try {
    await getEngineClient().request(
      { kind: 'library-search', sessions, query },
      {
        signal: controller.signal,
        onProgress: (p) => {
          if (running !== controller) return;
          if (p.hit?.error !== undefined) failed.push({ key: p.hit.file, error: p.hit.error });
          else if (p.hit) hits.push({ key: p.hit.file, matches: p.hit.matches });
          latest = { done: p.done, total: p.total, bytesRead: p.bytesRead, totalBytes: p.totalBytes };
          timer ??= setTimeout(flush, FLUSH_MS);
        },
      },
    );
    if (timer !== undefined) clearTimeout(timer);
    flush();
    if (running === controller) useFindStore.setState({ status: 'done' });
  } catch (error) {
    if (running !== controller) return;
    if (timer !== undefined) clearTimeout(timer);
    flush();
    const e = error instanceof Error ? error : new Error(String(error));
    useFindStore.setState(
      e.name === ABORT_ERROR ? { status: 'cancelled' } : { status: 'failed', error: e.message },
    );
  } finally {
    if (running === controller) running = undefined;
  }
}

/** Stops the search at its next session or chunk; the sessions found so far stay listed. */
export function cancelFind(): void {
  running?.abort();
}

/** Row pages looked through for the hit's own row (beyond them, the first match is selected). */
const MAX_PAGES = 20;

/**
 * Opens a found session with the transcript searching its whole lines for the text (every kind of
 * entry shown), and selects the row of the first hit (its file and line), else the first match.
 */
export async function openAtHit(queryClient: QueryClient, hit: FindHit, query: string): Promise<void> {
  // Its folder was taken out of the list since: nothing to open.
  if (!getSessionFiles(hit.key)) return;
  await openLibrarySession(queryClient, hit.key);
  const ui = useUiStore.getState();
  const sessionId = ui.currentSessionId;
  if (sessionId === undefined || ui.currentLabel === undefined) return;
  ui.setFilterKinds([...ALL_FILTER_KINDS]);
  ui.setSearch(query);
  ui.setFullText(true);
  const filter: RowFilter = { kinds: [...ALL_FILTER_KINDS], search: query, fullText: true };
  try {
    const { indices } = await queryClient.fetchQuery(rowIndexQuery(sessionId, filter));
    if (useUiStore.getState().currentSessionId !== sessionId || indices.length === 0) return;
    const first = hit.matches.first;
    const overview = queryClient.getQueryData(sessionOverviewQuery(sessionId).queryKey);
    const fileIndex = first && overview?.files.find((f) => f.name === first.file)?.index;
    let entry = indices[0];
    const pages = Math.min(MAX_PAGES, Math.ceil(indices.length / ROW_PAGE_SIZE));
    for (let p = 0; fileIndex !== undefined && p < pages; p++) {
      const rows = await queryClient.fetchQuery(rowPageQuery(sessionId, filter, p));
      const row = rows.find((r) => r.fileIndex === fileIndex && r.line === first!.line);
      if (row) {
        entry = row.entryIndex;
        break;
      }
    }
    if (useUiStore.getState().currentSessionId === sessionId) useUiStore.getState().selectEntry(entry, true);
  } catch {
    // The search is set: the transcript shows its matches, only the selection is left undone.
  }
}
