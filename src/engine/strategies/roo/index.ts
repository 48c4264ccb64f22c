import { getLogWindow } from '../session-window';
import type { Restoration } from '../../compact/restore';
import { getSafeCut } from '../../simulation/cuts';
import { getMessageRangePositions } from '../../simulation/message-pairs';
import type { PreparedReplay } from '../../simulation/prepared';
import { getMaxOutputForModel } from '../../parse/context-window';
import { estimateTextTokens } from '../../tokens/estimate';
import type { TokenCount } from '../../types';
import type { CompactionStrategy, ReplayView, StepOutcome, StrategyAction, StrategyRun } from '../types';
import { ROO } from './prompt';
import {
  DEFAULTS,
  ROO_DEFAULT_MAX_TOKENS,
  ROO_DESCRIPTOR,
  type RooKnobs,
  getRooAllowedTokens,
  getRooEffectivePercent,
} from './descriptor';

// Roo Code's context management (docs/sources.md#roo, #agents-simulate-first; code: RooCodeInc/Roo-Code src/core/context-management/index.ts `manageContext`,
// `truncateConversation`, `willManageContext`; src/core/condense/index.ts `summarizeConversation`,
// `getEffectiveApiHistory`; src/core/task/Task.ts `attemptApiRequest`; src/shared/api.ts
// `getModelMaxOutputTokens`):
//   - before each request, `prevContextTokens` = the previous request's total (tokensIn, cache
//     included, + tokensOut: consolidateTokenUsage.ts) + the last message's tokens (the results or
//     prompt about to be sent);
//   - `allowedTokens` = window × (1 − TOKEN_BUFFER_PERCENTAGE 0.1) − maxTokens (the reserved
//     output: `maxTokens || ANTHROPIC_DEFAULT_MAX_TOKENS` 8,192);
//   - with `autoCondenseContext` (on by default) it condenses when the context is at or over
//     `autoCondenseContextPercent` of the window (100 by default; a profile's own threshold in
//     `profileThresholds`, −1 = inherit, 5–100 valid, anything else falls back) or over
//     `allowedTokens`. Condensing is a "fresh start": every message gets `condenseParent` and the
//     next request holds only the summary (a user message) — nothing is deleted, so a rewind that
//     removes the summary restores them;
//   - with condensing off, or when it fails, and the context over `allowedTokens`: the sliding
//     window (`truncateConversation(messages, 0.5)`) tags half of the visible messages after the
//     first (an even count, so user–assistant pairs stay whole) with `truncationParent` and
//     inserts a marker before the first kept one. Visible means not already truncated: messages an
//     earlier condense hid still count, so a truncation after a condense may hide nothing live.
// Roo's API history has Cline's shape (one user and one assistant message per request: Roo is a
// Cline fork), so a message range is placed on the call axis as Cline's is
// (simulation/message-pairs.ts).

/** The summary message's heading, `## Conversation Summary\n` (24 characters), at chars / 4. */
const SUMMARY_HEADING_TOKENS = estimateTextTokens(24);
/** The marker `[Sliding window truncation: N messages hidden to reduce context]` (~66 characters). */
const MARKER_TOKENS = estimateTextTokens(66);

/** The context a condense fires at: the percent of the window, or just over `allowedTokens`. */
export function getRooCondenseTokens(knobs: RooKnobs): TokenCount {
  return Math.min((getRooEffectivePercent(knobs) * knobs.contextWindow) / 100, getRooAllowedTokens(knobs));
}

/** `truncateConversation`'s count: ⌊(visible − 1) × fraction⌋, rounded down to an even number. */
export function getRooTruncateCount(visible: number, fraction: number): number {
  const raw = Math.floor((visible - 1) * fraction);
  return Math.max(0, raw - (raw % 2));
}

const NO_RESTORATION: Restoration = { files: [], overBudget: [], totalTokens: 0 };

class RooRun implements StrategyRun {
  readonly allowsManualCompaction = true;
  /** `prevContextTokens` adds the last message (the results or prompt the next request sends). */
  readonly countsPending = true;
  readonly blockingTokens: TokenCount;
  private readonly allowed: TokenCount;
  private readonly percent: number;
  /** API history messages the sliding window has hidden so far: [1, hiddenMessages] (message 0, the task, never). */
  private hiddenMessages = 0;

