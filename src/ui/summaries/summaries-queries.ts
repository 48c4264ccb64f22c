import { queryOptions } from '@tanstack/react-query';
import type { PromptSettings } from '../../engine/summarize/prepare';
import type { CompactionPoint } from '../../engine/summarize/span';
import { getEngineClient } from '../../worker/engine-client';
import type { SessionId } from '../../worker/protocol';
import { sessionKey } from '../queries';
import { listRuns } from './runs-db';
import { getPointKey } from './point-key';

// queryOptions factories for the Summaries view: the worker's answers about the loaded session,
// and the runs stored in IndexedDB.

export function summariesInfoQuery(sessionId: SessionId) {
  return queryOptions({
    queryKey: [...sessionKey(sessionId), 'summaries-info'],
    queryFn: ({ signal }) => getEngineClient().request({ kind: 'summaries-info', sessionId }, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}

/** The exact request for a point and settings (large: not structurally shared). */
export function preparedSummaryQuery(sessionId: SessionId, point: CompactionPoint, settings: PromptSettings) {
  return queryOptions({
    queryKey: [...sessionKey(sessionId), 'summaries-prepare', getPointKey(point), settings],
    queryFn: ({ signal }) =>
      getEngineClient().request({ kind: 'summaries-prepare', sessionId, point, settings }, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 60_000,
    retry: false,
    structuralSharing: false,
  });
}

export const RUNS_QUERY_KEY = ['summary-runs'] as const;

/** Every stored run, newest first. */
export function summaryRunsQuery() {
  return queryOptions({
    queryKey: RUNS_QUERY_KEY,
    queryFn: () => listRuns(),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}
