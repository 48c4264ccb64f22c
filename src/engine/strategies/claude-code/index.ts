import { getSummaryRequestOverheadTokens } from '../../compact/build-request';
import { type ContinuationOptions, getContinuationOverheadTokens } from '../../compact/format-summary';
import {
  computeRestoration,
  EMPTY_RESTORATION,
  type Restoration,
  type RestorationInput,
  type RestoredItem,
  type RestoreLimits,
} from '../../compact/restore';
import { getKeepRecentCut, getSafeCut } from '../../simulation/cuts';
import { inspectMicrocompact } from './microcompact';
import { lowerBound } from '../../simulation/search';
import { CLEARABLE_DOCUMENT, CLEARABLE_IMAGE, type PreparedReplay } from '../../simulation/prepared';
import { computeThresholds } from '../../thresholds';
import { estimateTextTokens } from '../../tokens/estimate';
import type { TokenCount } from '../../types';
import { type ClaudeCodeKnobs, getClaudeCodeSessionKnobs } from './knobs';
import type {
  ClearingProbe,
  CompactionStrategy,
  ReplayView,
  StepOutcome,
  StrategyAction,
  StrategyRun,
} from '../types';
import { CLAUDE_CODE_DESCRIPTOR } from './descriptor';

// Claude Code's context management (v2.1.68 and legacy, per docs/sources.md):
//   after each response, the trigger count (usage, plus the 2.1.x estimate of later messages) is
//   compared with the thresholds (thresholds.ts):
//   - Claude Code 2.1.68 (docs/sources.md#cc-five-mechanisms, #cc-microcompact):
//     at the auto-compact threshold a full compaction (session memory first, edge case 7); else,
//     above the warning threshold, microcompact clears old tool results when that frees > 20k.
//     Both "can fire in the same turn" (edge case 6); a full compaction makes the clearing moot.
//   - legacy (docs/sources.md#ccs-main-dispatcher): at the
//     auto-compact threshold microcompact is tried first; a full compaction only when it fails.
//   Full compaction summarizes everything since the last boundary and re-attaches files, todos and
//   plan (compact/restore.ts). DISABLE_COMPACT stops everything, DISABLE_AUTO_COMPACT the automatic
//   compaction, DISABLE_MICROCOMPACT the clearing.

/** v2.1.68's placeholder for a cleared result ("Microcompact", step 5). */
export const V2168_PLACEHOLDER = '[Tool result cleared]';
/** The legacy placeholder (docs/sources.md#ccs-microcompact `Si`, step 5). */
export const LEGACY_PLACEHOLDER = '[Old tool result content cleared]';

type SummarizeAction = Extract<StrategyAction, { kind: 'summarize' }>;

function joinNote(a: string | undefined, b: string): string {
  return a ? `${a}; ${b}` : b;
}

/** The restoration limits of the knobs (compact/restore.ts). */
export function getRestoreLimits(k: ClaudeCodeKnobs): RestoreLimits {
  return {
    maxFiles: k.restoreMaxFiles,
    tokensPerFile: k.restoreTokensPerFile,
    totalTokens: k.restoreTotalTokens,
    oversized: k.restoreOversized,
    todos: k.restoreTodos,
    plan: k.restorePlan,
    skills: k.restoreSkills,
    tokensPerSkill: k.restoreTokensPerSkill,
    skillsTotalTokens: k.restoreSkillsTotalTokens,
    planModeTokens: k.planModeReminderTokens,
  };
}

/**
 * What step 7–8 re-attach besides files, todos and plan, at a boundary: every skill invoked so
 * far (a skill stays invoked across compactions), plan mode as the last Enter/ExitPlanMode left it,
 * the SessionStart hooks' output (the knob's size, else the log's).
 */
export function getRestorationExtras(
  prepared: PreparedReplay,
  boundaryPos: number,
  sessionStartTokens: TokenCount | undefined,
): Pick<RestorationInput, 'skills' | 'planMode' | 'sessionStartTokens'> {
  const { skills, planMode } = prepared;
  const n = lowerBound(skills.pos, boundaryPos);
  const list: RestoredItem[] = [];
  for (let i = 0; i < n; i++)
    list.push({ entryIndex: skills.entryIndex[i]!, tokens: skills.tokens[i]!, path: skills.names[i] });
  const m = lowerBound(planMode.pos, boundaryPos);
  return {
    skills: list,
    planMode: m > 0 && planMode.on[m - 1] === 1,
    sessionStartTokens: sessionStartTokens ?? prepared.sessionStartTokens,
  };
}

