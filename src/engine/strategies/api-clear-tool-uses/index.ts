import { lowerBound } from '../../simulation/search';
import { getLogWindow } from '../session-window';
import type { PreparedReplay } from '../../simulation/prepared';
import { estimateTextTokens } from '../../tokens/estimate';
import type { TokenCount } from '../../types';
import { API_COMPACTION_MIN_TRIGGER, createApiCompaction } from './compaction';
import { THINKING_PLACEHOLDER_TOKENS, ThinkingClearer } from './clear-thinking';
import type {
  ClearingProbe,
  CompactionStrategy,
  ReplayView,
  StepOutcome,
  StrategyAction,
  StrategyRun,
} from '../types';
import { ToolUseSums } from './tool-use-sums';
import { API_CONTEXT_EDITING_DESCRIPTOR, type ApiContextEditingKnobs, DEFAULTS, SOURCE } from './descriptor';

// The Anthropic API's context management: the edits one request's `context_management.edits`
// can hold, each toggled by its knobs (docs/sources.md#agents). The server applies them to every
// request before the prompt reaches Claude, in the order of the array, each to what the one before
// it left; the client keeps its full history.
// 1. `clear_thinking_20251015` (api-clear-thinking.ts): thinking blocks of all but the last N
//    assistant turns removed. The page requires it first in the array when edits are combined.
// 2. `clear_tool_uses_20250919` (beta `context-management-2025-06-27`): when the request's input
//    reaches `trigger` tokens, the oldest tool results are replaced by a placeholder, keeping the
//    `keep` most recent tool uses and any excluded tool; nothing is applied when less than
//    `clear_at_least` would be cleared. As the history only grows past the trigger, re-applying it
//    to every request equals clearing each result once. (`clear_tool_inputs` is not modelled.)
// 3. `compact_20260112` (api-compaction.ts): at its trigger the whole conversation becomes one
//    compaction block. Its place after the clearing edits is our choice (the pages say nothing
//    of its order): it summarizes what the clearing edits left, so it fires later than alone.
// The trigger of clear_tool_uses compares the request as the client sends it, less the thinking
// the first edit removed; compaction compares what both clearing edits left.

/** The API's placeholder is not documented in our references; priced like Claude Code's. */
const PLACEHOLDER_TOKENS = estimateTextTokens('[Old tool result content cleared]'.length);

const fmt = (n: number) => n.toLocaleString('en-US');

class ApiContextEditingRun implements StrategyRun {
  readonly allowsManualCompaction = true;
  readonly countsPending = false;
  readonly blockingTokens: TokenCount;
  private readonly eligible: Uint8Array;
  private readonly thinking: ThinkingClearer | undefined;
  private readonly sums: ToolUseSums;

  constructor(
    private readonly knobs: ApiContextEditingKnobs,
    private readonly prepared: PreparedReplay,
  ) {
    this.blockingTokens = knobs.contextWindow;
    const excluded = new Set(knobs.excludeTools);
    const { tool } = prepared.clearables;
    this.eligible = new Uint8Array(tool.length);
    // Tool results only: images in user messages and thinking blocks are not tool uses.
    for (let i = 0; i < tool.length; i++) {
      const t = tool[i]!;
      this.eligible[i] = t >= 0 && !excluded.has(prepared.toolNames[t]!) ? 1 : 0;
    }
    this.sums = new ToolUseSums(prepared, this.eligible);
    this.thinking =
      knobs.clearThinking && !knobs.keepAllThinking
        ? new ThinkingClearer(prepared, knobs.keepThinkingTurns)
        : undefined;
  }

