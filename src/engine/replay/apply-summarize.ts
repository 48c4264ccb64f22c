import { getContinuationOverheadTokens } from '../compact/format-summary';
import type { StrategyAction } from '../strategies/types';
import type { TokenCount } from '../types';
import { createTokenProvenance, withStrategyCount } from './provenance';
import { joinNotes, type ReplayState } from './replay-state';
import type { CompactEvent, EventRequestSpec, TokenProvenance } from './types';

// One operation of the replay state (replay-state.ts): a strategy's summary after call k. The
// span it replaces, the request it would send, and the history after it: the log's own where
// the log compacted at this very call (its summary and re-attachments adopted), else the
// simulated summary, re-attachments and kept messages.

type SummarizeAction = Extract<StrategyAction, { kind: 'summarize' }>;

/** The real auto-compaction at call k, or within the tolerance (`near`). */
function findRealAuto(
  state: ReplayState,
  k: number,
  action: SummarizeAction,
): { exact?: number; near?: number } {
  if (action.trigger !== 'auto') return {};
  const exact = state.realAutoByCall.get(k);
  let near = exact;
  for (let d = 1; d <= state.options.toleranceCalls && near === undefined; d++)
    near = state.realAutoByCall.get(k + d) ?? state.realAutoByCall.get(k - d);
  return { exact, near };
}

