import type { PreparedReplay } from '../simulation/prepared';
import { lowerBound } from '../simulation/search';
import { hasRequestAfterLastCall } from '../simulation/turns';
import { getStrategy } from '../strategies/registry';
import type { ClearingProbe, KnobValue, ManualCompactionRequest, ReplayView } from '../strategies/types';
import type { TokenCount } from '../types';
import { computeComparison, DEFAULT_TOLERANCE_CALLS } from './compare';
import { ReplayState } from './replay-state';
import { CLAUDE_CODE_SUMMARY_SIZE } from '../strategies/summary-size';
import { createSummaryModel, type SummaryModelId, type SummarySizeModel } from './summary-size';
import type { ReplayResult } from './types';

// The replay loop: walks the main conversation call by call, prices the simulated history
// (simulation/history.ts), lets the strategy act after each call, applies what it returns, then
// what the log itself did (replay-state.ts).
//
// The context of call k is the recorded usage corrected by what differs between the simulated
// history and the log's:   S[k] = R[k] + (simulated history) − (log's history)
// with both histories priced with the same attributed per-message tokens (prepare.ts). Where the
// histories are the same, S[k] = R[k] exactly.

export interface ReplayOptions {
  /** Summary size model: `recorded` (default) or `ratio`, or a custom model. */
  summaryModel?: SummaryModelId | SummarySizeModel;
  /** Hook for real summaries: summary tokens by `afterApiCall` of the event. */
  suppliedSummaryTokens?: Readonly<Record<number, TokenCount>>;
  /** Manual compactions the user asks for. */
  manual?: readonly ManualCompactionRequest[];
  /** Matching tolerance with real compactions, in calls (default 1). */
  toleranceCalls?: number;
  /** An API call at which to ask the run what its clearing would take (`ReplayResult.probe`). */
  probeApiCall?: number;
}

/** Re-runs a strategy over a prepared session. Pure; linear in calls plus the work of events. */
export function computeReplay(
  prepared: PreparedReplay,
  strategyId: string,
  knobsInput: unknown,
  options: ReplayOptions = {},
): ReplayResult {
  const t0 = performance.now();
  const strategy = getStrategy(strategyId);
  const knobs = strategy.normalizeKnobs(knobsInput);
  const run = strategy.createRun(knobs, prepared);
  // The size model over the strategy's own summary size (its agent's fit or cap; else Claude Code's).
  const model =
    typeof options.summaryModel === 'object'
      ? options.summaryModel
      : createSummaryModel(
          options.summaryModel === 'ratio' ? 'ratio' : 'recorded',
          strategy.summarySize?.(knobs) ?? CLAUDE_CODE_SUMMARY_SIZE,
        );
  const tolerance = options.toleranceCalls ?? DEFAULT_TOLERANCE_CALLS;
  const { calls, recorded, output, callPos, pendingEstimate, clearables, baseTokens: base } = prepared;
  const n = calls.length;
  // A log that records no trigger (pi): the run says which of its compactions its trigger explains.
  const loggedTriggers = prepared.real.map((r) => run.inferLoggedTrigger?.(r) ?? r.trigger);
  const state = new ReplayState(prepared, run, {
    model,
    toleranceCalls: tolerance,
    suppliedSummaryTokens: options.suppliedSummaryTokens,
    loggedTriggers,
  });
  const { history } = state;
  const manualByCall = new Map<number, ManualCompactionRequest>();
  for (const m of options.manual ?? []) manualByCall.set(m.afterApiCall, m);
  const view = createView(prepared, state, model);
  const requestAfterLast = hasRequestAfterLastCall(prepared);
  state.applyLoggedBeforeFirstCall();
  let probe: ClearingProbe | undefined;

  for (let k = 0; k < n; k++) {
    const S = state.contextTokens(k);
    const T = S + output[k]! + (run.countsPending ? pendingEstimate[k]! : 0);
    state.simulatedTokens[k] = S;
    state.checkTokens[k] = T;
    state.diverged[k] = state.differs ? 1 : 0;
    if (S >= run.blockingTokens) state.block(k, S);
    else state.blocked = false;

    const boundaryPos = callPos[k + 1]!;
    view.callPos = k;
    view.apiCall = calls[k]!;
    view.contextTokens = S;
    view.usageTokens = S + output[k]!;
    view.pendingEstimate = pendingEstimate[k]!;
    view.checkTokens = T;
    view.boundaryPos = boundaryPos;
    view.liveFromPos = history.liveFrom;
    view.clearableFrom = history.clearableFrom;
    view.clearableTo = lowerBound(clearables.pos, boundaryPos);
    view.carriedFiles = history.carriedFiles;
    view.clearedTokens = history.savedTokens;
    view.truncatedRanges = history.truncatedRanges;
    view.manual = manualByCall.get(calls[k]!);
    // A compaction happens before the next request: after the last call, only when the log holds
    // one (a prompt or a tool's result that no recorded call answers) or the user asks for one.
    // Asked before the step, on the state the step sees.
    if (options.probeApiCall === calls[k] && run.probeClearing) probe = run.probeClearing(view);
    const outcome = k + 1 < n || view.manual || requestAfterLast ? run.step(view) : undefined;
    if (!outcome?.actions.some((a) => a.kind === 'fail')) state.failing = undefined;
    // Provenance of the trigger count, taken before anything changes the history.
    const callSource =
      outcome?.actions.length || state.hasLoggedUpTo(k) ? state.describeCall(k, true) : undefined;
    if (outcome) {
      // A later action of the same step starts from what an earlier clear or replace left.
      let count = T;
      let source = callSource!;
      for (const action of outcome.actions) {
        if (action.kind === 'clear') state.applyClear(k, boundaryPos, action, count, source);
        else if (action.kind === 'replace') state.applyReplace(k, boundaryPos, action, count, source);
        else if (action.kind === 'truncate') state.applyTruncate(k, boundaryPos, action, count, source);
        else if (action.kind === 'fail') state.applyFail(k, boundaryPos, action, source);
        else state.applySummarize(k, boundaryPos, action, callSource!);
        const last = state.events[state.events.length - 1];
        if (action.kind !== 'summarize' && last) {
          count = last.postTokens;
          source = last.postSource;
        }
      }
    }
    state.applyLogged(k, callSource);
  }

  return {
    strategyId: strategy.id,
    knobs: knobs as Record<string, KnobValue>,
    thresholds: strategy.thresholds(knobs),
    ...getVaryingWindows(strategy.getCallWindows?.(knobs, prepared)),
    callIndex: calls.slice(),
    recordedTokens: recorded.slice(),
    simulatedTokens: state.simulatedTokens,
    checkTokens: state.checkTokens,
    diverged: state.diverged,
    events: state.events,
    clearedToolIds: state.clearedToolIds,
    summarizedRanges: state.summarizedRanges,
    comparison: computeComparison(prepared, state.events, tolerance, loggedTriggers),
    baseTokens: base,
    ...(probe ? { probe } : {}),
    notes: [],
    computeMs: performance.now() - t0,
  };
}

