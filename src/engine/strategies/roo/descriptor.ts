import type { ThresholdLine } from '../../simulation/types';
import type { TokenCount } from '../../types';
import { createKnobNormalizer, contextWindowSpec } from '../knobs';
import type { KnobSpec, StrategyDescriptor } from '../types';
import { ROO } from './prompt';
import { borrowedSummarySize } from '../summary-size';

// The strategy's descriptor: its knobs, their defaults and the threshold lines they draw, what
// the page shows without replaying (index.ts holds the rules and their sources).

export interface RooKnobs {
  /** The model's `contextWindow`. */
  contextWindow: TokenCount;
  /** Output tokens reserved (`getModelMaxOutputTokens`). */
  maxTokens: TokenCount;
  /** `TOKEN_BUFFER_PERCENTAGE` × 100. */
  bufferPercent: number;
  autoCondenseContext: boolean;
  /** The global `autoCondenseContextPercent`. */
  autoCondensePercent: number;
  /** The current profile's entry in `profileThresholds`: −1 = inherit; undefined = none. */
  profileThresholdPercent: number | undefined;
  /** What-if: the condensing call fails (an API error, an empty summary): the sliding window takes over. */
  condenseFails: boolean;
  /** The fraction the sliding window hides (`truncateConversation(messages, 0.5)`), in percent. */
  truncatePercent: number;
  /** Folded file definitions added to a summary, automatic or manual. */
  summaryExtrasTokens: TokenCount;
  /** Environment details added to an automatic summary only. */
  environmentDetailsTokens: TokenCount;
}

/** @roo-code/types providers/anthropic.ts `ANTHROPIC_DEFAULT_MAX_TOKENS`. */
export const ROO_DEFAULT_MAX_TOKENS: TokenCount = 8_192;

/** condense/index.ts `MIN_CONDENSE_THRESHOLD`, `MAX_CONDENSE_THRESHOLD`. */
const MIN_CONDENSE_PERCENT = 5;

const MAX_CONDENSE_PERCENT = 100;

export const DEFAULTS: RooKnobs = {
  contextWindow: 200_000,
  maxTokens: ROO_DEFAULT_MAX_TOKENS,
  bufferPercent: 10,
  autoCondenseContext: true,
  autoCondensePercent: 100,
  profileThresholdPercent: undefined,
  condenseFails: false,
  truncatePercent: 50,
  summaryExtrasTokens: 0,
  environmentDetailsTokens: 0,
};

const CM =
  'RooCodeInc/Roo-Code@cb836567180a3ff1da6d082f3178b90c3bd22a70:src/core/context-management/index.ts';

const ANCHOR = 'docs/sources.md#roo';

