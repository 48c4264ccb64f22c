import { getLogWindow } from '../session-window';
import type { Restoration } from '../../compact/restore';
import { PLACEHOLDER_TOKENS, type PreparedReplay } from '../../simulation/prepared';
import { lowerBound } from '../../simulation/search';
import { getPositionFacts } from '../../simulation/turns';
import { estimateTextTokens } from '../../tokens/estimate';
import type { TokenCount } from '../../types';
import { getProfile, pickProfile } from '../version-profile';
import type {
  ClearingProbe,
  CompactionStrategy,
  ReplayView,
  StepOutcome,
  StrategyAction,
  StrategyRun,
} from '../types';
import { OPENCODE_DEFAULT_KNOBS, OPENCODE_PROFILES, OPENCODE_SOURCE, type OpenCodeKnobs } from './knobs';

export type { OpenCodeKnobs } from './knobs';
import { OPENCODE } from './prompt';
import { OPENCODE_DESCRIPTOR, getOpenCodeUsable } from './descriptor';

// OpenCode's context management (docs/sources.md#opencode, #agents-simulate-first; sources there:
// anomalyco/opencode `packages/opencode/src/session/compaction.ts` and `overflow.ts`). Two steps,
// both replayed:
//   - prune (`SessionCompaction.prune`, no LLM): when the agent's turn ends, walk the history back
//     from the newest message, skipping the last 2 user turns; stop at a summary or at an output
//     already pruned; skip protected tools (`PRUNE_PROTECTED_TOOLS = ["skill"]`); add each
//     completed tool output's estimate (chars / 4) to a total, and once the total is over
//     `PRUNE_PROTECT` (40,000) the output is marked for pruning (the crossing one included). Only
//     when more than `PRUNE_MINIMUM` (20,000) tokens are marked are they pruned: each output is sent
//     as "[Old tool result content cleared]" from then on (the `clear` action);
//   - compaction (`isOverflow`, after each step): the last response's tokens (input + output +
//     cache read + cache write) ≥ usable, where usable = `limit.input` − reserved when the model
//     states an input limit (reserved = `compaction.reserved` ?? min(20,000, max output)), else
//     `limit.context` − max output. The whole history becomes the compaction prompt, the summary
//     (an assistant message marked `summary: true`) and an automatic "continue" (`summarize`).
//   - stall guard (`overflow.ts` `autoCompactStalled`): when the response after an auto-compaction
//     is still over the limit and reports ≥ 95% of the tokens that triggered it, the compaction
//     made no progress (the configured window is larger than what the provider serves) and
//     auto-compaction stops instead of looping.
// On an OpenCode log (parse/dialects/opencode.ts) its prunes and compactions are the real events the
// replay is compared with; on any log the window and max output are the log's.

/**
 * The summary's own messages besides its text: the compaction request's user message and the
 * automatic continue OpenCode sends after it (their wording is OpenCode's; sized here, not sent).
 */
const OPENCODE_SUMMARY_OVERHEAD_TOKENS: TokenCount = estimateTextTokens(
  'What did we do so far?'.length +
    'Continue if you have next steps, or stop and ask for clarification if you are unsure how to proceed.'
      .length,
);

const NO_RESTORATION: Restoration = { files: [], overBudget: [], totalTokens: 0 };

interface PruneSelection {
  /** Indices into `prepared.clearables`, ascending. */
  items: number[];
  /** Tokens marked (OpenCode's `pruned`) and seen (`total`). */
  prunedTokens: TokenCount;
  totalTokens: TokenCount;
  /** The first position of the protected user turns (the walk starts before it). */
  protectFromPos: number;
}

/**
 * `SessionCompaction.prune`'s walk over the live history [liveFrom, endPos): the items it would
 * prune, or undefined when it would prune nothing (too few turns, or not more than the minimum).
 */
