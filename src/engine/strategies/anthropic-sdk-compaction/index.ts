import type { Restoration } from '../../compact/restore';
import { getLogWindow } from '../session-window';
import type { TokenCount } from '../../types';
import type { CompactionStrategy, ReplayView, StepOutcome, StrategyAction, StrategyRun } from '../types';
import { ANTHROPIC_SDK } from './prompt';
import {
  ANTHROPIC_SDK_COMPACTION_DESCRIPTOR,
  type AnthropicSdkCompactionKnobs,
  DEFAULTS,
} from './descriptor';

// The Anthropic TypeScript SDK's client-side compaction: the tool runner's `compactionControl`
// (docs/sources.md#anthropic-sdk-compaction; anthropics/anthropic-sdk-typescript@bfa9197f0182084941052be9752c948638421601:src/lib/tools/BetaToolRunner.ts:93-173).
// Deprecated since sdk-v0.83.0 (2026-04-03, release commit 0b536ae0e9c16ef63bf08a0e4b7150211b085d6e):
// `@deprecated` and a console.warn pointing to the API's server-side `compact_20260112`
// (CompactionControl.ts:29-33, BetaToolRunner.ts:84-90); introduced in sdk-v0.71.0 (2025-11-24).
// After **every** response, streamed or not, before the runner looks at its tool calls
// (BetaToolRunner.ts:219), it compares that response's usage (input + cache creation + cache read
// + output, :100-108) with `contextTokenThreshold` (default 100,000, CompactionControl.ts:3); at
// or over it, it asks the model for a summary (DEFAULT_SUMMARY_PROMPT: task overview, current
// state, important discoveries, next steps, context to preserve, in `<summary>`; our wording is
// the `anthropic-sdk` prompt preset) and replaces the whole message list by one user message
// holding that summary (:164-173); the response that triggered it is not appended and its tools
// are not run, and the loop goes on with the summary alone (a final answer compacts too). Before
// asking, a trailing assistant message's `tool_use` blocks are stripped (:125-139): a `tool_use`
// without its result would be refused. The summary request's `max_tokens` is the runner's own
// (`this.#state.params.max_tokens`, :141-157): no fixed summary cap exists in the source (the
// 4,096 our earlier notes gave is not there). Nothing is re-attached, nothing kept.

const NO_RESTORATION: Restoration = { files: [], overBudget: [], totalTokens: 0 };

const fmt = (n: number) => n.toLocaleString('en-US');

class AnthropicSdkCompactionRun implements StrategyRun {
  readonly allowsManualCompaction = true;
  readonly countsPending = false;
  readonly blockingTokens: TokenCount;

  constructor(private readonly knobs: AnthropicSdkCompactionKnobs) {
    this.blockingTokens = knobs.contextWindow;
  }

  step(view: ReplayView): StepOutcome | undefined {
    if (view.manual) return { actions: [this.compaction(view, 'manual')] };
    // Checked after every response, a final answer included (BetaToolRunner.ts:219).
    if (!this.knobs.enabled) return undefined;
    // `tokensUsed < threshold` returns early: at the threshold it compacts.
    if (view.usageTokens < this.knobs.contextTokenThreshold) return undefined;
    return { actions: [this.compaction(view, 'auto')] };
  }

  private compaction(view: ReplayView, trigger: 'auto' | 'manual'): StrategyAction {
    return {
      kind: 'summarize',
      mechanism: 'full',
      trigger,
      checkTokens: view.usageTokens,
      thresholdTokens: this.knobs.contextTokenThreshold,
      restoration: NO_RESTORATION,
      continuation: { format: 'v2.1.68', auto: trigger === 'auto' },
      // The new history is one user message holding the summary's own text.
      summaryOverheadTokens: 0,
      summaryMaxTokens: this.knobs.summaryMaxTokens,
      requestVariant: 'full',
      promptPresetId: ANTHROPIC_SDK.id,
      customInstructions: view.manual?.customInstructions,
      note:
        trigger === 'auto'
          ? `usage ${fmt(view.usageTokens)} reached compactionControl's ${fmt(this.knobs.contextTokenThreshold)}: the messages become one summary (the runner's max_tokens ${fmt(this.knobs.summaryMaxTokens)}); the response is not kept, a pending tool_use is stripped`
          : `the messages become one summary (max ${fmt(this.knobs.summaryMaxTokens)} tokens)`,
    };
  }
}

export const ANTHROPIC_SDK_COMPACTION_STRATEGY: CompactionStrategy<AnthropicSdkCompactionKnobs> = {
  ...ANTHROPIC_SDK_COMPACTION_DESCRIPTOR,
  getSessionKnobs: (info) => {
    // The window the log ran with (stated, or inferred from its models and peaks).
    const logWindow = getLogWindow(info, {
      fallback: DEFAULTS.contextWindow,
      fallbackNote: `The log says nothing of its window: ${DEFAULTS.contextWindow.toLocaleString('en-US')}, a Claude model's standard context.`,
    });
    return {
      knobs: { ...DEFAULTS, contextWindow: logWindow.tokens },
      notes: [
        "The SDK's default threshold (100,000 context tokens); the summary is capped by the runner's max_tokens, which a log does not hold: 4,096 is ours. compactionControl is deprecated since sdk-v0.83.0 (2026-04-03) in favour of the API's compact_20260112. The log was not written by the SDK's tool runner, so its compactions are not expected to match.",
        logWindow.note,
      ],
    };
  },
  createRun: (knobs) => new AnthropicSdkCompactionRun(knobs),
};
