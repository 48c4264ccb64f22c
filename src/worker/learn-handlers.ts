// The worker side of learn mode: a strategy's walk through one compaction (engine/learn/walk.ts)
// on the loaded session, on the branch the replay follows, with the teacher's knob changes.

import { computeLearnWalk } from '../engine/learn/walk';
import { followBranch } from '../engine/parse/branches';
import { type EngineHandlers, getLoaded } from './engine-host';
import { getPrepared } from './replay-handlers';

export const LEARN_HANDLERS: Pick<EngineHandlers, 'learn-walk'> = {
  'learn-walk': async (request, { state, signal }) => {
    const { session, sources } = getLoaded(state, request.sessionId);
    const prepared = getPrepared(followBranch(session, request.branchId ?? 0));
    const walk = await computeLearnWalk({
      session: prepared.session,
      sources,
      prepared,
      strategyId: request.strategyId,
      knobOverrides: request.knobOverrides,
      eventIndex: request.eventIndex,
      signal,
    });
    return { result: walk };
  },
};
