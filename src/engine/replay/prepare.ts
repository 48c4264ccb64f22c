import type { PreparedReplay } from '../simulation/prepared';
import { estimateEntryTokens } from '../tokens/estimate';
import type { Session } from '../types';
import {
  attributeTokens,
  getPendingEstimates,
  getPrefixSums,
  measureUnloggedTokens,
} from './prepare-attribution';
import { getCallAxis } from './prepare-call-axis';
import { getClearables } from './prepare-clearables';
import { getRealCompactions } from './prepare-real';
import { getRestorationInputs } from './prepare-restoration';

// Compatibility: the shared model moved to simulation/; the UI and tests import it from here.
export {
  CLEARABLE_DOCUMENT,
  CLEARABLE_IMAGE,
  CLEARABLE_THINKING,
  type Clearables,
  PLACEHOLDER_TOKENS,
  type PreparedReplay,
  type RealCompactionInfo,
  TOKEN_SOURCE,
  TOKEN_SOURCE_LABELS,
  type TokenSourceId,
} from '../simulation/prepared';
export { lowerBound } from '../simulation/search';

// Everything a replay needs that does not depend on knobs, computed once per session, so that
// `computeReplay` is a linear walk over typed arrays. Named phases, in order: the call axis, the
// log's compactions, the clearable items, token attribution, restoration inputs. The dialect's
// descriptor decides the call axis (`usageFollowsResponse`) and the restoration inputs.

/**
 * The path the continuation message's transcript hint names: the main file's name without its
 * folder. Ours: the agent wrote its own path on its machine (a home folder the log does not
 * state); the folder it was read from here is neither, and it made the page (a path under the
 * picked folder) and the CLI (an absolute path) replay one session to different costs ($18.624279
 * and $18.624651 for a corpus session at 60%: the hint's length in every call after a compaction).
 */
function getTranscriptPath(mainName: string | undefined): string {
  return mainName?.split(/[\\/]/).pop() || 'transcript.jsonl';
}

/** Precomputes attribution, clearable items and restoration sources for a session. */
export function prepareReplay(session: Session): PreparedReplay {
  const t0 = performance.now();
  const axis = getCallAxis(session);
  const estimate = new Float64Array(axis.ctxEntry.length);
  for (let p = 0; p < estimate.length; p++)
    estimate[p] = estimateEntryTokens(session.entries[axis.ctxEntry[p]!]!);
  const { real, artifactOf } = getRealCompactions(session, axis);
  const items = getClearables(session, axis);
  for (const r of real) {
    if (r.kind !== 'microcompact') continue;
    for (const id of session.entries[r.entryIndex]?.microcompact?.compactedToolIds ?? []) {
      const i = items.clearables.indexById.get(id);
      if (i !== undefined) r.cleared.push(i);
    }
  }
  const attribution = attributeTokens(axis, real, items, estimate);
  const mainFile = session.files.find((f) => f.role === 'main');
  const prepared: PreparedReplay = {
    session,
    calls: axis.calls,
    recorded: axis.recorded,
    output: axis.output,
    callPos: axis.callPos,
    pendingEstimate: getPendingEstimates(axis, estimate, artifactOf),
    ctxEntry: axis.ctxEntry,
    posOfEntry: axis.posOfEntry,
    tokens: attribution.tokens,
    estimate,
    tokenSource: attribution.tokenSource,
    artifactOf,
    ...getPrefixSums(attribution, artifactOf),
    baseTokens: attribution.baseTokens,
    clearables: items.clearables,
    toolNames: items.toolNames,
    real,
    ...getRestorationInputs(session, axis),
    transcriptPath: getTranscriptPath(mainFile?.name),
    prepareMs: 0,
  };
  measureUnloggedTokens(prepared);
  prepared.prepareMs = performance.now() - t0;
  return prepared;
}