  step(view: ReplayView): StepOutcome | undefined {
    // The next request carries this call's usage plus what follows; as the client sends it,
    // nothing is cleared. Each edit then sees what the one before it left.
    const raw = view.usageTokens + view.pendingEstimate + view.clearedTokens;
    const actions: StrategyAction[] = [];
    const applied: string[] = [];
    let input = raw;
    let thinkingAlready = 0;
    if (this.thinking) {
      const { items, savedTokens, estimatedTokens, alreadySaved } = this.thinking.select(view);
      thinkingAlready = alreadySaved;
      input -= alreadySaved + savedTokens;
      if (alreadySaved + savedTokens > 0) applied.push('clear_thinking');
      if (items.length > 0)
        actions.push({
          kind: 'clear',
          items,
          placeholderTokens: THINKING_PLACEHOLDER_TOKENS,
          estimatedSavedTokens: estimatedTokens,
          checkTokens: raw,
          // No trigger: the edit applies to every request.
          thresholdTokens: 0,
          note: `clear_thinking: ${items.length} thinking blocks of assistant turns before the last ${this.knobs.keepThinkingTurns} removed (${fmt(savedTokens)} tokens)`,
        });
    }
    // What earlier tool-result clears still remove (the log's own clearing included).
    const toolAlready = Math.max(0, view.clearedTokens - thinkingAlready);
    if (this.knobs.clearToolUses) {
      const tools = this.clearToolUses(view, input);
      input -= toolAlready + (tools?.savedTokens ?? 0);
      if (tools) actions.push(tools.action);
      if (tools || toolAlready > 0) applied.push('clear_tool_uses');
    } else input -= toolAlready;
    if (this.knobs.compaction && view.manual)
      actions.push(createApiCompaction(view, this.compactionKnobs(), input, 'manual', undefined));
    else if (this.knobs.compaction && input >= this.knobs.compactTriggerTokens)
      actions.push(createApiCompaction(view, this.compactionKnobs(), input, 'auto', applied.join(' and ')));
    return actions.length > 0 ? { actions } : undefined;
  }

  private compactionKnobs() {
    return {
      triggerTokens: this.knobs.compactTriggerTokens,
      instructions: this.knobs.compactInstructions,
      pauseAfterCompaction: this.knobs.pauseAfterCompaction,
    };
  }

  /**
   * The results `clear_tool_uses` looks at and would clear at this call, by a scan of the live
   * history: the probe's (learn mode), and the reference the run's sums (`ToolUseSums`) follow.
   */
  private selectToolUses(view: ReplayView) {
    const { order, orderKey, pos, estimate } = this.prepared.clearables;
    const firstRank = lowerBound(orderKey, view.liveFromPos);
    const endRank = lowerBound(orderKey, view.boundaryPos);
    const live: number[] = [];
    for (let r = firstRank; r < endRank; r++) {
      const i = order[r]!;
      if (this.eligible[i] && pos[i]! >= view.liveFromPos && pos[i]! < view.boundaryPos) live.push(i);
    }
    const clearable = live.slice(0, Math.max(0, live.length - this.knobs.keepToolUses));
    const items = clearable.filter((i) => !view.isCleared(i));
    // `clear_at_least` is about everything the edit clears in this request (already cleared results included).
    let total = 0;
    for (const i of clearable) total += estimate[i]!;
    return { live, clearable, items, total };
  }

  /**
   * `clear_tool_uses` at this call, acting or not. The input compared is the request's before
   * this call's edits (an earlier clear's savings taken off; a fresh `clear_thinking` is not).
   */
  probeClearing(view: ReplayView): ClearingProbe {
    const { live, items, total } = this.selectToolUses(view);
    const input = view.usageTokens + view.pendingEstimate;
    const passes = total >= this.knobs.clearAtLeastTokens;
    const reason = !this.knobs.clearToolUses
      ? 'clear_tool_uses is not among the request’s edits'
      : input < this.knobs.triggerTokens
        ? `the input, ${fmt(input)}, is under its trigger, ${fmt(this.knobs.triggerTokens)}`
        : items.length === 0
          ? 'every result beyond the kept ones is already cleared'
          : !passes
            ? `it would clear ${fmt(total)}, under clear_at_least, ${fmt(this.knobs.clearAtLeastTokens)}`
            : undefined;
    return {
      mechanism: 'clear_tool_uses',
      considered: live,
      items: items.sort((a, b) => a - b),
      savings: total,
      minSavings: this.knobs.clearAtLeastTokens,
      passes,
      acts: reason === undefined,
      reason,
      source: SOURCE,
    };
  }

