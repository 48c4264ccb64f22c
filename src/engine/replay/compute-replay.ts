import { getContinuationOverheadTokens } from '../compact/format-summary';
import type { RestoredFile } from '../compact/restore';
import { getStrategy } from '../strategies/registry';
import type { KnobValue, ManualCompactionRequest, ReplayView, StrategyAction } from '../strategies/types';
import type { TokenCount } from '../types';
import { computeComparison, DEFAULT_TOLERANCE_CALLS } from './compare';
import { lowerBound, PLACEHOLDER_TOKENS, type PreparedReplay, TOKEN_SOURCE } from './prepare';
import { createTokenProvenance } from './provenance';
import {
  RECORDED_SUMMARY_MODEL,
  SUMMARY_MODELS,
  type SummaryModelId,
  type SummarySizeModel,
} from './summary-size';
import type { EventRequestSpec, ReplayEvent, ReplayResult, SummarySource, TokenProvenance } from './types';

// The replay loop: walks the main conversation call by call, keeps the simulated history as a
// live range of context positions plus synthetic tokens (summaries, re-attached files), lets the
// strategy act after each call, and applies what it returns.
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
  const model =
    typeof options.summaryModel === 'object'
      ? options.summaryModel
      : (SUMMARY_MODELS[options.summaryModel ?? 'recorded'] ?? RECORDED_SUMMARY_MODEL);
  const tolerance = options.toleranceCalls ?? DEFAULT_TOLERANCE_CALLS;
  const {
    session,
    calls,
    recorded,
    output,
    callPos,
    pendingEstimate,
    ctxEntry,
    prefixAll,
    prefixNon,
    prefixBySource,
    artifactOf,
    clearables,
    real,
    baseTokens,
  } = prepared;
  const n = calls.length;
  const base = baseTokens;

  const simulatedTokens = new Float64Array(n);
  const checkTokens = new Float64Array(n);
  const diverged = new Uint8Array(n);
  const events: ReplayEvent[] = [];
  const clearedToolIds: Record<string, number> = {};
  const summarizedRanges: [number, number][] = [];
  const simCleared = new Uint8Array(clearables.pos.length);

  // Simulated history: synthetic tokens + context positions [SL, …) not cleared.
  let SL = 0;
  let synth = 0;
  /** What `synth` is made of (for provenance): summary (+ continuation), re-attachments, kept. */
  let synthSummary = 0;
  let synthRestored = 0;
  let synthKept = 0;
  let synthSummarySource: SummarySource | undefined;
  let simSaved = 0;
  /** The log's history: positions [RL, …) minus what real microcompacts cleared. */
  let RL = 0;
  let realSaved = 0;
  let clearableFrom = 0;
  let carried: RestoredFile[] = [];
  /** The simulated history starts with a summary that is not in the transcript. */
  let previousSummaryTokens: TokenCount | undefined;
  /** Index into `real` of the compaction whose summary / re-attachments the simulation holds. */
  let adoptedReal = -1;
  let differs = false;
  let blocked = false;

  const manualByCall = new Map<number, ManualCompactionRequest>();
  for (const m of options.manual ?? []) manualByCall.set(m.afterApiCall, m);
  const realAutoByCall = new Map<number, number>();
  real.forEach((r, i) => {
    if (r.kind === 'compact' && r.trigger === 'auto') realAutoByCall.set(r.afterCall, i);
  });

  const recomputeSimSaved = () => {
    simSaved = 0;
    for (let i = lowerBound(clearables.pos, SL); i < clearables.pos.length; i++) {
      if (simCleared[i]) simSaved += savedOf(i);
    }
  };
  /** Tokens each cleared result keeps (its placeholder). */
  const placeholderOf = new Float64Array(clearables.pos.length);
  const savedOf = (i: number) => Math.max(0, clearables.tokens[i]! - placeholderOf[i]!);
  /** Simulated tokens of context positions [from, to) (cleared results priced as placeholders). */
  const liveTokens = (from: number, to: number): TokenCount => {
    let t = prefixNon[to]! - prefixNon[from]!;
    for (
      let i = lowerBound(clearables.pos, from);
      i < clearables.pos.length && clearables.pos[i]! < to;
      i++
    ) {
      if (simCleared[i] && artifactOf[clearables.pos[i]!] === 0) t -= savedOf(i);
    }
    return t;
  };
  const adopt = (r: number) => {
    const info = real[r]!;
    SL = info.boundaryPos;
    synth = info.artifactTokens;
    synthSummary = info.summaryTokens ?? 0;
    synthRestored = info.artifactTokens - synthSummary;
    synthKept = 0;
    synthSummarySource = 'recorded';
    simSaved = 0;
    carried = [];
    previousSummaryTokens = undefined;
    adoptedReal = r;
    clearableFrom = lowerBound(clearables.pos, SL);
  };
  /** Adds the simulated history's messages [from, to) by token source (cleared results not subtracted). */
  const addMessages = (p: TokenProvenance, from: number, to: number) => {
    p.exactTokens += prefixBySource[TOKEN_SOURCE.exact]![to]! - prefixBySource[TOKEN_SOURCE.exact]![from]!;
    p.splitTokens += prefixBySource[TOKEN_SOURCE.split]![to]! - prefixBySource[TOKEN_SOURCE.split]![from]!;
    p.estimatedTokens +=
      prefixBySource[TOKEN_SOURCE.estimated]![to]! - prefixBySource[TOKEN_SOURCE.estimated]![from]!;
    p.clampedMessages +=
      prefixBySource[TOKEN_SOURCE.clamped]![to]! - prefixBySource[TOKEN_SOURCE.clamped]![from]!;
  };
  const addSynthetic = (p: TokenProvenance) => {
    p.baseTokens = base;
    p.summaryTokens = synthSummary;
    p.summarySource = synthSummary > 0 ? synthSummarySource : undefined;
    p.restoredTokens = synthRestored;
    p.keptTokens = synthKept;
  };
  /** How call k's context (`withCheck`: its trigger count) was obtained, from the current state. */
  const describeCall = (k: number, withCheck: boolean): TokenProvenance => {
    const pos = callPos[k]!;
    const p = createTokenProvenance(diverged[k] ? 'attributed' : 'recorded');
    if (p.kind === 'recorded') {
      p.usageTokens = recorded[k]!;
      p.correctionTokens = simulatedTokens[k]! - recorded[k]!;
    } else {
      addSynthetic(p);
      addMessages(p, SL, pos);
      p.clearedTokens = simSaved;
      p.correctionTokens = recorded[k]! - (base + prefixAll[pos]! - prefixAll[RL]! - realSaved);
    }
    if (withCheck) {
      p.outputTokens = output[k]!;
      p.pendingTokens = run.countsPending ? pendingEstimate[k]! : 0;
    }
    return p;
  };
  /** The context right after adopting a real compaction: base + its summary and re-attachments. */
  const describeAdopted = (r: number): TokenProvenance => {
    const info = real[r]!;
    const p = createTokenProvenance('attributed');
    p.baseTokens = base;
    p.summaryTokens = info.summaryTokens ?? 0;
    p.summarySource = 'recorded';
    p.restoredTokens = info.artifactTokens - p.summaryTokens;
    return p;
  };
  const entryBefore = (pos: number): number => {
    for (let p = pos - 1; p >= 0; p--)
      if (artifactOf[p] === 0 || artifactOf[p] === adoptedReal + 1) return ctxEntry[p]!;
    return 0;
  };
  const excludedArtifacts = (from: number, to: number): number[] => {
    const out: number[] = [];
    for (let p = from; p < to; p++)
      if (artifactOf[p] !== 0 && artifactOf[p] !== adoptedReal + 1) out.push(ctxEntry[p]!);
    return out;
  };

  // A real compaction before the first call: the history starts from it.
  let realPtr = 0;
  while (realPtr < real.length && real[realPtr]!.afterCall < 0) {
    const r = real[realPtr]!;
    if (r.kind === 'compact') {
      RL = r.boundaryPos;
      adopt(realPtr);
    }
    realPtr++;
  }

  let k = 0;
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
    isCleared: (i) => simCleared[i] === 1,
    clearedTokens: 0,
    carriedFiles: carried,
    manual: undefined,
    estimatePostTokens: (summaryMessageTokens, restoredTokens, keepFromPos) =>
      base +
      summaryMessageTokens +
      restoredTokens +
      (keepFromPos === undefined ? 0 : liveTokens(keepFromPos, view.boundaryPos)),
    getSummaryTokens: (mechanism, keepFromPos) =>
      model.getSummaryTokens({
        spanTokens: synth + liveTokens(SL, keepFromPos ?? view.boundaryPos),
        mechanism,
      }).tokens,
  };

  /** `count`: the simulated trigger count before clearing (net of earlier clears). */
  const applyClear = (
    action: Extract<StrategyAction, { kind: 'clear' }>,
    count: TokenCount,
    preSource: TokenProvenance,
  ) => {
    // Clearing exactly what the log's microcompact cleared at this call keeps the histories equal:
    // those results are priced with the log's placeholder.
    const sameAsReal = real.some(
      (r) =>
        r.kind === 'microcompact' &&
        r.afterCall === k &&
        r.cleared.length === action.items.length &&
        r.cleared.every((i) => action.items.includes(i)),
    );
    const placeholder = sameAsReal ? PLACEHOLDER_TOKENS : action.placeholderTokens;
    let saved = 0;
    const ids: string[] = [];
    const eventIndex = events.length;
    for (const i of action.items) {
      if (simCleared[i]) continue;
      simCleared[i] = 1;
      placeholderOf[i] = placeholder;
      ids.push(clearables.ids[i]!);
      clearedToolIds[clearables.ids[i]!] = eventIndex;
      if (clearables.pos[i]! >= SL) saved += savedOf(i);
    }
    simSaved += saved;
    if (!sameAsReal) differs = true;
    const boundary = view.boundaryPos;
    events.push({
      kind: 'microcompact',
      trigger: 'auto',
      afterApiCall: calls[k]!,
      afterCallPos: k,
      afterEntryIndex: entryBefore(boundary),
      afterUuid: session.entries[entryBefore(boundary)]?.uuid,
      checkTokens: action.checkTokens,
      thresholdTokens: action.thresholdTokens,
      preTokens: count,
      postTokens: count - saved,
      preSource,
      postSource: { ...preSource, clearedTokens: preSource.clearedTokens + saved },
      clearedToolIds: ids,
      savedTokens: saved,
      estimatedSavedTokens: action.estimatedSavedTokens,
      note: action.note,
    });
  };

  const applySummarize = (
    action: Extract<StrategyAction, { kind: 'summarize' }>,
    preSource: TokenProvenance,
  ) => {
    const boundary = view.boundaryPos;
    const oldSL = SL;
    const realAuto = realAutoByCall.get(k);
    const exactReal = action.trigger === 'auto' && realAuto !== undefined ? realAuto : undefined;
    let nearReal = exactReal;
    if (nearReal === undefined && action.trigger === 'auto') {
      for (let d = 1; d <= tolerance && nearReal === undefined; d++) {
        nearReal = realAutoByCall.get(k + d) ?? realAutoByCall.get(k - d);
      }
    }
    const spanEnd =
      action.keepFromPos !== undefined && action.keepDirection === 'up-to' ? action.keepFromPos : boundary;
    const spanStart =
      action.keepFromPos !== undefined && action.keepDirection === 'from' ? action.keepFromPos : oldSL;
    const previousInSpan = spanStart === oldSL ? synth : 0;
    const spanTokens = previousInSpan + liveTokens(spanStart, spanEnd);
    const request: EventRequestSpec = {
      variant: action.requestVariant,
      fromEntryIndex: ctxEntry[spanStart] ?? entryBefore(boundary),
      uptoEntryIndex: entryBefore(spanEnd),
      keepFromEntryIndex:
        action.keepDirection === 'from' && action.keepFromPos !== undefined
          ? ctxEntry[action.keepFromPos]
          : undefined,
      customInstructions: action.customInstructions,
      previousSummaryTokens: spanStart === oldSL ? previousSummaryTokens : undefined,
      excludeEntryIndices: excludedArtifacts(spanStart, spanEnd),
    };
    const event: ReplayEvent = {
      kind: 'compact',
      mechanism: action.mechanism,
      trigger: action.trigger,
      afterApiCall: calls[k]!,
      afterCallPos: k,
      afterEntryIndex: entryBefore(boundary),
      afterUuid: session.entries[entryBefore(boundary)]?.uuid,
      checkTokens: action.checkTokens,
      thresholdTokens: action.thresholdTokens,
      preTokens: action.checkTokens,
      postTokens: 0,
      preSource,
      postSource: preSource,
      spanFromEntryIndex: request.fromEntryIndex,
      spanToEntryIndex: request.uptoEntryIndex,
      spanTokens,
      request,
      note: action.note,
    };
    if (spanEnd > spanStart) summarizedRanges.push([ctxEntry[spanStart]!, ctxEntry[spanEnd - 1]!]);

    if (exactReal !== undefined && model.id === 'recorded' && action.mechanism !== 'session-memory') {
      // The log compacted right here: continue from its own post-compaction history.
      const r = real[exactReal]!;
      adopt(exactReal);
      event.summaryTokens = r.summaryTokens;
      event.summarySource = 'recorded';
      event.realCompactionIndex = r.compactionIndex;
      event.postTokens = base + r.artifactTokens;
      event.postSource = describeAdopted(exactReal);
      event.reattachedTokens = Math.max(0, r.artifactTokens - (r.summaryTokens ?? 0));
      event.reattachedSource = 'recorded';
      event.note = joinNotes(
        event.note,
        "the log compacted after this call: the replay continues from the log's own summary and re-attachments",
      );
    } else {
      const supplied = options.suppliedSummaryTokens?.[calls[k]!];
      const near = nearReal === undefined || model.id !== 'recorded' ? undefined : real[nearReal];
      let summaryTokens: TokenCount;
      let continuationTokens =
        action.summaryOverheadTokens ??
        getContinuationOverheadTokens({
          ...action.continuation,
          transcriptPath: prepared.transcriptPath,
        });
      let reattachedTokens = action.restoration.totalTokens;
      event.reattachedSource = 'computed';
      if (action.summaryTokens !== undefined) {
        summaryTokens = action.summaryTokens;
        event.summarySource = 'session-memory';
      } else if (supplied !== undefined) {
        summaryTokens = supplied;
        event.summarySource = 'supplied';
      } else if (near && near.summaryTokens !== undefined && action.mechanism === 'full') {
        // A call away from a real compaction: its summary message and what came back with it
        // (re-attachments older versions did not log) stand in for the simulated ones.
        summaryTokens = near.summaryTokens;
        continuationTokens = 0;
        reattachedTokens = Math.max(0, near.artifactTokens - near.summaryTokens);
        event.summarySource = 'recorded';
        event.reattachedSource = 'recorded';
        event.realCompactionIndex = near.compactionIndex;
      } else {
        const sized = model.getSummaryTokens({ spanTokens, mechanism: action.mechanism });
        summaryTokens = sized.tokens;
        event.summarySource = sized.source;
      }
      event.summaryTokens = summaryTokens;
      event.continuationTokens = continuationTokens;
      event.restored = action.restoration;
      event.reattachedTokens = reattachedTokens;
      let frozen = 0;
      if (action.keepFromPos !== undefined && action.keepDirection === 'from') {
        frozen = synth + liveTokens(oldSL, action.keepFromPos);
        event.keptFromEntryIndex = ctxEntry[oldSL];
        event.keptTokens = frozen;
      }
      if (action.keptMessages) {
        // Re-sent verbatim from wherever they were: frozen with the summary like a 'from' part.
        frozen += action.keptMessages.tokens;
        event.keptTokens = (event.keptTokens ?? 0) + action.keptMessages.tokens;
      }
      synth = frozen + summaryTokens + continuationTokens + reattachedTokens;
      synthKept = frozen;
      synthSummary = summaryTokens + continuationTokens;
      synthRestored = reattachedTokens;
      synthSummarySource = event.summarySource;
      SL =
        action.keepFromPos !== undefined && action.keepDirection === 'up-to' ? action.keepFromPos : boundary;
      if (action.keepDirection === 'up-to' && action.keepFromPos !== undefined) {
        event.keptFromEntryIndex = ctxEntry[action.keepFromPos];
        event.keptTokens = liveTokens(action.keepFromPos, boundary);
      }
      clearableFrom = lowerBound(clearables.pos, SL);
      recomputeSimSaved();
      carried = action.restoration.files;
      previousSummaryTokens = summaryTokens;
      adoptedReal = -1;
      differs = true;
      const live = liveTokens(SL, boundary);
      event.postTokens = base + synth + live;
      const post = createTokenProvenance('attributed');
      addSynthetic(post);
      addMessages(post, SL, boundary);
      post.clearedTokens = prefixNon[boundary]! - prefixNon[SL]! - live;
      event.postSource = post;
    }
    if (event.postTokens >= action.thresholdTokens) {
      event.note = joinNotes(
        event.note,
        `still ${event.postTokens.toLocaleString('en-US')} tokens after compacting, not under the ${action.thresholdTokens.toLocaleString('en-US')} threshold: system prompt and tools ≈ ${base.toLocaleString('en-US')}, summary ${event.summaryTokens?.toLocaleString('en-US') ?? '?'}, re-attached ${(event.restored?.totalTokens ?? 0).toLocaleString('en-US')}, kept ${(event.keptTokens ?? 0).toLocaleString('en-US')}`,
      );
    }
    events.push(event);
  };

  for (k = 0; k < n; k++) {
    const pos = callPos[k]!;
    const modelOfLog = base + prefixAll[pos]! - prefixAll[RL]! - realSaved;
    const modelOfSim = base + synth + prefixNon[pos]! - prefixNon[SL]! - simSaved;
    const S = recorded[k]! + modelOfSim - modelOfLog;
    const T = S + output[k]! + (run.countsPending ? pendingEstimate[k]! : 0);
    simulatedTokens[k] = S;
    checkTokens[k] = T;
    diverged[k] = differs ? 1 : 0;
    if (S >= run.blockingTokens) {
      if (!blocked) {
        const source = describeCall(k, false);
        events.push({
          kind: 'blocked',
          trigger: 'auto',
          afterApiCall: calls[k]!,
          afterCallPos: k,
          afterEntryIndex: entryBefore(callPos[k + 1]!),
          afterUuid: session.entries[entryBefore(callPos[k + 1]!)]?.uuid,
          checkTokens: S,
          thresholdTokens: run.blockingTokens,
          preTokens: S,
          postTokens: S,
          preSource: source,
          postSource: source,
          note: 'the simulated request reaches the blocking limit: Claude Code would refuse it ("prompt too long")',
        });
      }
      blocked = true;
    } else blocked = false;

    const boundaryPos = callPos[k + 1]!;
    view.callPos = k;
    view.apiCall = calls[k]!;
    view.contextTokens = S;
    view.usageTokens = S + output[k]!;
    view.pendingEstimate = pendingEstimate[k]!;
    view.checkTokens = T;
    view.boundaryPos = boundaryPos;
    view.liveFromPos = SL;
    view.clearableFrom = clearableFrom;
    view.clearableTo = lowerBound(clearables.pos, boundaryPos);
    view.carriedFiles = carried;
    view.clearedTokens = simSaved;
    view.manual = manualByCall.get(calls[k]!);
    // A compaction happens before the next request: after the last call there is none, unless
    // the user asks for one.
    const outcome = k + 1 < n || view.manual ? run.step(view) : undefined;
    // Provenance of the trigger count, taken before anything changes the history.
    const callSource =
      outcome?.actions.length || (realPtr < real.length && real[realPtr]!.afterCall <= k)
        ? describeCall(k, true)
        : undefined;
    if (outcome) {
      for (const action of outcome.actions) {
        if (action.kind === 'clear') applyClear(action, T, callSource!);
        else applySummarize(action, callSource!);
      }
    }

    // What the log did after this call.
    while (realPtr < real.length && real[realPtr]!.afterCall <= k) {
      const r = real[realPtr]!;
      if (r.kind === 'microcompact') {
        for (const i of r.cleared)
          if (clearables.pos[i]! >= RL) realSaved += Math.max(0, clearables.tokens[i]! - PLACEHOLDER_TOKENS);
        const reproduced = r.cleared.every((i) => simCleared[i] === 1);
        if (!reproduced) differs = true;
      } else {
        RL = r.boundaryPos;
        realSaved = 0;
        if (r.trigger !== 'auto') {
          if (run.allowsManualCompaction && adoptedReal !== realPtr) {
            const pre = checkTokens[k]!;
            adopt(realPtr);
            differs = false;
            events.push({
              kind: 'reset',
              trigger: 'log',
              afterApiCall: calls[k]!,
              afterCallPos: k,
              afterEntryIndex: entryBefore(r.boundaryPos),
              afterUuid: r.logicalParentUuid ?? session.entries[entryBefore(r.boundaryPos)]?.uuid,
              checkTokens: pre,
              thresholdTokens: 0,
              preTokens: pre,
              postTokens: base + r.artifactTokens,
              preSource: callSource!,
              postSource: describeAdopted(realPtr),
              summaryTokens: r.summaryTokens,
              summarySource: 'recorded',
              realCompactionIndex: r.compactionIndex,
              note: `manual /compact in the log (${r.trigger}): the replay continues from the log's post-compaction history`,
            });
          } else if (adoptedReal !== realPtr) differs = true;
        } else if (adoptedReal !== realPtr) differs = true;
        else differs = false;
      }
      realPtr++;
    }
  }

  const comparison = computeComparison(prepared, events, tolerance);
  return {
    strategyId: strategy.id,
    knobs: knobs as Record<string, KnobValue>,
    thresholds: strategy.thresholds(knobs),
    callIndex: calls.slice(),
    recordedTokens: recorded.slice(),
    simulatedTokens,
    checkTokens,
    diverged,
    events,
    clearedToolIds,
    summarizedRanges,
    comparison,
    baseTokens: base,
    notes: [],
    computeMs: performance.now() - t0,
  };
}

type Mutable<T> = { -readonly [P in keyof T]: T[P] };

function joinNotes(a: string | undefined, b: string): string {
  return a ? `${a}; ${b}` : b;
}
