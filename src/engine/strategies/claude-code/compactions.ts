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
import type { PreparedReplay } from '../../simulation/prepared';
import { lowerBound } from '../../simulation/search';
import type { TokenCount } from '../../types';
import type { ReplayView, StrategyAction } from '../types';
import type { ClaudeCodeKnobs } from './knobs';

// Claude Code's summarizing operations, one named method each: the automatic compaction
// (session memory when it fits, else the LLM summary; a sub-agent's Prompt 3), `/compact` full or
// partial, the check that the summary request fits the window, and what a compaction re-attaches
// (docs/sources.md#cc-full-mechanism). The run (index.ts) decides when; this file decides what.

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

/** The summarizing actions of one run, at its knobs. */
export class ClaudeCodeCompactions {
  constructor(
    private readonly knobs: ClaudeCodeKnobs,
    private readonly prepared: PreparedReplay,
    /** The auto-compact threshold the run's actions name. */
    private readonly autoThreshold: TokenCount,
    /** The API's limit on a request's input: the context window's size in tokens. */
    private readonly windowTokens: TokenCount,
  ) {}

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
  checkRequest(view: ReplayView, action: SummarizeAction): StrategyAction {
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
  autoCompaction(view: ReplayView): SummarizeAction {
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
  manualCompaction(view: ReplayView): SummarizeAction {
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