  /** `clear_tool_uses` on a request whose input (after the thinking edit) is `input`. */
  private clearToolUses(
    view: ReplayView,
    input: TokenCount,
  ): { action: StrategyAction; savedTokens: TokenCount } | undefined {
    if (input < this.knobs.triggerTokens) return undefined;
    const { estimate, tokens } = this.prepared.clearables;
    const min = this.knobs.clearAtLeastTokens;
    const summed = this.sums.select(view, this.knobs.keepToolUses, (total, n) => n > 0 && total >= min);
    const { items, total } = summed === 'back' ? this.selectToolUses(view) : summed;
    if (items.length === 0) return undefined;
    if (total < min) return undefined;
    let fresh = 0;
    let savedTokens = 0;
    for (const i of items) {
      fresh += estimate[i]!;
      savedTokens += Math.max(0, tokens[i]! - PLACEHOLDER_TOKENS);
    }
    return {
      savedTokens,
      action: {
        kind: 'clear',
        items: items.sort((a, b) => a - b),
        placeholderTokens: PLACEHOLDER_TOKENS,
        estimatedSavedTokens: fresh,
        checkTokens: input,
        thresholdTokens: this.knobs.triggerTokens,
        note: `input reached the ${fmt(this.knobs.triggerTokens)}-token trigger: tool results but the last ${this.knobs.keepToolUses} cleared`,
      },
    };
  }
}

export const API_CONTEXT_EDITING_STRATEGY: CompactionStrategy<ApiContextEditingKnobs> = {
  ...API_CONTEXT_EDITING_DESCRIPTOR,
  getSessionKnobs: (info) => {
    // The window the log ran with (stated, or inferred from its models and peaks: a 1M session
    // whose model id does not say so was replayed at 200k, and refused past it).
    const logWindow = getLogWindow(info, {
      fallback: DEFAULTS.contextWindow,
      fallbackNote: `The log says nothing of its window: ${fmt(DEFAULTS.contextWindow)}, a Claude model's standard context.`,
    });
    const knobs: ApiContextEditingKnobs = { ...DEFAULTS, contextWindow: logWindow.tokens };
    const edits = info.contextEdits;
    if (!edits)
      return {
        knobs,
        notes: [
          'The API defaults (clear_tool_uses: trigger 100,000 input tokens, keep 3 tool uses; clear_thinking and compaction off until listed); the log used Claude Code, so its compactions are not expected to match.',
          logWindow.note,
        ],
      };
    // The request states its edits: each listed one on, with what it sets (the API's default for
    // a field it leaves out), each one not listed off.
    const notes: string[] = [logWindow.note];
    const said: string[] = [];
    knobs.clearToolUses = edits.clearToolUses !== undefined;
    if (edits.clearToolUses) {
      const c = edits.clearToolUses;
      knobs.triggerTokens = c.triggerTokens ?? DEFAULTS.triggerTokens;
      knobs.keepToolUses = c.keepToolUses ?? DEFAULTS.keepToolUses;
      knobs.clearAtLeastTokens = c.clearAtLeastTokens ?? DEFAULTS.clearAtLeastTokens;
      knobs.excludeTools = c.excludeTools ?? [];
      said.push(
        `clear_tool_uses (trigger ${fmt(knobs.triggerTokens)}, keep ${knobs.keepToolUses}, clear_at_least ${fmt(knobs.clearAtLeastTokens)}${knobs.excludeTools.length ? `, exclude_tools ${knobs.excludeTools.join(', ')}` : ''})`,
      );
    }
    knobs.clearThinking = edits.clearThinking !== undefined;
    if (edits.clearThinking) {
      knobs.keepAllThinking = edits.clearThinking.keepAll === true;
      knobs.keepThinkingTurns = edits.clearThinking.keepTurns ?? DEFAULTS.keepThinkingTurns;
      said.push(
        `clear_thinking (keep ${knobs.keepAllThinking ? 'all' : `${knobs.keepThinkingTurns} turns`})`,
      );
    }
    knobs.compaction = edits.compaction !== undefined;
    if (edits.compaction) {
      const trigger = edits.compaction.triggerTokens ?? DEFAULTS.compactTriggerTokens;
      knobs.compactTriggerTokens = Math.max(API_COMPACTION_MIN_TRIGGER, trigger);
      knobs.compactInstructions = edits.compaction.instructions;
      knobs.pauseAfterCompaction = edits.compaction.pauseAfterCompaction ?? false;
      said.push(`compaction (trigger ${fmt(knobs.compactTriggerTokens)})`);
    }
    notes.push(
      `The request's context_management.edits: ${said.length ? said.join('; ') : 'none known'}. The responses' applied_edits are the log's own clearings, compared with the replay's.`,
    );
    return { knobs, notes };
  },
  createRun: (knobs, prepared) => new ApiContextEditingRun(knobs, prepared),
};