export function applySummarize(
  state: ReplayState,
  k: number,
  boundary: number,
  action: SummarizeAction,
  preSource: TokenProvenance,
): void {
  const { prepared, history } = state;
  const { ctxEntry, real, baseTokens: base } = prepared;
  const { model } = state.options;
  const oldFrom = history.liveFrom;
  const { exact: exactReal, near: nearReal } = findRealAuto(state, k, action);
  const keepUpTo = action.keepFromPos !== undefined && action.keepDirection === 'up-to';
  const keepFrom = action.keepFromPos !== undefined && action.keepDirection === 'from';
  const spanEnd = keepUpTo ? action.keepFromPos! : boundary;
  const spanStart = keepFrom ? action.keepFromPos! : oldFrom;
  const previousInSpan = spanStart === oldFrom ? history.syntheticTokens : 0;
  const spanTokens = previousInSpan + history.liveTokens(spanStart, spanEnd);
  const request: EventRequestSpec = {
    variant: action.requestVariant,
    fromEntryIndex: ctxEntry[spanStart] ?? state.entryBefore(boundary),
    uptoEntryIndex: state.entryBefore(spanEnd),
    keepFromEntryIndex: keepFrom ? ctxEntry[action.keepFromPos!] : undefined,
    customInstructions: action.customInstructions,
    previousSummaryTokens: spanStart === oldFrom ? history.previousSummaryTokens : undefined,
    excludeEntryIndices: state.excludedArtifacts(spanStart, spanEnd),
  };
  if (action.promptPresetId !== undefined) request.promptPresetId = action.promptPresetId;
  const event: CompactEvent = {
    kind: 'compact',
    mechanism: action.mechanism,
    trigger: action.trigger,
    ...state.eventHead(k, boundary),
    checkTokens: action.checkTokens,
    thresholdTokens: action.thresholdTokens,
    preTokens: action.checkTokens,
    postTokens: 0,
    // The count the strategy compared (Codex adds its estimate of earlier reasoning): its parts
    // summed to the replay's count, 2,712 short of Codex's on a real rollout.
    preSource: withStrategyCount(preSource, action.checkTokens),
    postSource: preSource,
    spanFromEntryIndex: request.fromEntryIndex,
    spanToEntryIndex: request.uptoEntryIndex,
    spanTokens,
    request,
    note: action.note,
    llmCalls: action.llmCalls ?? (action.mechanism === 'session-memory' ? 0 : 1),
  };
  if (action.hide && spanEnd > spanStart)
    event.hidden = {
      tag: 'condense',
      fromEntryIndex: request.fromEntryIndex,
      toEntryIndex: request.uptoEntryIndex,
      entries: state.countLive(spanStart, spanEnd),
      tokens: spanTokens,
    };
  if (action.detail) event.detail = action.detail;
  if (action.countParts) event.countParts = action.countParts;
  if (spanEnd > spanStart) state.summarizedRanges.push([ctxEntry[spanStart]!, ctxEntry[spanEnd - 1]!]);

  if (exactReal !== undefined && model.id === 'recorded' && action.mechanism !== 'session-memory') {
    // The log compacted right here: continue from its own post-compaction history.
    const r = real[exactReal]!;
    history.adopt(exactReal);
    event.summaryTokens = r.summaryTokens;
    event.summarySource = 'recorded';
    event.realCompactionIndex = r.compactionIndex;
    event.postTokens = base + r.artifactTokens;
    event.postSource = state.describeAdopted(exactReal);
    event.reattachedTokens = Math.max(0, r.artifactTokens - (r.summaryTokens ?? 0));
    event.reattachedSource = 'recorded';
    event.note = joinNotes(
      event.note,
      "the log compacted after this call: the replay continues from the log's own summary and re-attachments",
    );
  } else {
    const supplied = state.options.suppliedSummaryTokens?.[prepared.calls[k]!];
    const near = nearReal === undefined || model.id !== 'recorded' ? undefined : real[nearReal];
    let summaryTokens: TokenCount;
    let continuationTokens =
      action.summaryOverheadTokens ??
      getContinuationOverheadTokens({ ...action.continuation, transcriptPath: prepared.transcriptPath });
    let reattachedTokens = action.restoration.totalTokens;
    event.reattachedSource = 'computed';
    if (action.summaryTokens !== undefined) {
      summaryTokens = action.summaryTokens;
      event.summarySource = action.summarySource ?? 'session-memory';
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
    if (action.summaryMaxTokens !== undefined && summaryTokens > action.summaryMaxTokens) {
      event.note = joinNotes(
        event.note,
        `summary cut to its ${action.summaryMaxTokens.toLocaleString('en-US')}-token max_tokens (${summaryTokens.toLocaleString('en-US')} before)`,
      );
      summaryTokens = action.summaryMaxTokens;
    }
    event.summaryTokens = summaryTokens;
    event.continuationTokens = continuationTokens;
    if (continuationTokens > 0 && action.summaryOverheadTokens !== undefined && action.summaryOverheadSource)
      event.continuationSource = action.summaryOverheadSource;
    event.restored = action.restoration;
    event.reattachedTokens = reattachedTokens;
    if (keepFrom) {
      event.keptFromEntryIndex = ctxEntry[oldFrom];
      event.keptTokens = history.syntheticTokens + history.liveTokens(oldFrom, action.keepFromPos!);
    }
    // Re-sent verbatim from wherever they were: frozen with the summary like a 'from' part.
    if (action.keptMessages) event.keptTokens = (event.keptTokens ?? 0) + action.keptMessages.tokens;
    history.summarize({
      boundaryPos: boundary,
      keepFromPos: action.keepFromPos,
      keepDirection: action.keepDirection,
      summaryTokens,
      summarySource: event.summarySource,
      overheadTokens: continuationTokens,
      restoredTokens: reattachedTokens,
      keptMessageTokens: action.keptMessages?.tokens,
      restoredFiles: action.restoration.files,
    });
    if (keepUpTo) {
      event.keptFromEntryIndex = ctxEntry[action.keepFromPos!];
      event.keptTokens = history.liveTokens(action.keepFromPos!, boundary);
    }
    state.differs = true;
    const live = history.liveTokens(history.liveFrom, boundary);
    event.postTokens = base + history.syntheticTokens + live;
    const post = createTokenProvenance('attributed');
    state.addSynthetic(post);
    state.addMessages(post, history.liveFrom, boundary);
    // The falls of the usage in the live range count with the usage correction, not as cleared.
    const falls = history.droppedByUsage(boundary);
    post.correctionTokens = -falls;
    post.clearedTokens = prepared.prefixNon[boundary]! - prepared.prefixNon[history.liveFrom]! - live - falls;
    event.postSource = post;
  }
  // Said the same for every strategy: Claude Code's name for it (`tengu_sm_compact_threshold_exceeded`,
  // types.ts) stood in the note of pi's and Codex's replays too.
  if (event.postTokens >= action.thresholdTokens) {
    event.failure = 'over-threshold';
    event.note = joinNotes(
      event.note,
      `still ${event.postTokens.toLocaleString('en-US')} tokens after compacting, not under the ${action.thresholdTokens.toLocaleString('en-US')} threshold: system prompt and tools ≈ ${base.toLocaleString('en-US')}, summary ${event.summaryTokens?.toLocaleString('en-US') ?? '?'}, re-attached ${(event.restored?.totalTokens ?? 0).toLocaleString('en-US')}, kept ${(event.keptTokens ?? 0).toLocaleString('en-US')}; the strategy's next check fires again`,
    );
  }
  state.events.push(event);
}
