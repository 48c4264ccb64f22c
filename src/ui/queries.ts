import { queryOptions } from '@tanstack/react-query';
import { getRowFilterKey, type RowFilter } from '../engine/query/row-filter';
import { getEngineClient } from '../worker/engine-client';
import type { FullTextProgress, SessionId, SessionOverview } from '../worker/protocol';

// queryOptions factories for everything the worker computes. A loaded session never changes, so
// results never go stale; every key starts with ['session', id] so a new load drops the old ones.

/** Rows fetched per page request. */
export const ROW_PAGE_SIZE = 100;

const immutable = { staleTime: Number.POSITIVE_INFINITY, retry: false } as const;

export const sessionKey = (sessionId: SessionId) => ['session', sessionId] as const;

/** The overview is put in the cache by the load (load-session.ts); observers only read it. */
export function sessionOverviewQuery(sessionId: SessionId) {
  return queryOptions<SessionOverview>({
    queryKey: [...sessionKey(sessionId), 'overview'],
    queryFn: () => Promise.reject(new Error(`Session ${sessionId} was not loaded`)),
    ...immutable,
    gcTime: Number.POSITIVE_INFINITY,
    structuralSharing: false,
  });
}

/** `onProgress` hears a full-text scan's progress (`filter.fullText`); the key ignores it. */
export function rowIndexQuery(
  sessionId: SessionId,
  filter: RowFilter,
  onProgress?: (progress: FullTextProgress) => void,
) {
  return queryOptions({
    queryKey: [...sessionKey(sessionId), 'row-index', getRowFilterKey(filter)],
    queryFn: ({ signal }) =>
      getEngineClient().request({ kind: 'row-index', sessionId, filter }, { signal, onProgress }),
    ...immutable,
    structuralSharing: false,
  });
}

export function rowPageQuery(sessionId: SessionId, filter: RowFilter, page: number) {
  return queryOptions({
    queryKey: [...sessionKey(sessionId), 'row-page', getRowFilterKey(filter), page],
    queryFn: ({ signal }) =>
      getEngineClient().request(
        { kind: 'row-page', sessionId, filter, start: page * ROW_PAGE_SIZE, count: ROW_PAGE_SIZE },
        { signal },
      ),
    ...immutable,
    structuralSharing: false,
  });
}

export function entryDetailQuery(sessionId: SessionId, entryIndex: number) {
  return queryOptions({
    queryKey: [...sessionKey(sessionId), 'entry-detail', entryIndex],
    queryFn: ({ signal }) =>
      getEngineClient().request({ kind: 'entry-detail', sessionId, entryIndex }, { signal }),
    ...immutable,
    structuralSharing: false,
  });
}

export function rawEntryQuery(sessionId: SessionId, entryIndex: number) {
  return queryOptions({
    queryKey: [...sessionKey(sessionId), 'raw-entry', entryIndex],
    queryFn: ({ signal }) =>
      getEngineClient().request({ kind: 'raw-entry', sessionId, entryIndex }, { signal }),
    ...immutable,
    structuralSharing: false,
  });
}

export function compactionDetailQuery(sessionId: SessionId, compactionIndex: number) {
  return queryOptions({
    queryKey: [...sessionKey(sessionId), 'compaction-detail', compactionIndex],
    queryFn: ({ signal }) =>
      getEngineClient().request({ kind: 'compaction-detail', sessionId, compactionIndex }, { signal }),
    ...immutable,
    structuralSharing: false,
  });
}

export function timelineQuery(sessionId: SessionId, branchId = 0) {
  return queryOptions({
    queryKey: [...sessionKey(sessionId), 'timeline', branchId],
    queryFn: ({ signal }) => getEngineClient().request({ kind: 'timeline', sessionId, branchId }, { signal }),
    ...immutable,
    structuralSharing: false,
  });
}

export function tokenTableQuery(sessionId: SessionId) {
  return queryOptions({
    queryKey: [...sessionKey(sessionId), 'token-table'],
    queryFn: ({ signal }) => getEngineClient().request({ kind: 'token-table', sessionId }, { signal }),
    ...immutable,
    structuralSharing: false,
  });
}

export function bashSummariesQuery(sessionId: SessionId) {
  return queryOptions({
    queryKey: [...sessionKey(sessionId), 'bash-summaries'],
    queryFn: ({ signal }) => getEngineClient().request({ kind: 'bash-summaries', sessionId }, { signal }),
    ...immutable,
    structuralSharing: false,
  });
}

export function issuesQuery(sessionId: SessionId) {
  return queryOptions({
    queryKey: [...sessionKey(sessionId), 'issues'],
    queryFn: ({ signal }) => getEngineClient().request({ kind: 'issues', sessionId }, { signal }),
    ...immutable,
    structuralSharing: false,
  });
}