  constructor(
    private readonly knobs: RooKnobs,
    private readonly prepared: PreparedReplay,
  ) {
    this.blockingTokens = knobs.contextWindow;
    this.allowed = getRooAllowedTokens(knobs);
    this.percent = getRooEffectivePercent(knobs);
  }

  step(view: ReplayView): StepOutcome | undefined {
    // A manual condense ("Condense context") summarizes without the environment details.
    if (view.manual) return { actions: [this.condense(view, 'manual')] };
    const prev = view.checkTokens;
    const { knobs } = this;
    if (knobs.autoCondenseContext && !knobs.condenseFails) {
      const contextPercent = (100 * prev) / knobs.contextWindow;
      if (contextPercent >= this.percent || prev > this.allowed)
        return { actions: [this.condense(view, 'auto')] };
    }
    if (prev <= this.allowed) return undefined;
    const truncate = this.slidingWindow(view, prev);
    return truncate ? { actions: [truncate] } : undefined;
  }

  /** `summarizeConversation`: everything since the last summary, the summary alone after it. */
  private condense(view: ReplayView, trigger: 'auto' | 'manual'): StrategyAction {
    // Folded files go into every summary (auto and manual), environment details only into an automatic one.
    const extras =
      this.knobs.summaryExtrasTokens + (trigger === 'auto' ? this.knobs.environmentDetailsTokens : 0);
    const over = view.checkTokens > this.allowed;
    return {
      kind: 'summarize',
      mechanism: 'full',
      trigger,
      checkTokens: view.checkTokens,
      thresholdTokens: over ? this.allowed : (this.percent * this.knobs.contextWindow) / 100,
      restoration: NO_RESTORATION,
      continuation: { format: 'v2.1.68', auto: trigger === 'auto' },
      summaryOverheadTokens: SUMMARY_HEADING_TOKENS + extras,
      summaryOverheadSource: `the heading “## Conversation Summary” (24 characters at 4 per token), the folded files${trigger === 'auto' ? ' and the environment details' : ''} (the knobs)`,
      requestVariant: 'full',
      promptPresetId: ROO.id,
      customInstructions: view.manual?.customInstructions,
      hide: true,
      note:
        trigger === 'manual'
          ? 'condensed by hand: every message tagged condenseParent, the summary alone after it'
          : `${over ? `over allowedTokens (window × ${(100 - this.knobs.bufferPercent) / 100} − ${this.knobs.maxTokens.toLocaleString('en-US')})` : `at ${this.percent}% of the window`}: every message tagged condenseParent, the summary alone after it`,
    };
  }

  /** `truncateConversation(messages, 0.5)` on the API history, applied to what is still live. */
  private slidingWindow(view: ReplayView, prev: TokenCount): StrategyAction | undefined {
    const { callPos } = this.prepared;
    // Roo's history when it truncates: the task, one user and one assistant per call so far, and
    // the message being sent (2n + 1 for call n); its visible part is all but what truncations hid.
    const messages = 2 * (view.callPos + 1) + 1;
    const visible = messages - this.hiddenMessages;
    const count = getRooTruncateCount(visible, this.knobs.truncatePercent / 100);
    if (count <= 0) return undefined;
    const first = this.hiddenMessages + 1;
    const last = this.hiddenMessages + count;
    this.hiddenMessages = last;
    const [from0, to0] = getMessageRangePositions(callPos, first, last);
    // Messages a summary already replaced are tagged too, with no effect on the context. A log's
    // adopted summary is held beside the live messages, not among them: it is not hidden.
    const { artifactOf } = this.prepared;
    let lo = Math.max(from0, view.liveFromPos);
    while (lo < view.boundaryPos && artifactOf[lo] !== 0) lo++;
    const fromPos = getSafeCut(this.prepared, lo, view.liveFromPos, view.boundaryPos);
    const toPos = getSafeCut(
      this.prepared,
      Math.min(to0, view.boundaryPos),
      view.liveFromPos,
      view.boundaryPos,
    );
    if (toPos <= fromPos) return undefined;
    return {
      kind: 'truncate',
      fromPos,
      toPos,
      noticeTokens: MARKER_TOKENS,
      checkTokens: prev,
      thresholdTokens: this.allowed,
      hide: true,
      note: `sliding window: ${count} of ${visible} visible API history messages hidden (messages ${first}–${last}, truncationParent), the first kept, a marker inserted${this.knobs.autoCondenseContext ? ' (condensing failed)' : ' (condensing off)'}`,
    };
  }
}