class ClaudeCodeRun implements StrategyRun {
  readonly allowsManualCompaction: boolean;
  /** The API's limit on a request's input: the context window's size in tokens. */
  private readonly windowTokens: TokenCount;
  readonly countsPending: boolean;
  readonly blockingTokens: TokenCount;
  private readonly autoThreshold: TokenCount;
  private readonly warningThreshold: TokenCount;
  private readonly eligible: Uint8Array;
  private readonly placeholderTokens: TokenCount;
  /** Σ estimate of eligible, not cleared items in [from, to) of the clearable list. */
  private liveEligibleSum = 0;
  private liveFrom = -1;
  private liveTo = 0;
  private readonly clearedHere: Uint8Array;

  constructor(
    private readonly knobs: ClaudeCodeKnobs,
    private readonly prepared: PreparedReplay,
  ) {
    const t = computeThresholds(knobs);
    this.autoThreshold = t.autoCompact;
    this.warningThreshold = t.warning;
    this.blockingTokens = t.blocking;
    this.windowTokens = t.contextWindow;
    this.allowsManualCompaction = !knobs.disableCompact;
    this.countsPending = knobs.countPendingMessages;
    const { clearables, toolNames } = prepared;
    const tools = new Set(knobs.microcompactTools);
    const toolOk = toolNames.map((name) => tools.has(name));
    const images = knobs.microcompactVariant === 'v2.1.68' && knobs.microcompactClearImages;
    this.eligible = new Uint8Array(clearables.pos.length);
    for (let i = 0; i < this.eligible.length; i++) {
      const tool = clearables.tool[i]!;
      this.eligible[i] =
        tool >= 0
          ? toolOk[tool]
            ? 1
            : 0
          : tool === CLEARABLE_IMAGE || tool === CLEARABLE_DOCUMENT
            ? images
              ? 1
              : 0
            : 0;
    }
    this.clearedHere = new Uint8Array(clearables.pos.length);
    this.placeholderTokens = estimateTextTokens(
      (knobs.microcompactVariant === 'v2.1.68' ? V2168_PLACEHOLDER : LEGACY_PLACEHOLDER).length,
    );
  }

  step(view: ReplayView): StepOutcome | undefined {
    const k = this.knobs;
    if (k.disableCompact) return undefined;
    if (view.manual) return { actions: [this.checkRequest(view, this.manualCompaction(view))] };
    const T = view.checkTokens;
    const auto = k.autoCompactEnabled && T >= this.autoThreshold;
    if (k.microcompactVariant === 'legacy') {
      if (!auto) return undefined;
      const clear = k.microcompactEnabled ? this.selectLegacy(view) : undefined;
      return { actions: [clear ?? this.checkRequest(view, this.autoCompaction(view))] };
    }
    // Microcompact looks at the latest response's usage (`ZK`, docs/sources.md#ccs-token-counting):
    // the 2.1.9–2.1.19 boundaries fire on it, not on the pending estimate (docs/replay-accuracy.md).
    const clear =
      k.microcompactEnabled && view.usageTokens >= this.warningThreshold ? this.selectV2168(view) : undefined;
    // Edge case 6: both can fire in the same turn, microcompact inline as the messages are
    // serialized, the full compaction after it, over the cleared history. The trigger count is
    // the usage (with the pending estimate), which the clearing does not lower.
    const actions: StrategyAction[] = [];
    if (clear) actions.push(clear);
    if (auto) actions.push(this.checkRequest(view, this.autoCompaction(view)));
    return actions.length > 0 ? { actions } : undefined;
  }

  /** Keeps `liveEligibleSum` in step with the view's live range and the clears it saw. */
  private syncLive(view: ReplayView): void {
    const { estimate } = this.prepared.clearables;
    if (view.clearableFrom !== this.liveFrom || view.clearableTo < this.liveTo) {
      this.liveFrom = view.clearableFrom;
      this.liveTo = view.clearableFrom;
      this.liveEligibleSum = 0;
    }
    for (let i = this.liveTo; i < view.clearableTo; i++) {
      if (this.eligible[i] && !view.isCleared(i)) this.liveEligibleSum += estimate[i]!;
    }
    this.liveTo = view.clearableTo;
  }

  private clearAction(
    view: ReplayView,
    items: number[],
    savings: number,
    threshold: number,
    note: string,
  ): StrategyAction {
    const { estimate } = this.prepared.clearables;
    for (const i of items) {
      this.clearedHere[i] = 1;
      this.liveEligibleSum -= estimate[i]!;
    }
    return {
      kind: 'clear',
      items,
      placeholderTokens: this.placeholderTokens,
      estimatedSavedTokens: savings,
      checkTokens: view.checkTokens,
      thresholdTokens: threshold,
      note,
    };
  }

