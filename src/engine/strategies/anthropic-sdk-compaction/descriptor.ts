import type { ThresholdLine } from '../../simulation/types';
import type { TokenCount } from '../../types';
import { createKnobNormalizer, contextWindowSpec } from '../knobs';
import type { KnobSpec, StrategyDescriptor } from '../types';
import { ANTHROPIC_SDK } from './prompt';
import { limitedSummarySize } from '../summary-size';

// The strategy's descriptor: its knobs, their defaults and the threshold lines they draw, what
// the page shows without replaying (index.ts holds the rules and their sources).

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

export const DEFAULTS: AnthropicSdkCompactionKnobs = {
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

export const ANTHROPIC_SDK_COMPACTION_DESCRIPTOR: StrategyDescriptor<AnthropicSdkCompactionKnobs> = {
  id: 'anthropic-sdk-compaction',
  label: 'Anthropic SDK compactionControl',
  description:
    "The TypeScript SDK tool runner's client-side compaction (deprecated since sdk-v0.83.0, April 2026, for the API's server-side compact_20260112): after any response whose usage (input + cache + output) reaches 100,000 tokens, the whole history becomes one summary, capped by the runner's own max_tokens.",
  knobSpecs: SPECS,
  defaultKnobs: DEFAULTS,
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
