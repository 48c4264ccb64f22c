import type { Restoration } from '../../compact/restore';
import type { ThresholdLine } from '../../simulation/types';
import type { TokenCount } from '../../types';
import { createKnobNormalizer, contextWindowSpec } from '../knobs';
import type {
  CompactionStrategy,
  KnobSpec,
  ReplayView,
  StepOutcome,
  StrategyAction,
  StrategyRun,
} from '../types';
import { ANTHROPIC_SDK } from './prompt';
import { limitedSummarySize } from '../summary-size';

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

export interface AnthropicSdkCompactionKnobs {
  /** `compactionControl.enabled`. */
  enabled: boolean;
  /** `contextTokenThreshold`, default 100,000 (`DEFAULT_TOKEN_THRESHOLD`). */
  contextTokenThreshold: TokenCount;
  /** The runner's own `max_tokens`, which the summary request reuses (no constant of its own). */
  summaryMaxTokens: TokenCount;
  /** The request window, for the blocking line: requests over it fail. */
  contextWindow: TokenCount;
}

/** `DEFAULT_TOKEN_THRESHOLD` in CompactionControl.ts:3. */
export const SDK_DEFAULT_TOKEN_THRESHOLD: TokenCount = 100_000;
/**
 * Ours: the runner's `max_tokens` is the caller's and not in a log; 4,096 stands in (the value our
 * notes had wrongly read as a constant of the SDK), so replays stay as they were.
 */
export const SDK_SUMMARY_MAX_TOKENS: TokenCount = 4_096;

const DEFAULTS: AnthropicSdkCompactionKnobs = {
  enabled: true,
  contextTokenThreshold: SDK_DEFAULT_TOKEN_THRESHOLD,
  summaryMaxTokens: SDK_SUMMARY_MAX_TOKENS,
  contextWindow: 200_000,
};

const CONTROL =
  'anthropics/anthropic-sdk-typescript@bfa9197f0182084941052be9752c948638421601:src/lib/tools/CompactionControl.ts';
const RUNNER =
  'anthropics/anthropic-sdk-typescript@bfa9197f0182084941052be9752c948638421601:src/lib/tools/BetaToolRunner.ts';

const SPECS: readonly KnobSpec[] = [
  {
    key: 'enabled',
    label: 'compactionControl',
    help: 'compactionControl.enabled: the tool runner compacts on its own',
    kind: 'boolean',
    source: `${RUNNER}:93-97 (compactionControl.enabled; deprecated since sdk-v0.83.0, ${CONTROL}:29-33)`,
    group: 'SDK compaction',
    cliFlag: 'auto-compact',
  },
  {
    key: 'contextTokenThreshold',
    label: 'Threshold (context tokens)',
    help: 'contextTokenThreshold: the last response’s input + cache + output tokens',
    kind: 'number',
    unit: 'tokens',
    min: 1_000,
    max: 2_000_000,
    step: 1_000,
    source: `${CONTROL}:3 DEFAULT_TOKEN_THRESHOLD 100,000; compared with input + cache + output at ${RUNNER}:100-118`,
    group: 'SDK compaction',
    cliFlag: 'threshold',
  },
  {
    key: 'summaryMaxTokens',
    label: "Runner's max_tokens (summary cap)",
    help: "The tool runner's own max_tokens: the summary request reuses it",
    kind: 'number',
    unit: 'tokens',
    min: 256,
    max: 64_000,
    step: 256,
    integer: true,
    source: `${RUNNER}:141-157 (max_tokens: this.#state.params.max_tokens, the runner's own); default 4,096: ours (the caller sets it and a log does not hold it)`,
    group: 'SDK compaction',
  },
  contextWindowSpec(
    "ours (the model's window, inferred from the log; 200,000, or 1,000,000 for a [1m] model): the runner has no window of its own",
    'SDK compaction',
  ),
];

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
  id: 'anthropic-sdk-compaction',
  label: 'Anthropic SDK compactionControl',
  description:
    "The TypeScript SDK tool runner's client-side compaction (deprecated since sdk-v0.83.0, April 2026, for the API's server-side compact_20260112): after any response whose usage (input + cache + output) reaches 100,000 tokens, the whole history becomes one summary, capped by the runner's own max_tokens.",
  knobSpecs: SPECS,
  defaultKnobs: DEFAULTS,
  getSessionKnobs: (info) => ({
    knobs: {
      ...DEFAULTS,
      contextWindow: info.models.some((m) => /\[1m\]|-1m\b/i.test(m)) ? 1_000_000 : DEFAULTS.contextWindow,
    },
    notes: [
      "The SDK's default threshold (100,000 context tokens); the summary is capped by the runner's max_tokens, which a log does not hold: 4,096 is ours. compactionControl is deprecated since sdk-v0.83.0 (2026-04-03) in favour of the API's compact_20260112. The log was not written by the SDK's tool runner, so its compactions are not expected to match.",
    ],
  }),
  normalizeKnobs: createKnobNormalizer(SPECS, DEFAULTS),
  thresholds: (knobs): ThresholdLine[] => {
    const lines: ThresholdLine[] = [];
    if (knobs.enabled)
      lines.push({
        id: 'threshold',
        label: 'compactionControl threshold',
        tokens: knobs.contextTokenThreshold,
        kind: 'trigger',
      });
    lines.push({ id: 'window', label: 'Context window', tokens: knobs.contextWindow, kind: 'limit' });
    return lines;
  },
  createRun: (knobs) => new AnthropicSdkCompactionRun(knobs),
  // Its summarization prompt presets (the picker lists them; the first is what its compactions send).
  promptPresets: [ANTHROPIC_SDK],
  // The summary request reuses the runner's max_tokens.
  summarySize: (knobs) =>
    limitedSummarySize(
      knobs.summaryMaxTokens,
      `the runner's own max_tokens, ${RUNNER}:141-157; its default here is ours`,
    ),
  // The knobs the golden dump's first line lists.
  dumpKnobKeys: ['contextWindow'],
};