const SPECS: readonly KnobSpec[] = [
  contextWindowSpec(`${CM}:284 (modelInfo.contextWindow): the model's window`, 'Roo Code'),
  {
    key: 'maxTokens',
    label: 'Reserved output (maxTokens)',
    kind: 'number',
    unit: 'tokens',
    min: 0,
    max: 200_000,
    step: 1_024,
    integer: true,
    source:
      "RooCodeInc/Roo-Code@cb836567180a3ff1da6d082f3178b90c3bd22a70:src/shared/api.ts:105-157 getModelMaxOutputTokens: 8,192 (ANTHROPIC_DEFAULT_MAX_TOKENS) for Claude hybrid-reasoning models and models without maxTokens; any other model's maxTokens capped at 20% of the window (:147), Claude's included; GPT-5 uncapped",
    group: 'Roo Code',
    cliFlag: 'max-tokens',
  },
  {
    key: 'bufferPercent',
    label: 'Buffer (% of window)',
    kind: 'number',
    unit: 'percent',
    min: 0,
    max: 90,
    step: 1,
    source: `${CM}:26 TOKEN_BUFFER_PERCENTAGE 0.1 (allowedTokens = window × 0.9 − maxTokens)`,
    group: 'Roo Code',
    cliFlag: 'buffer-pct',
  },
  {
    key: 'autoCondenseContext',
    label: 'Auto-condense',
    kind: 'boolean',
    source: `${ANCHOR}: autoCondenseContext true`,
    group: 'Roo Code',
    cliFlag: 'auto-condense',
  },
  {
    key: 'autoCondensePercent',
    label: 'Condense at (% of window)',
    kind: 'number',
    unit: 'percent',
    min: MIN_CONDENSE_PERCENT,
    max: MAX_CONDENSE_PERCENT,
    step: 1,
    source: `${ANCHOR}: autoCondenseContextPercent 100 (slider 5–100)`,
    group: 'Roo Code',
    cliFlag: 'condense-pct',
  },
  {
    key: 'profileThresholdPercent',
    label: "Profile's threshold (%)",
    kind: 'number',
    unit: 'percent',
    min: -1,
    max: MAX_CONDENSE_PERCENT,
    step: 1,
    optional: true,
    source: `${ANCHOR}: profileThresholds[currentProfileId], −1 = inherit; empty = no entry`,
    help: 'Replaces the global percent when 5–100; −1 inherits it; other values are ignored, as Roo does.',
    group: 'Roo Code',
    cliFlag: 'profile-pct',
  },
  {
    key: 'condenseFails',
    label: 'Condensing fails (what-if)',
    kind: 'boolean',
    source: `${CM}:323-335 manageContext: on a condense error the sliding window runs`,
    help: 'Every condense returns an error, so the sliding-window fallback is what acts.',
    group: 'Roo Code',
    cliFlag: 'condense-fails',
  },
  {
    key: 'truncatePercent',
    label: 'Sliding window hides (%)',
    kind: 'number',
    unit: 'percent',
    min: 1,
    max: 100,
    step: 1,
    source: `${CM}:335 truncateConversation(messages, 0.5)`,
    group: 'Roo Code',
    cliFlag: 'truncate-pct',
  },
  {
    key: 'summaryExtrasTokens',
    label: 'Folded files in a summary',
    kind: 'number',
    unit: 'tokens',
    min: 0,
    max: 100_000,
    step: 500,
    integer: true,
    source:
      "RooCodeInc/Roo-Code@cb836567180a3ff1da6d082f3178b90c3bd22a70:src/core/condense/index.ts:417-439 (one <system-reminder> block per file read, tree-sitter definitions ≤ 50,000 characters, foldedFileContext.ts:80), passed on automatic (Task.ts:4108-4112) and manual condense (Task.ts:1696,1715); their size is the workspace's, not in a log: ours (0 by default, a log cannot give it)",
    group: 'Roo Code',
  },
  {
    key: 'environmentDetailsTokens',
    label: 'Environment details in an automatic summary',
    kind: 'number',
    unit: 'tokens',
    min: 0,
    max: 100_000,
    step: 500,
    integer: true,
    source:
      "RooCodeInc/Roo-Code@cb836567180a3ff1da6d082f3178b90c3bd22a70:src/core/condense/index.ts:444-447 (isAutomaticTrigger && environmentDetails); their size is the workspace's, not in a log: ours (0 by default, a log cannot give it)",
    group: 'Roo Code',
  },
];

/** `allowedTokens` = window × (1 − buffer) − maxTokens (manageContext). */
export function getRooAllowedTokens(knobs: RooKnobs): TokenCount {
  return knobs.contextWindow * (1 - knobs.bufferPercent / 100) - knobs.maxTokens;
}

/** The percent in force: the profile's when it is 5–100, else the global one (manageContext). */
export function getRooEffectivePercent(knobs: RooKnobs): number {
  const p = knobs.profileThresholdPercent;
  if (p === undefined || p === -1) return knobs.autoCondensePercent;
  return p >= MIN_CONDENSE_PERCENT && p <= MAX_CONDENSE_PERCENT ? p : knobs.autoCondensePercent;
}

export const ROO_DESCRIPTOR: StrategyDescriptor<RooKnobs> = {
  id: 'roo',
  label: 'Roo Code',
  description:
    'Before each request, the last total + the message being sent: at the condense percent (100%) or over window × 0.9 − max tokens, every message is tagged and the summary alone goes on (a rewind restores them); with condensing off or failing, a sliding window hides half of the messages after the first.',
  knobSpecs: SPECS,
  defaultKnobs: DEFAULTS,
  normalizeKnobs: createKnobNormalizer(SPECS, DEFAULTS),
  thresholds: (knobs): ThresholdLine[] => {
    const lines: ThresholdLine[] = [];
    const allowed = getRooAllowedTokens(knobs);
    const condense = (getRooEffectivePercent(knobs) * knobs.contextWindow) / 100;
    if (knobs.autoCondenseContext && condense < allowed)
      lines.push({
        id: 'condense',
        label: `Condense (${getRooEffectivePercent(knobs)}%)`,
        tokens: condense,
        kind: 'trigger',
      });
    lines.push({
      id: 'allowed',
      label:
        knobs.autoCondenseContext && !knobs.condenseFails
          ? 'allowedTokens (condense)'
          : 'allowedTokens (sliding window)',
      tokens: allowed,
      kind: 'trigger',
    });
    lines.push({ id: 'window', label: 'Context window', tokens: knobs.contextWindow, kind: 'limit' });
    return lines;
  },
  // Its summarization prompt presets (the picker lists them; the first is what its compactions send).
  promptPresets: [ROO],
  summarySize: () =>
    borrowedSummarySize('no real Roo Code task is in the corpus and its condense prompt states no cap'),
  // The knobs the golden dump's first line lists.
  dumpKnobKeys: ['contextWindow', 'maxTokens', 'autoCondenseContext'],
};
