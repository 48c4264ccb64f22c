import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { TokenCount } from '../../engine/types';
import type { SessionId } from '../../worker/protocol';
import type { SummariesInfo } from '../../engine/summarize/session-ops';
import { getPointKey } from './point-key';
import type { SummaryRun } from './runs-db';
import { summariesInfoQuery, summaryRunsQuery } from './summaries-queries';

// The hook the replay reads: once a summary exists for a compaction point of the loaded
// transcript, the replay uses its real size for the post-compaction context instead of a guess.
// Per point, a starred run wins; otherwise the newest run.

interface SummarySize {
  summaryTokens: TokenCount;
  /** `api`: the model's output token count; `estimate`: chars / 4 of the cleaned summary. */
  source: 'api' | 'estimate';
  runId: string;
  runName: string;
}

export { getPointKey };

/** Summary sizes of one transcript's runs, by point key (pure: usable outside React). */
export function getSummarySizes(runs: SummaryRun[], contentHash: string): Map<string, SummarySize> {
  const sizes = new Map<string, SummarySize & { starred: boolean; createdAt: number }>();
  for (const run of runs) {
    if (run.transcript.contentHash !== contentHash) continue;
    const key = getPointKey(run.point);
    const current = sizes.get(key);
    const better =
      !current ||
      (run.starred && !current.starred) ||
      (run.starred === current.starred && run.createdAt > current.createdAt);
    if (better) {
      sizes.set(key, {
        summaryTokens: run.summaryTokens,
        source: run.summaryTokensSource,
        runId: run.id,
        runName: run.name,
        starred: run.starred,
        createdAt: run.createdAt,
      });
    }
  }
  return new Map([...sizes].map(([key, { starred: _s, createdAt: _c, ...size }]) => [key, size]));
}

/**
 * Summary sizes by API call index, the keys the replay matches (`ReplayOptions.suppliedSummaryTokens`
 * by the event's exact `afterApiCall`, an index into `session.apiCalls`): a run "after API call N"
 * counts for N, a run at a real compaction for the call just before it (`apiCallBefore`).
 */
export function getSuppliedSummarySizes(
  runs: SummaryRun[],
  info: SummariesInfo,
): Record<number, SummarySize> {
  const supplied: Record<number, SummarySize> = {};
  const fromApiCall = new Set<number>();
  for (const [key, size] of getSummarySizes(runs, info.contentHash)) {
    const [kind, index] = key.split(':') as [string, string];
    const apiCall =
      kind === 'api-call'
        ? Number(index)
        : info.compactions.find((c) => c.compactionIndex === Number(index))?.apiCallBefore;
    if (apiCall === undefined) continue;
    // An "after API call N" run is the closer match when both exist for the same call.
    if (kind === 'api-call') {
      supplied[apiCall] = size;
      fromApiCall.add(apiCall);
    } else if (!fromApiCall.has(apiCall)) supplied[apiCall] = size;
  }
  return supplied;
}

/** Summary tokens by API call index, in the shape the replay takes (`ReplayOptions.suppliedSummaryTokens`). */
export function getSuppliedSummaryTokens(
  runs: SummaryRun[],
  info: SummariesInfo,
): Record<number, TokenCount> {
  const sizes = getSuppliedSummarySizes(runs, info);
  return Object.fromEntries(Object.entries(sizes).map(([call, size]) => [call, size.summaryTokens]));
}

/** `getSuppliedSummarySizes` for the loaded session; a stable object until the runs change. */
export function useSuppliedSummarySizes(
  sessionId: SessionId | undefined,
): Readonly<Record<number, SummarySize>> {
  const runs = useQuery(summaryRunsQuery());
  // The transcript's hash is only worth computing once there are runs to match.
  const info = useQuery({
    ...summariesInfoQuery(sessionId ?? -1),
    enabled: sessionId !== undefined && (runs.data?.length ?? 0) > 0,
  });
  return useMemo(
    () => (info.data && runs.data ? getSuppliedSummarySizes(runs.data, info.data) : {}),
    [info.data, runs.data],
  );
}

/** `getSuppliedSummaryTokens` for the loaded session; a stable object until the runs change. */
export function useSuppliedSummaryTokens(
  sessionId: SessionId | undefined,
): Readonly<Record<number, TokenCount>> {
  const sizes = useSuppliedSummarySizes(sessionId);
  return useMemo(
    () => Object.fromEntries(Object.entries(sizes).map(([call, size]) => [call, size.summaryTokens])),
    [sizes],
  );
}