  /** An eligible tool result, not cleared yet, in the live history (after the last boundary). */
  private isLiveEligible(view: ReplayView, i: number): boolean {
    const pos = this.prepared.clearables.pos[i]!;
    return this.eligible[i] === 1 && !view.isCleared(i) && pos >= view.liveFromPos && pos < view.boundaryPos;
  }

  /**
   * What microcompact would clear at this call, by `inspectMicrocompact` on the live eligible
   * results in call order (the list the incremental selections walk), and why it does not act.
   */
  probeClearing(view: ReplayView): ClearingProbe {
    const k = this.knobs;
    const { estimate, order, orderKey } = this.prepared.clearables;
    const considered: number[] = [];
    const endRank = lowerBound(orderKey, view.boundaryPos);
    for (let r = lowerBound(orderKey, view.liveFromPos); r < endRank; r++)
      if (this.isLiveEligible(view, order[r]!)) considered.push(order[r]!);
    const pick = inspectMicrocompact(
      considered.map((i) => estimate[i]!),
      {
        variant: k.microcompactVariant,
        keepRecent: k.microcompactKeepRecent,
        protectTokens: k.microcompactProtectTokens,
        minSavings: k.microcompactMinSavings,
      },
    );
    const auto = k.autoCompactEnabled && view.checkTokens >= this.autoThreshold;
    const legacy = k.microcompactVariant === 'legacy';
    const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
    const reason = k.disableCompact
      ? 'compaction is disabled (DISABLE_COMPACT)'
      : !k.microcompactEnabled
        ? 'microcompact is off in this version (the microcompactEnabled knob)'
        : legacy && !auto
          ? 'under the auto-compact threshold: the legacy microcompact is tried only there'
          : !legacy && auto
            ? 'the auto-compact threshold is reached: a full compaction runs, microcompact is tried only between the warning and the auto-compact thresholds'
            : !legacy && view.usageTokens < this.warningThreshold
              ? `the usage, ${fmt(view.usageTokens)}, is under the warning threshold, ${fmt(this.warningThreshold)}`
              : !pick.passes
                ? `the savings, ${fmt(pick.savings)}, do not pass the minimum, ${fmt(k.microcompactMinSavings)}`
                : undefined;
    return {
      mechanism: 'microcompact',
      considered,
      items: pick.clear.map((j) => considered[j]!),
      savings: pick.savings,
      minSavings: k.microcompactMinSavings,
      passes: pick.passes,
      acts: reason === undefined,
      reason,
      source: legacy ? 'docs/sources.md#ccs-microcompact' : 'docs/sources.md#cc-microcompact',
    };
  }

  /** v2.1.68 `Rg` (docs/sources.md#cc-microcompact), incrementally (same rules as `selectMicrocompact`), in call order. */
  private selectV2168(view: ReplayView): StrategyAction | undefined {
    this.syncLive(view);
    const k = this.knobs;
    const { estimate, order, orderKey } = this.prepared.clearables;
    const isLive = (i: number) => this.isLiveEligible(view, i);
    let seen = 0;
    let protectedTokens = 0;
    let cutRank = -1;
    const firstRank = lowerBound(orderKey, view.liveFromPos);
    for (let r = lowerBound(orderKey, view.boundaryPos) - 1; r >= firstRank; r--) {
      const i = order[r]!;
      if (!isLive(i)) continue;
      protectedTokens += estimate[i]!;
      seen++;
      if (seen <= k.microcompactKeepRecent) continue;
      if (protectedTokens > k.microcompactProtectTokens) {
        cutRank = r;
        break;
      }
    }
    if (cutRank < 0) return undefined;
    const savings = this.liveEligibleSum - (protectedTokens - estimate[order[cutRank]!]!);
    if (!(savings > k.microcompactMinSavings)) return undefined;
    const items: number[] = [];
    for (let r = firstRank; r <= cutRank; r++) if (isLive(order[r]!)) items.push(order[r]!);
    items.sort((a, b) => a - b);
    return this.clearAction(
      view,
      items,
      savings,
      this.warningThreshold,
      `above the warning threshold; ${items.length} results beyond the ${k.microcompactProtectTokens.toLocaleString('en-US')} most recent result tokens`,
    );
  }

