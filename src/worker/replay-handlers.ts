// The worker side of the replay: prepares a session once (kept beside it), re-runs a strategy
// for each knob change (or for each value of a swept knob), and builds the summarizer request of
// an event on demand. Only plain data and transferable typed arrays go back (protocol.ts).

import { buildCompactionRequest } from '../engine/compact/build-request';
import { createReplayPricer } from '../engine/cost/replay-cost';
import { followBranch } from '../engine/parse/branches';
import { compareStrategies, toCompareSeries } from '../engine/replay/compare-strategies';
import { computeReplay } from '../engine/replay/compute-replay';
import { type PreparedReplay, prepareReplay } from '../engine/replay/prepare';
import { computeSubagentReplays } from '../engine/replay/subagent-replays';
import { computeSweep } from '../engine/replay/sweep';
import { getReplayTransferables } from '../engine/replay/types';
import { requirePreset } from '../engine/strategies/prompt-presets';
import { getSessionSetup, getStrategy, STRATEGIES } from '../engine/strategies/registry';
import { getSessionInfo, type KnobValue } from '../engine/strategies/types';
import type { Session } from '../engine/types';
import { type EngineHandlers, getLoaded } from './engine-host';

const prepared = new WeakMap<Session, PreparedReplay>();

/** The session's prepared replay, computed once (shared with learn-handlers.ts). */
export function getPrepared(session: Session): PreparedReplay {
  let p = prepared.get(session);
  if (!p) {
    p = prepareReplay(session);
    prepared.set(session, p);
  }
  return p;
}

/**
 * The knobs a run uses: the user's edits over the knobs of the log's own agent version, which the
 * strategy reads from the main line as `replay-setup` does. The one place a run's knobs are
 * normalized; the page holds the raw edits and shows the same function's answer.
 */
export function resolveRunKnobs(
  session: Session,
  strategyId: string,
  overrides: Readonly<Record<string, KnobValue | null>>,
): Record<string, KnobValue> {
  const strategy = getStrategy(strategyId);
  const own = strategy.getSessionKnobs(getSessionInfo(getPrepared(session))).knobs;
  return strategy.normalizeKnobs(overrides, own);
}

/** Text that stands in for a summary the replay simulated but did not write. */
function describeSimulatedSummary(tokens: number): string {
  return `[Simulated summary of a previous compaction: about ${tokens.toLocaleString('en-US')} tokens. The replay sizes summaries without writing them; a summarizer can fill this in.]`;
}

type ReplayHandlers = Pick<
  EngineHandlers,
  'replay-setup' | 'replay-run' | 'replay-request' | 'replay-sweep' | 'replay-compare' | 'replay-subagents'
>;

export const REPLAY_HANDLERS: ReplayHandlers = {
  'replay-setup': async (request, { state }) => {
    const p = getPrepared(getLoaded(state, request.sessionId).session);
    const strategy = getStrategy(request.strategyId);
    const { knobs, notes } = getSessionSetup(strategy, getSessionInfo(p));
    return {
      result: {
        strategies: STRATEGIES.map(({ id, label, description }) => ({ id, label, description })),
        strategyId: strategy.id,
        knobSpecs: [...strategy.knobSpecs],
        defaultKnobs: { ...strategy.defaultKnobs },
        sessionKnobs: knobs,
        notes,
        prepareMs: p.prepareMs,
      },
    };
  },
  'replay-run': async (request, { state, signal }) => {
    const { session } = getLoaded(state, request.sessionId);
    const p = getPrepared(followBranch(session, request.branchId ?? 0));
    signal.throwIfAborted();
    const knobs = resolveRunKnobs(session, request.strategyId, request.overrides);
    const result = computeReplay(p, request.strategyId, knobs, {
      summaryModel: request.summaryModel,
      manual: request.manual,
      suppliedSummaryTokens: request.suppliedSummaryTokens,
    });
    // Entries whose tool results (or thinking blocks, images) the replay cleared, for the transcript list.
    const clearedEntries: Record<number, number> = {};
    for (const [id, eventIndex] of Object.entries(result.clearedToolIds)) {
      const item = p.clearables.indexById.get(id);
      const entryIndex =
        session.toolResultEntry.get(id) ??
        (item === undefined ? undefined : p.ctxEntry[p.clearables.pos[item]!]);
      if (entryIndex !== undefined) clearedEntries[entryIndex] = eventIndex;
    }
    // Its cost beside the real cost (engine/cost/): figures only, the page does not load the cost code.
    const cost = createReplayPricer(p.session)(result);
    return { result: { result, clearedEntries, cost }, transfer: getReplayTransferables(result) };
  },
  'replay-sweep': async (request, { state, signal, onProgress }) => {
    // The branch the run follows (parse/branches.ts), so a sweep's figures match the run's.
    const { session } = getLoaded(state, request.sessionId);
    const p = getPrepared(followBranch(session, request.branchId ?? 0));
    const knobs = resolveRunKnobs(session, request.strategyId, request.overrides);
    const result = await computeSweep(p, request.strategyId, knobs, request.range, {
      summaryModel: request.summaryModel,
      manual: request.manual,
      suppliedSummaryTokens: request.suppliedSummaryTokens,
      costOf: createReplayPricer(p.session),
      signal,
      onProgress,
    });
    return { result };
  },
  'replay-compare': async (request, { state, signal, onProgress }) => {
    // Prepared once for every strategy, on the branch the run follows.
    const p = getPrepared(followBranch(getLoaded(state, request.sessionId).session, request.branchId ?? 0));
    const compared = await compareStrategies(p, request.entries, {
      summaryModel: request.summaryModel,
      costOf: createReplayPricer(p.session),
      signal,
      onProgress,
    });
    const series = compared.results.map((r, i) =>
      toCompareSeries(r, compared.rows[i]?.label ?? r.strategyId),
    );
    return {
      result: {
        ownStrategyId: compared.ownStrategyId,
        rows: compared.rows,
        series,
        computeMs: compared.computeMs,
      },
      transfer: series.flatMap((s) => [
        s.callIndex.buffer as ArrayBuffer,
        s.simulatedTokens.buffer as ArrayBuffer,
      ]),
    };
  },
  'replay-subagents': async (request, { state, signal }) => {
    const { session, sources } = getLoaded(state, request.sessionId);
    const result = await computeSubagentReplays(
      session,
      sources,
      request.strategyId,
      request.overrides ?? {},
      signal,
    );
    return { result };
  },
  'replay-request': async (request, { state, signal }) => {
    const { session, sources } = getLoaded(state, request.sessionId);
    const spec = request.spec;
    const built = await buildCompactionRequest(session, sources, {
      uptoEntryIndex: spec.uptoEntryIndex,
      fromEntryIndex: spec.fromEntryIndex,
      variant: spec.variant,
      keepFromEntryIndex: spec.keepFromEntryIndex,
      customInstructions: spec.customInstructions,
      previousSummaryText:
        spec.previousSummaryTokens === undefined
          ? undefined
          : describeSimulatedSummary(spec.previousSummaryTokens),
      excludeEntryIndices: spec.excludeEntryIndices,
      promptPreset: spec.promptPresetId === undefined ? undefined : requirePreset(spec.promptPresetId),
      elideBase64: request.elideBase64,
      signal,
    });
    return { result: built };
  },
};
