// The worker side of the Summaries view: the transcript's identity and compaction points, and the
// exact summarizer request at a point (engine/summarize/session-ops.ts does the work).

import { getSummariesInfo, prepareSummaryAt } from '../engine/summarize/session-ops';
import { type EngineHandlers, getLoaded } from './engine-host';

type SummariesHandlers = Pick<EngineHandlers, 'summaries-info' | 'summaries-prepare'>;

export const SUMMARIES_HANDLERS: SummariesHandlers = {
  'summaries-info': async (request, { state }) => {
    const { session, sources } = getLoaded(state, request.sessionId);
    return { result: await getSummariesInfo(session, sources) };
  },
  'summaries-prepare': async (request, { state, signal }) => {
    const { session, sources } = getLoaded(state, request.sessionId);
    return { result: await prepareSummaryAt(session, sources, request.point, request.settings, signal) };
  },
};
