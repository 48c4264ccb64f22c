import { queryOptions } from '@tanstack/react-query';
import type { EventRequestSpec } from '../../engine/replay/types';
import { getStrategyClient, noteCustomThresholds } from '../custom/custom-registry';
import type { SessionId } from '../../worker/protocol';
import { sessionKey } from '../queries';
import type { SweepProgress } from '../../engine/replay/sweep';
import type { CompareEntry, CompareProgress } from '../../engine/replay/compare-strategies';
import type { SummaryModelId } from '../../engine/replay/summary-size';
import type { ReplayRunParams, ReplaySweepParams } from './replay-store';

// queryOptions factories for the replay. A knob change is a new key: the previous run stays on
// screen (placeholderData) until the new one arrives; a superseded run is cancelled.

export function replaySetupQuery(sessionId: SessionId, strategyId: string) {
  return queryOptions({
    queryKey: [...sessionKey(sessionId), 'replay', 'setup', strategyId],
    queryFn: ({ signal }) =>
      getStrategyClient(strategyId).request({ kind: 'replay-setup', sessionId, strategyId }, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}

/** `branchId`: the uuid-tree branch the replay follows (timeline/branch-store.ts), 0 = the main line. */
export function replayRunQuery(params: ReplayRunParams, branchId = 0) {
  const { sessionId, strategyId, overrides, summaryModel, manual, suppliedSummaryTokens } = params;
  return queryOptions({
    queryKey: [
      ...sessionKey(sessionId),
      'replay',
      'run',
      branchId,
      strategyId,
      JSON.stringify(overrides),
      summaryModel,
      JSON.stringify(manual),
      JSON.stringify(suppliedSummaryTokens),
    ],
    queryFn: async ({ signal }) => {
      const run = await getStrategyClient(strategyId).request(
        {
          kind: 'replay-run',
          sessionId,
          strategyId,
          overrides,
          summaryModel,
          manual,
          suppliedSummaryTokens,
          branchId,
        },
        { signal },
      );
      noteCustomThresholds(strategyId, run.result.knobs, run.result.thresholds);
      return run;
    },
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 30_000,
    retry: false,
    structuralSharing: false,
  });
}

export function replayRequestQuery(sessionId: SessionId, spec: EventRequestSpec) {
  return queryOptions({
    queryKey: [...sessionKey(sessionId), 'replay', 'request', JSON.stringify(spec)],
    queryFn: ({ signal }) =>
      getStrategyClient().request({ kind: 'replay-request', sessionId, spec, elideBase64: true }, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 60_000,
    retry: false,
    structuralSharing: false,
  });
}

/**
 * Each subagent's own replay under the log's knobs for it and the user's edits (`overrides`, the
 * ones a sub-agent's loop has: engine/replay/subagent-replays.ts getSubagentOverrides). An edit is a
 * new key; the superseded run is cancelled through its signal.
 */
export function replaySubagentsQuery(
  sessionId: SessionId,
  strategyId: string,
  overrides: Record<string, unknown> = {},
) {
  return queryOptions({
    queryKey: [...sessionKey(sessionId), 'replay', 'subagents', strategyId, JSON.stringify(overrides)],
    queryFn: ({ signal }) =>
      getStrategyClient(strategyId).request(
        { kind: 'replay-subagents', sessionId, strategyId, overrides },
        { signal },
      ),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 60_000,
    retry: false,
    structuralSharing: false,
  });
}

/** A knob sweep; `onProgress` hears the worker's progress (not part of the key). */
export function replaySweepQuery(params: ReplaySweepParams, onProgress?: (progress: SweepProgress) => void) {
  const { sessionId, strategyId, overrides, range, summaryModel, manual, suppliedSummaryTokens } = params;
  const branchId = params.branchId ?? 0;
  return queryOptions({
    queryKey: [
      ...sessionKey(sessionId),
      'replay',
      'sweep',
      branchId,
      strategyId,
      JSON.stringify(overrides),
      JSON.stringify(range),
      summaryModel,
      JSON.stringify(manual),
      JSON.stringify(suppliedSummaryTokens),
    ],
    queryFn: ({ signal }) =>
      getStrategyClient(strategyId).request(
        {
          kind: 'replay-sweep',
          sessionId,
          strategyId,
          overrides,
          range,
          summaryModel,
          manual,
          suppliedSummaryTokens,
          branchId,
        },
        { signal, onProgress },
      ),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 60_000,
    retry: false,
    structuralSharing: false,
  });
}

/** What a compare run asks: the strategies with their overrides, frozen when Run is pressed. */
export interface ReplayCompareParams {
  sessionId: SessionId;
  entries: CompareEntry[];
  summaryModel: SummaryModelId;
  branchId: number;
}

/** Several strategies on the same transcript; `onProgress` hears the worker (not part of the key). */
export function replayCompareQuery(params: ReplayCompareParams, onProgress?: (p: CompareProgress) => void) {
  const { sessionId, entries, summaryModel, branchId } = params;
  return queryOptions({
    queryKey: [
      ...sessionKey(sessionId),
      'replay',
      'compare',
      branchId,
      JSON.stringify(entries),
      summaryModel,
    ],
    queryFn: ({ signal }) =>
      getStrategyClient(...entries.map((e) => e.strategyId)).request(
        { kind: 'replay-compare', sessionId, entries, summaryModel, branchId },
        { signal, onProgress },
      ),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 60_000,
    retry: false,
    structuralSharing: false,
  });
}