export function selectOpenCodePrune(
  prepared: PreparedReplay,
  knobs: OpenCodeKnobs,
  liveFromPos: number,
  endPos: number,
  isCleared: (item: number) => boolean,
): PruneSelection | undefined {
  const walk = inspectOpenCodePrune(prepared, knobs, liveFromPos, endPos, isCleared);
  if (!walk.enoughTurns || !walk.passes) return undefined;
  const { items, prunedTokens, totalTokens, protectFromPos } = walk;
  return { items, prunedTokens, totalTokens, protectFromPos };
}

/**
 * The same walk, whatever its outcome (learn mode's attempt step): the outputs it looks at, newest
 * first reversed to oldest first (`seen`), those it would prune, and whether it would act.
 */
function inspectOpenCodePrune(
  prepared: PreparedReplay,
  knobs: OpenCodeKnobs,
  liveFromPos: number,
  endPos: number,
  isCleared: (item: number) => boolean,
): PruneSelection & { seen: number[]; enoughTurns: boolean; passes: boolean } {
  const { userTurnPos } = getPositionFacts(prepared);
  const { pos, tool, estimate } = prepared.clearables;
  // The last `protectTurns` user turns before endPos (and everything after them) are skipped.
  const turnEnd = lowerBound(userTurnPos, endPos);
  const turnStart = lowerBound(userTurnPos, liveFromPos);
  if (turnEnd - turnStart < knobs.protectTurns)
    return {
      items: [],
      seen: [],
      prunedTokens: 0,
      totalTokens: 0,
      protectFromPos: endPos,
      enoughTurns: false,
      passes: false,
    };
  const protectFromPos = knobs.protectTurns === 0 ? endPos : userTurnPos[turnEnd - knobs.protectTurns]!;
  const protectedTools = new Set(knobs.protectedTools.map((t) => t.toLowerCase()));
  const items: number[] = [];
  const seen: number[] = [];
  let total = 0;
  let pruned = 0;
  for (let i = lowerBound(pos, protectFromPos) - 1; i >= 0 && pos[i]! >= liveFromPos; i--) {
    const t = tool[i]!;
    // Tool outputs only: an image a person pasted is not a tool part.
    if (t < 0) continue;
    if (protectedTools.has(prepared.toolNames[t]!.toLowerCase())) continue;
    // An output already pruned: everything older was pruned with it.
    if (isCleared(i)) break;
    const e = estimate[i]!;
    seen.push(i);
    total += e;
    if (total > knobs.pruneProtectTokens) {
      pruned += e;
      items.push(i);
    }
  }
  return {
    items: items.reverse(),
    seen: seen.reverse(),
    prunedTokens: pruned,
    totalTokens: total,
    protectFromPos,
    enoughTurns: true,
    passes: pruned > knobs.pruneMinimumTokens,
  };
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

class OpenCodeRun implements StrategyRun {
  readonly allowsManualCompaction = true;
  readonly countsPending = false;
  readonly blockingTokens: TokenCount;
  private readonly usable: TokenCount;
  private readonly userTurnPos: Int32Array;
  /** The trigger count of the last auto-compaction, until the response after it is checked. */
  private previousTrigger: TokenCount | undefined;
  private stalled = false;
  /**
   * On an OpenCode log, the calls that are the log's own compaction requests: OpenCode sends the
   * summary request as one more step of the session (compaction.ts `process`, the history plus the
   * compaction prompt), logged as the `summary: true` assistant message the dialect places the
   * compaction after. An overflow found just before such a call is compacted by that call.
   */
  private readonly summaryRequests = new Set<number>();

  constructor(
    private readonly knobs: OpenCodeKnobs,
    private readonly prepared: PreparedReplay,
  ) {
    this.usable = getOpenCodeUsable(knobs);
    this.blockingTokens = knobs.inputLimit > 0 ? knobs.inputLimit : knobs.contextLimit;
    this.userTurnPos = getPositionFacts(prepared).userTurnPos;
    if (prepared.session.format === 'opencode')
      for (const r of prepared.real)
        if (r.kind === 'compact' && r.afterCall >= 0) this.summaryRequests.add(r.afterCall);
  }

  step(view: ReplayView): StepOutcome | undefined {
    const actions: StrategyAction[] = [];
    const prune = this.prune(view);
    if (prune) actions.push(prune);
    const count = view.usageTokens;
    if (view.manual) {
      actions.push(this.compaction(view, 'manual'));
      return { actions };
    }
    const overflow = this.knobs.autoCompact && !this.stalled && count >= this.usable;
    if (this.previousTrigger !== undefined) {
      // `autoCompactStalled`: the response after an auto-compaction, still over the limit.
      if (overflow && count > this.previousTrigger * (this.knobs.stallPercent / 100)) this.stalled = true;
      this.previousTrigger = undefined;
    }
    // The next call is the log's summary request: the compaction it answers follows that call.
    if (overflow && !this.stalled && !this.summaryRequests.has(view.callPos + 1)) {
      actions.push(this.compaction(view, 'auto'));
      this.previousTrigger = count;
    }
    return actions.length ? { actions } : undefined;
  }

  /**
   * The prune at this call, acting or not: over the history up to the turn that ends here, or up
   * to the next request when no turn ends (prune runs only when one does).
   */
  probeClearing(view: ReplayView): ClearingProbe {
    const k = this.knobs;
    const endPos = this.turnEndPos(view);
    const walk = inspectOpenCodePrune(
      this.prepared,
      k,
      view.liveFromPos,
      endPos ?? view.boundaryPos,
      view.isCleared,
    );
    const reason = !k.prune
      ? 'pruning is off (compaction.prune)'
      : endPos === undefined
        ? 'the agent’s turn does not end at this call: prune runs when a turn ends'
        : !walk.enoughTurns
          ? `the history holds fewer than ${k.protectTurns} user turns`
          : !walk.passes
            ? `it would free ${fmt(walk.prunedTokens)}, not more than the minimum, ${fmt(k.pruneMinimumTokens)}`
            : undefined;
    return {
      mechanism: 'prune',
      considered: walk.seen,
      items: walk.items,
      savings: walk.prunedTokens,
      minSavings: k.pruneMinimumTokens,
      passes: walk.passes,
      acts: reason === undefined,
      reason,
      source: `${OPENCODE_SOURCE}/compaction.ts, SessionCompaction.prune)`,
    };
  }

  /** Where the agent's turn ends, when it ends before the next call: a user turn starts. */
  private turnEndPos(view: ReplayView): number | undefined {
    const { callPos } = this.prepared;
    const next = lowerBound(this.userTurnPos, callPos[view.callPos]! + 1);
    if (next >= this.userTurnPos.length || this.userTurnPos[next]! >= view.boundaryPos) return undefined;
    return this.userTurnPos[next]!;
  }

  /** Prune when the agent's turn ends: a user turn starts before the next call. */
  private prune(view: ReplayView): StrategyAction | undefined {
    if (!this.knobs.prune) return undefined;
    const endPos = this.turnEndPos(view);
    if (endPos === undefined) return undefined;
    const selection = selectOpenCodePrune(
      this.prepared,
      this.knobs,
      view.liveFromPos,
      endPos,
      view.isCleared,
    );
    if (!selection) return undefined;
    return {
      kind: 'clear',
      items: selection.items,
      placeholderTokens: PLACEHOLDER_TOKENS,
      estimatedSavedTokens: selection.prunedTokens,
      // The prune's own test: the tokens it would free against its minimum.
      checkTokens: selection.prunedTokens,
      thresholdTokens: this.knobs.pruneMinimumTokens,
      note: `turn ended: prune ${selection.items.length} tool outputs (${fmt(selection.prunedTokens)} tokens > ${fmt(this.knobs.pruneMinimumTokens)}) older than the newest ${fmt(this.knobs.pruneProtectTokens)} tokens of tool output and the last ${this.knobs.protectTurns} user turns`,
    };
  }

  private compaction(view: ReplayView, trigger: 'auto' | 'manual'): StrategyAction {
    const summary = view.getSummaryTokens('full') + OPENCODE_SUMMARY_OVERHEAD_TOKENS;
    const post = view.estimatePostTokens(summary, 0);
    const count = view.usageTokens;
    const stallLine = count * (this.knobs.stallPercent / 100);
    const notes = [
      trigger === 'auto'
        ? `${fmt(count)} tokens (last response: input + output) ≥ usable ${fmt(this.usable)}`
        : '/compact: the whole history summarized (OpenCode has no partial compaction)',
    ];
    if (trigger === 'auto' && post + view.pendingEstimate >= stallLine)
      notes.push(
        `about ${fmt(post)} tokens left: if the next response still reports over ${fmt(stallLine)}, the stall guard stops auto-compaction`,
      );
    return {
      kind: 'summarize',
      mechanism: 'full',
      trigger,
      checkTokens: count,
      thresholdTokens: this.usable,
      restoration: NO_RESTORATION,
      continuation: { format: 'v2.1.68', auto: trigger === 'auto' },
      summaryOverheadTokens: OPENCODE_SUMMARY_OVERHEAD_TOKENS,
      summaryOverheadSource:
        'the compaction request’s user message and the automatic “Continue if you have next steps…” after the summary, at 4 characters per token',
      requestVariant: 'full',
      promptPresetId: OPENCODE.id,
      customInstructions: view.manual?.customInstructions,
      note: notes.join('; '),
    };
  }
}

export const OPENCODE_STRATEGY: CompactionStrategy<OpenCodeKnobs> = {
  ...OPENCODE_DESCRIPTOR,
  getSessionKnobs: (info) => {
    const pick = pickProfile(OPENCODE_PROFILES, info, 'OpenCode', ['opencode']);
    const knobs: OpenCodeKnobs = {
      ...OPENCODE_DEFAULT_KNOBS,
      profile: pick.profile.id,
      prune: pick.profile.id === 'early-2026',
    };
    const notes: string[] = [
      pick.note,
      knobs.prune
        ? 'Prune on (compaction.prune unset means on in this release).'
        : `Prune off: ${getProfile(OPENCODE_PROFILES, knobs.profile).label.split(':')[1]?.trim() ?? ''}; set it on to replay a configured prune.`,
    ];
    const logWindow = getLogWindow(info, {
      fallback: knobs.contextLimit,
      fallbackNote: `The log shows no window: a ${fmt(knobs.contextLimit)}-token model with ${fmt(knobs.maxOutputTokens)} of output.`,
    });
    knobs.contextLimit = logWindow.tokens;
    notes.push(logWindow.note);
    if (logWindow.inference) {
      const logged = logWindow.inference.maxOutputTokens;
      knobs.maxOutputTokens = Math.min(32_000, Math.max(1_000, logged));
      notes.push(
        `${logWindow.inference.reasons[1] ?? `Max output ${fmt(logged)}, inferred.`}${knobs.maxOutputTokens !== logged ? ` OpenCode caps it at OUTPUT_TOKEN_MAX: ${fmt(knobs.maxOutputTokens)}.` : ''}`,
      );
    }
    notes.push(
      `Compacts at ${fmt(getOpenCodeUsable(knobs))} (limit − max output; the model states no input limit).`,
    );
    if (info.format === 'opencode') {
      // OpenCode's messages name the model (modelID, providerID) but not its limits, which come
      // from models.dev: the window is the one the model id and the log's peak imply.
      notes.push(
        `An OpenCode session${info.models.length ? ` (${info.models.join(', ')})` : ''}: its prunes (outputs with time.compacted) and compactions (a compaction part answered by a summary) are compared with the replay's; the summary request the log records is the call each compaction follows.`,
      );
    } else notes.push('The log is not an OpenCode session, so its compactions are not expected to match.');
    return { knobs, notes };
  },
  createRun: (knobs, prepared) => new OpenCodeRun(knobs, prepared),
};
