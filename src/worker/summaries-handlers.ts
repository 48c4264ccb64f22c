// The worker side of the Summaries view: the transcript's identity and compaction points, and the
// exact summarizer request at a point (engine/summarize/session-ops.ts does the work).

import { getSummariesInfo, prepareSummaryAt } from '../engine/summarize/session-ops';
import { type EngineHandlers, getLoaded } from './engine-host';
import { withSessionSecrets } from './known-secrets';

type SummariesHandlers = Pick<EngineHandlers, 'summaries-info' | 'summaries-prepare'>;

export const SUMMARIES_HANDLERS: SummariesHandlers = {
  'summaries-info': async (request, { state }) => {
    const { session, sources } = getLoaded(state, request.sessionId);
    return { result: await getSummariesInfo(session, sources) };
  },
  'summaries-prepare': async (request, { state, signal }) => {
    const { session, sources } = getLoaded(state, request.sessionId);
    // Every occurrence of every found value is masked in the request, not only the ones a rule
    // finds where they stand (issue 22). The values stay here: the settings the page keeps do not gain them.
    const { redact } = request.settings;
    const settings = redact
      ? { ...request.settings, redact: await withSessionSecrets(redact, session, sources, signal) }
      : request.settings;
    return { result: await prepareSummaryAt(session, sources, request.point, settings, signal) };
  },
};
