import type { Restoration } from '../../compact/restore';
import type { PreparedReplay } from '../../simulation/prepared';
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

// The Anthropic TypeScript SDK's client-side compaction: the tool runner's `compactionControl`
// (docs/sources.md#anthropic-sdk-compaction; anthropics/anthropic-sdk-typescript src/lib/tools/CompactionControl.ts
// and BetaToolRunner.ts). After a response that called tools, once its tool results are in the
// history, the runner compares the response's usage (input + cache creation + cache read +
// output) with `contextTokenThreshold` (default 100,000); at or over it, it asks the model for a
// summary (DEFAULT_SUMMARY_PROMPT: task overview, current state, important discoveries, next
// steps, context to preserve, in `<summary>`; our wording is the `anthropic-sdk` prompt preset) and
// replaces the whole message list by one user message holding that summary. The summary request
// is capped at COMPACTION_SUMMARY_MAX_TOKENS, 4,096. Nothing is re-attached, nothing kept.

export interface AnthropicSdkCompactionKnobs {
  /** `compactionControl.enabled`. */
  enabled: boolean;
  /** `contextTokenThreshold`, default 100,000 (`DEFAULT_TOKEN_THRESHOLD`). */
  contextTokenThreshold: TokenCount;
  /** The summary request's max_tokens, 4,096 (`COMPACTION_SUMMARY_MAX_TOKENS`). */
  summaryMaxTokens: TokenCount;
  /** The request window, for the blocking line: requests over it fail. */
  contextWindow: TokenCount;
}

/** `DEFAULT_TOKEN_THRESHOLD` in CompactionControl.ts. */
export const SDK_DEFAULT_TOKEN_THRESHOLD: TokenCount = 100_000;
/** `COMPACTION_SUMMARY_MAX_TOKENS` in CompactionControl.ts. */
export const SDK_SUMMARY_MAX_TOKENS: TokenCount = 4_096;

const DEFAULTS: AnthropicSdkCompactionKnobs = {
  enabled: true,
  contextTokenThreshold: SDK_DEFAULT_TOKEN_THRESHOLD,
  summaryMaxTokens: SDK_SUMMARY_MAX_TOKENS,
  contextWindow: 200_000,
};

const SOURCE =
  'docs/sources.md#anthropic-sdk-compaction (anthropics/anthropic-sdk-typescript src/lib/tools/CompactionControl.ts, compactionControl)';

const SPECS: readonly KnobSpec[] = [
  {
    key: 'enabled',
    label: 'compactionControl',
    help: 'compactionControl.enabled: the tool runner compacts on its own',
    kind: 'boolean',
    source: `${SOURCE}: enabled`,
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
    source: `${SOURCE}: DEFAULT_TOKEN_THRESHOLD 100,000`,
    group: 'SDK compaction',
    cliFlag: 'threshold',
  },
  {
    key: 'summaryMaxTokens',
    label: 'Summary max tokens',
    kind: 'number',
    unit: 'tokens',
    min: 256,
    max: 64_000,
    step: 256,
    integer: true,
    source: `${SOURCE}: COMPACTION_SUMMARY_MAX_TOKENS 4,096`,
    group: 'SDK compaction',
  },
  contextWindowSpec('the model', 'SDK compaction'),
];

const NO_RESTORATION: Restoration = { files: [], overBudget: [], totalTokens: 0 };

const fmt = (n: number) => n.toLocaleString('en-US');

class AnthropicSdkCompactionRun implements StrategyRun {
  readonly allowsManualCompaction = true;
  readonly countsPending = false;
  readonly blockingTokens: TokenCount;
  /** 1 where the call's response holds a tool_use: only then does the runner check. */
  private readonly calledTools: Uint8Array;

  constructor(
    private readonly knobs: AnthropicSdkCompactionKnobs,
    prepared: PreparedReplay,
  ) {
    this.blockingTokens = knobs.contextWindow;
    const { callPos, ctxEntry, session } = prepared;
    const n = prepared.calls.length;
    this.calledTools = new Uint8Array(n);
    for (let k = 0; k < n; k++) {
      for (let p = callPos[k]!; p < callPos[k + 1]!; p++) {
        const e = session.entries[ctxEntry[p]!]!;
        if (e.kind === 'assistant' && e.blocks.some((b) => b.kind === 'tool-use')) {
          this.calledTools[k] = 1;
          break;
        }
      }
    }
  }

  step(view: ReplayView): StepOutcome | undefined {
    if (view.manual) return { actions: [this.compaction(view, 'manual')] };
    if (!this.knobs.enabled || !this.calledTools[view.callPos]) return undefined;
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
          ? `usage ${fmt(view.usageTokens)} after a tool call reached compactionControl's ${fmt(this.knobs.contextTokenThreshold)}: the messages become one summary (max ${fmt(this.knobs.summaryMaxTokens)} tokens)`
          : `the messages become one summary (max ${fmt(this.knobs.summaryMaxTokens)} tokens)`,
    };
  }
}

export const ANTHROPIC_SDK_COMPACTION_STRATEGY: CompactionStrategy<AnthropicSdkCompactionKnobs> = {
  id: 'anthropic-sdk-compaction',
  label: 'Anthropic SDK compactionControl',
  description:
    "The TypeScript SDK tool runner's client-side compaction: after a tool call whose usage (input + output) reaches 100,000 tokens, the whole history becomes one summary of at most 4,096 tokens.",
  knobSpecs: SPECS,
  defaultKnobs: DEFAULTS,
  getSessionKnobs: (info) => ({
    knobs: {
      ...DEFAULTS,
      contextWindow: info.models.some((m) => /\[1m\]|-1m\b/i.test(m)) ? 1_000_000 : DEFAULTS.contextWindow,
    },
    notes: [
      "The SDK's defaults (threshold 100,000 context tokens, summary max 4,096); the log was not written by the SDK's tool runner, so its compactions are not expected to match.",
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
  createRun: (knobs, prepared) => new AnthropicSdkCompactionRun(knobs, prepared),
  // Its summarization prompt presets (the picker lists them; the first is what its compactions send).
  promptPresets: [ANTHROPIC_SDK],
  // The knobs the golden dump's first line lists.
  dumpKnobKeys: ['contextWindow'],
};