/** Claude models with a reasoning budget (`supportsReasoningBudget`): 3.7 and every 4.x and later. */
const HYBRID_REASONING_CLAUDE = /claude-(?:3-7|3\.7|(?:opus|sonnet|haiku)-[4-9]|[4-9])/i;

/**
 * The reserved output as `getModelMaxOutputTokens` picks it (RooCodeInc/Roo-Code@cb836567180a3ff1da6d082f3178b90c3bd22a70:src/shared/api.ts:105-157):
 * a Claude hybrid-reasoning model (no reasoning budget set) or a Claude model with no maxTokens →
 * ANTHROPIC_DEFAULT_MAX_TOKENS 8,192; any other model with a maxTokens → min(maxTokens,
 * ceil(20% of the window)) (:147), except GPT-5 ids, which keep their full maxTokens (:141-144).
 * The 20% cap covers Claude models too unless they are hybrid-reasoning ones (issue 19 said
 * "non-Claude"; the source wins). A reasoning budget (settings.modelMaxTokens || 16,384) is a
 * setting the log does not hold: not modelled. The model's maxTokens is not in a Roo log either:
 * the engine's table of model max outputs (engine/context-window) stands in when it knows the model.
 */
function getRooMaxOutputTokens(
  models: readonly string[],
  contextWindow: TokenCount,
): { tokens: TokenCount; why: string } {
  const model = models[0];
  const known = model === undefined ? undefined : getMaxOutputForModel(model);
  const claude = model !== undefined && /claude/i.test(model);
  if (claude && HYBRID_REASONING_CLAUDE.test(model))
    return {
      tokens: ROO_DEFAULT_MAX_TOKENS,
      why: `${model} is a Claude hybrid-reasoning model: ANTHROPIC_DEFAULT_MAX_TOKENS 8,192`,
    };
  if (known === undefined)
    return {
      tokens: ROO_DEFAULT_MAX_TOKENS,
      why: claude
        ? 'a Claude model without maxTokens: ANTHROPIC_DEFAULT_MAX_TOKENS 8,192'
        : "the model's own maxTokens is unknown: ANTHROPIC_DEFAULT_MAX_TOKENS 8,192 stands in",
    };
  if (/gpt-5/i.test(model!))
    return {
      tokens: known.tokens,
      why: `${model}: GPT-5 keeps its full maxTokens ${known.tokens.toLocaleString('en-US')}`,
    };
  const cap = Math.ceil(contextWindow * 0.2);
  return {
    tokens: Math.min(known.tokens, cap),
    why: `${model}: min(maxTokens ${known.tokens.toLocaleString('en-US')}, 20% of the window ${cap.toLocaleString('en-US')})`,
  };
}

export const ROO_STRATEGY: CompactionStrategy<RooKnobs> = {
  ...ROO_DESCRIPTOR,
  getSessionKnobs: (info) => {
    const logWindow = getLogWindow(info, {
      fallback: DEFAULTS.contextWindow,
      fallbackNote: `The log names no window: Roo's default here, ${DEFAULTS.contextWindow.toLocaleString('en-US')}.`,
    });
    const contextWindow = logWindow.tokens;
    const notes: string[] = [logWindow.note];
    const max = getRooMaxOutputTokens(info.models, contextWindow);
    const knobs: RooKnobs = { ...DEFAULTS, contextWindow, maxTokens: max.tokens };
    notes.push(
      `maxTokens ${max.tokens.toLocaleString('en-US')} (${max.why}); allowedTokens ${Math.round(getRooAllowedTokens(knobs)).toLocaleString('en-US')}; condense at 100% (Roo's default, no profile threshold).`,
    );
    if (info.format !== undefined && !/^cline/.test(info.format))
      notes.push('The log is not a Roo Code task, so its compactions are not expected to match.');
    return { knobs, notes };
  },
  createRun: (knobs, prepared) => new RooRun(knobs, prepared),
};