  /** Legacy `Si`, incrementally (same rules as `selectMicrocompact`), in call order. */
  private selectLegacy(view: ReplayView): StrategyAction | undefined {
    this.syncLive(view);
    const k = this.knobs;
    const { estimate, order, orderKey } = this.prepared.clearables;
    const isLive = (i: number) => this.isLiveEligible(view, i);
    const firstRank = lowerBound(orderKey, view.liveFromPos);
    const endRank = lowerBound(orderKey, view.boundaryPos);
    let keepRank = endRank;
    let kept = 0;
    for (let r = endRank - 1; r >= firstRank && kept < k.microcompactKeepRecent; r--) {
      if (!isLive(order[r]!)) continue;
      keepRank = r;
      kept++;
    }
    if (kept < k.microcompactKeepRecent) keepRank = firstRank;
    const total = this.liveEligibleSum;
    let savings = 0;
    const items: number[] = [];
    for (let r = firstRank; r < keepRank; r++) {
      const i = order[r]!;
      if (!isLive(i)) continue;
      if (total - savings > k.microcompactProtectTokens) {
        items.push(i);
        savings += estimate[i]!;
      } else break;
    }
    items.sort((a, b) => a - b);
    if (savings < k.microcompactMinSavings) return undefined;
    return this.clearAction(
      view,
      items,
      savings,
      this.autoThreshold,
      'at the auto-compact threshold, tried before a full compaction',
    );
  }

  private restoration(view: ReplayView): Restoration {
    const k = this.knobs;
    const { fileAccesses, todos, plans } = this.prepared;
    const from = lowerBound(fileAccesses.pos, view.liveFromPos);
    const to = lowerBound(fileAccesses.pos, view.boundaryPos);
    const lastBefore = (
      pos: Int32Array,
      tokens: Float64Array,
      entryIndex: Int32Array,
      paths?: (string | undefined)[],
    ): RestoredItem | undefined => {
      const i = lowerBound(pos, view.boundaryPos) - 1;
      if (i < 0 || !(tokens[i]! > 0)) return undefined;
      return { entryIndex: entryIndex[i]!, tokens: tokens[i]!, path: paths?.[i] };
    };
    return computeRestoration({
      accesses: fileAccesses.list.slice(from, to),
      carried: view.carriedFiles,
      todo: lastBefore(todos.pos, todos.tokens, todos.entryIndex),
      plan: lastBefore(plans.pos, plans.tokens, plans.entryIndex, plans.paths),
      ...getRestorationExtras(this.prepared, view.boundaryPos, k.sessionStartHookTokens),
      limits: getRestoreLimits(k),
    });
  }

  private continuation(auto: boolean, partial: boolean): Omit<ContinuationOptions, 'transcriptPath'> {
    return { format: this.knobs.continuationFormat, auto, partial };
  }

  private overhead(options: Omit<ContinuationOptions, 'transcriptPath'>): TokenCount {
    return getContinuationOverheadTokens({ ...options, transcriptPath: this.prepared.transcriptPath });
  }

  /**
   * The summary request must fit the window itself: the history it summarizes, the prompt and the
   * system prompt. Over it, the API answers "prompt too long" and Claude Code gives up: /compact
   * says the context is too large to compact, auto-compact "silently returns { wasCompacted: false }"
   * and the session goes on with its history (Claude Code 2.1.68 (docs/sources.md#cc-edge-cases edge cases 4 and 5); `sI2` swallows
   * prompt_too_long, docs/sources.md#ccs-main-dispatcher). Session memory sends none.
   */
  private checkRequest(view: ReplayView, action: SummarizeAction): StrategyAction {
    if (action.mechanism === 'session-memory') return action;
    const span = view.getSpanTokens(action.keepFromPos, action.keepDirection);
    const requestTokens =
      span + getSummaryRequestOverheadTokens(action.requestVariant, action.customInstructions);
    if (requestTokens <= this.windowTokens) return action;
    const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
    return {
      kind: 'fail',
      failure: 'prompt-too-long',
      mechanism: action.mechanism,
      trigger: action.trigger,
      checkTokens: action.checkTokens,
      thresholdTokens: action.thresholdTokens,
      requestTokens,
      limitTokens: this.windowTokens,
      note:
        action.trigger === 'auto'
          ? `the summary request (${fmt(requestTokens)} tokens) is over the ${fmt(this.windowTokens)}-token window: prompt too long; auto-compact gives up without a word and the session goes on with its history, trying again after each call`
          : `the summary request (${fmt(requestTokens)} tokens) is over the ${fmt(this.windowTokens)}-token window: /compact fails ("context too large to compact") and the history stays`,
    };
  }

