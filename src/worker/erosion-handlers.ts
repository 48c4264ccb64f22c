// The Erosion tab's request: the log's chain of summaries, or a replay's, scored against
// everything the session held since its start (engine/erosion/).

import { computeLogErosion, computeReplayErosion } from '../engine/erosion/erosion';
import { type EngineHandlers, getLoaded } from './engine-host';
import { withSessionSecrets } from './known-secrets';
import { runReplay } from './share-handlers';

export const EROSION_HANDLERS: Pick<EngineHandlers, 'erosion'> = {
  erosion: async (request, { state, signal }) => {
    const { session, sources } = getLoaded(state, request.sessionId);
    const redaction =
      request.redaction && (await withSessionSecrets(request.redaction, session, sources, signal));
    const options = { redaction, signal };
    if (!request.replay) return { result: await computeLogErosion(session, sources, options) };
    const replay = runReplay(session, request.replay);
    return {
      result: await computeReplayErosion(session, sources, replay.events, replay.strategyId, options),
    };
  },
};