type Mutable<T> = { -readonly [P in keyof T]: T[P] };

/** The strategy's window on the state; the loop updates its fields before each step. */
function createView(
  prepared: PreparedReplay,
  state: ReplayState,
  model: SummarySizeModel,
): Mutable<ReplayView> {
  const { history } = state;
  const replaced = history.replaced;
  const view: Mutable<ReplayView> = {
    prepared,
    callPos: 0,
    apiCall: 0,
    contextTokens: 0,
    usageTokens: 0,
    pendingEstimate: 0,
    checkTokens: 0,
    boundaryPos: 0,
    liveFromPos: 0,
    clearableFrom: 0,
    clearableTo: 0,
    isCleared: (i) => replaced[i] === 1,
    clearedOrder: history.replacedOrder,
    clearedTokens: 0,
    carriedFiles: history.carriedFiles,
    manual: undefined,
    truncatedRanges: history.truncatedRanges,
    firstPairEndPos: prepared.callPos[0]!,
    getLiveTokens: (from, to) => history.liveTokens(from, to),
    holds: (pos) => prepared.artifactOf[pos] === 0 || prepared.artifactOf[pos] === history.adoptedReal + 1,
    estimatePostTokens: (summaryMessageTokens, restoredTokens, keepFromPos) =>
      prepared.baseTokens +
      summaryMessageTokens +
      restoredTokens +
      (keepFromPos === undefined ? 0 : history.liveTokens(keepFromPos, view.boundaryPos)),
    getSpanTokens: (keepFromPos, direction) =>
      keepFromPos !== undefined && direction === 'from'
        ? history.liveTokens(keepFromPos, view.boundaryPos)
        : history.syntheticTokens + history.liveTokens(history.liveFrom, keepFromPos ?? view.boundaryPos),
    getSummaryTokens: (mechanism, keepFromPos) =>
      model.getSummaryTokens({
        spanTokens:
          history.syntheticTokens + history.liveTokens(history.liveFrom, keepFromPos ?? view.boundaryPos),
        mechanism,
      }).tokens,
  };
  return view;
}

/** A strategy's per-call windows, kept only when they differ between calls. */
function getVaryingWindows(windows: Float64Array | undefined): { callWindows?: Float64Array } {
  return windows?.some((w) => w !== windows[0]) ? { callWindows: windows } : {};
}