  /** Claude Code 2.1.68 (docs/sources.md#cc-full-mechanism): session memory when it fits (step 3, edge case 7), else the LLM summary. */
  private autoCompaction(view: ReplayView): SummarizeAction {
    const k = this.knobs;
    const restoration = this.restoration(view);
    let note: string | undefined;
    if (k.sessionMemoryTokens !== undefined && k.sessionMemoryTokens > 0 && k.agentRole !== 'subagent') {
      const keepFromPos =
        k.sessionMemoryKeepTokens > 0
          ? getKeepRecentCut(this.prepared, k.sessionMemoryKeepTokens, view.liveFromPos, view.boundaryPos)
          : undefined;
      const partial = keepFromPos !== undefined && keepFromPos < view.boundaryPos;
      const continuation = this.continuation(true, partial);
      const post = view.estimatePostTokens(
        k.sessionMemoryTokens + this.overhead(continuation),
        restoration.totalTokens,
        partial ? keepFromPos : undefined,
      );
      if (post < this.autoThreshold) {
        return {
          kind: 'summarize',
          mechanism: 'session-memory',
          trigger: 'auto',
          checkTokens: view.checkTokens,
          thresholdTokens: this.autoThreshold,
          restoration,
          keepFromPos: partial ? keepFromPos : undefined,
          keepDirection: 'up-to',
          summaryTokens: k.sessionMemoryTokens,
          continuation,
          requestVariant: 'full',
          customInstructions: k.customInstructions,
        };
      }
      note = `session memory would leave ${post.toLocaleString('en-US')} tokens, not under the threshold: fell through to a full compaction (edge case 7)`;
    }
    const subagent = k.agentRole === 'subagent';
    return {
      kind: 'summarize',
      mechanism: 'full',
      trigger: 'auto',
      checkTokens: view.checkTokens,
      thresholdTokens: this.autoThreshold,
      // "Sub-agent compact": Prompt 3 over the sub-agent's own history; the reference's
      // re-attachments (step 7) are the main flow's (bG6).
      restoration: subagent ? EMPTY_RESTORATION : restoration,
      continuation: this.continuation(true, false),
      requestVariant: subagent ? 'subagent' : 'full',
      customInstructions: k.customInstructions,
      note: subagent ? joinNote(note, 'sub-agent compact before its next turn (Prompt 3)') : note,
    };
  }

  /** `/compact` at a call the user picked: full, or partial around a message. */
  private manualCompaction(view: ReplayView): SummarizeAction {
    const request = view.manual!;
    const custom = request.customInstructions ?? this.knobs.customInstructions;
    const restoration = this.restoration(view);
    let note: string | undefined;
    if (request.mechanism === 'partial' && request.pivotEntryIndex !== undefined) {
      const { posOfEntry, ctxEntry } = this.prepared;
      let pivot = posOfEntry[request.pivotEntryIndex] ?? -1;
      if (pivot < 0) pivot = lowerBound(ctxEntry, request.pivotEntryIndex);
      const cut = getSafeCut(this.prepared, pivot, view.liveFromPos, view.boundaryPos);
      if (cut > view.liveFromPos && cut < view.boundaryPos) {
        const direction = request.direction ?? 'up-to';
        return {
          kind: 'summarize',
          mechanism: 'partial',
          trigger: 'manual',
          checkTokens: view.checkTokens,
          thresholdTokens: this.autoThreshold,
          restoration,
          keepFromPos: cut,
          keepDirection: direction,
          continuation: this.continuation(false, true),
          // 'up-to' summarizes the earlier part: Prompt 1 over it; 'from' is Prompt 2's case.
          requestVariant: direction === 'from' ? 'partial' : 'full',
          customInstructions: custom,
        };
      }
      // Nothing would be left on one side of the cut (the pivot is at the last boundary or the
      // first safe cut is past the call): Claude Code's partial needs both parts, so a full one.
      note = `partial ${request.direction ?? 'up-to'} entry ${request.pivotEntryIndex + 1} leaves nothing on one side (the live history since the last boundary, tool pairs whole): compacted in full`;
    }
    return {
      kind: 'summarize',
      mechanism: 'full',
      trigger: 'manual',
      note,
      checkTokens: view.checkTokens,
      thresholdTokens: this.autoThreshold,
      restoration,
      continuation: this.continuation(false, false),
      requestVariant: 'full',
      customInstructions: custom,
    };
  }
}

export const CLAUDE_CODE_STRATEGY: CompactionStrategy<ClaudeCodeKnobs> = {
  ...CLAUDE_CODE_DESCRIPTOR,
  getSessionKnobs: getClaudeCodeSessionKnobs,
  createRun: (knobs, prepared) => new ClaudeCodeRun(knobs, prepared),
};
