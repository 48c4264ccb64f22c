import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { SessionId } from '../../worker/protocol';
import { getStrategyClient } from '../custom/custom-registry';
import { sessionKey } from '../queries';

// Learn mode's walk from the worker (worker/learn-handlers.ts). A knob change is a new key; the
// previous walk stays on screen until the new one arrives, so the step does not flash.

export function learnWalkQuery(
  sessionId: SessionId,
  strategyId: string,
  knobOverrides: Record<string, unknown>,
  branchId = 0,
  eventIndex?: number,
) {
  return queryOptions({
    queryKey: [
      ...sessionKey(sessionId),
      'learn',
      branchId,
      strategyId,
      JSON.stringify(knobOverrides),
      eventIndex ?? -1,
    ],
    queryFn: ({ signal }) =>
      getStrategyClient(strategyId).request(
        { kind: 'learn-walk', sessionId, strategyId, knobOverrides, branchId, eventIndex },
        { signal },
      ),
    placeholderData: keepPreviousData,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 60_000,
    retry: false,
    structuralSharing: false,
  });
}
