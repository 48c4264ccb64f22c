import type { ThresholdLine } from '../../simulation/types';
import type { TokenCount } from '../../types';
import { createKnobNormalizer, contextWindowSpec } from '../knobs';
import type { KnobSpec, StrategyDescriptor } from '../types';
import { PI } from './prompt';
import { limitedSummarySize } from '../summary-size';

// The strategy's descriptor: its knobs, their defaults and the threshold lines they draw, what
// the page shows without replaying (index.ts holds the rules and their sources).

export interface PiKnobs {
  /** The model's `contextWindow` (pi's models.json); with `windowPerModel`, that of turns whose model pi's registry does not list. */
  contextWindow: TokenCount;
  /** Check each turn against the window pi's registry gives the model the turn ran on (a log's own knobs: on when it switches models). */
  windowPerModel: boolean;
  /** `compaction.enabled`: off, only `/compact` and the overflow case compact. */
  enabled: boolean;
  reserveTokens: TokenCount;
  keepRecentTokens: TokenCount;
  /** Compact a run whose next request would not fit the window (agent-session.ts's overflow case). */
  overflowRecovery: boolean;
}

/** compaction.ts `DEFAULT_COMPACTION_SETTINGS`. */
export const PI_DEFAULT_RESERVE_TOKENS: TokenCount = 16_384;

export const PI_DEFAULT_KEEP_RECENT_TOKENS: TokenCount = 20_000;

export const DEFAULTS: PiKnobs = {
  contextWindow: 200_000,
  windowPerModel: false,
  enabled: true,
  reserveTokens: PI_DEFAULT_RESERVE_TOKENS,
  keepRecentTokens: PI_DEFAULT_KEEP_RECENT_TOKENS,
  overflowRecovery: true,
};

const DOC =
  'badlogic/pi-mono@83378aad7e74a0e2bb8f37c007a9685fb4609d8a:packages/coding-agent/docs/compaction.md';

const CODE =
  'badlogic/pi-mono@83378aad7e74a0e2bb8f37c007a9685fb4609d8a:packages/coding-agent/src/core/compaction/compaction.ts';

const SPECS: readonly KnobSpec[] = [
  contextWindowSpec(
    "badlogic/pi-mono@83378aad7e74a0e2bb8f37c007a9685fb4609d8a:packages/coding-agent/src/core/agent-session.ts:1749 (this.model.contextWindow: the model's, from models.json)",
    'pi',
  ),
  {
    key: 'windowPerModel',
    label: "Each turn's model's window",
    kind: 'boolean',
    source:
      "badlogic/pi-mono@83378aad7e74a0e2bb8f37c007a9685fb4609d8a:packages/coding-agent/src/core/agent-session.ts:1749 (_checkCompaction reads this.model.contextWindow: the model selected at the check, after a run :509 and before a prompt :948-951); windows from pi's registry, packages/ai/src/models.generated.ts",
    help: "On (a log that switches models): a turn is checked against the window pi's registry gives its model, Context window standing for models it does not list. Off: Context window for every turn.",
    group: 'pi',
    cliFlag: 'window-per-model',
  },
  {
    key: 'enabled',
    label: 'Auto-compaction',
    kind: 'boolean',
    source: `${CODE}:114-118 (DEFAULT_COMPACTION_SETTINGS enabled true); ${DOC} "Settings"`,
    group: 'pi',
    cliFlag: 'auto-compact',
  },
  {
    key: 'reserveTokens',
    label: 'reserveTokens',
    kind: 'number',
    unit: 'tokens',
    min: 0,
    max: 500_000,
    step: 1_024,
    integer: true,
    source: `${CODE}:114-118 reserveTokens 16,384; trigger contextTokens > contextWindow − reserveTokens :212-215 (docs/sources.md#pi)`,
    group: 'pi',
    cliFlag: 'reserve',
  },
  {
    key: 'keepRecentTokens',
    label: 'keepRecentTokens',
    kind: 'number',
    unit: 'tokens',
    min: 0,
    max: 1_000_000,
    step: 1_000,
    integer: true,
    source: `${CODE}:114-118 keepRecentTokens 20,000; cut at a user or assistant message, never a tool result (findCutPoint :376-436)`,
    group: 'pi',
    cliFlag: 'keep',
  },
  {
    key: 'overflowRecovery',
    label: 'Compact on overflow mid-run',
    kind: 'boolean',
    source:
      'badlogic/pi-mono@83378aad7e74a0e2bb8f37c007a9685fb4609d8a:packages/coding-agent/src/core/agent-session.ts:1768-1791 (_checkCompaction case 1: a context overflow error compacts and retries once)',
    help: 'Mid-run pi never checks the threshold; a request the window refuses is compacted and retried.',
    group: 'pi',
    cliFlag: 'overflow',
  },
];

/** The threshold: pi compacts when the context is over it. */
export function getPiThreshold(knobs: PiKnobs): TokenCount {
  return knobs.contextWindow - knobs.reserveTokens;
}

export const PI_DESCRIPTOR: StrategyDescriptor<PiKnobs> = {
  id: 'pi',
  label: 'pi',
  description:
    'When a run ends over window − 16,384 (reserveTokens), the messages before the newest ~20,000 tokens (keepRecentTokens, cut at a user or assistant message) become a summary listing the files read and modified so far.',
  knobSpecs: SPECS,
  defaultKnobs: DEFAULTS,
  normalizeKnobs: createKnobNormalizer(SPECS, DEFAULTS),
  thresholds: (knobs): ThresholdLine[] => {
    const lines: ThresholdLine[] = [];
    if (knobs.enabled)
      lines.push({
        id: 'compact',
        label: 'window − reserveTokens',
        tokens: getPiThreshold(knobs),
        kind: 'trigger',
      });
    lines.push({ id: 'window', label: 'Context window', tokens: knobs.contextWindow, kind: 'limit' });
    return lines;
  },
  // Its summarization prompt presets (the picker lists them; the first is what its compactions send).
  promptPresets: [PI],
  // generateSummary's maxTokens: ⌊0.8 × reserveTokens⌋ (13,107 at the default 16,384).
  summarySize: (knobs) =>
    limitedSummarySize(
      Math.floor(0.8 * knobs.reserveTokens),
      `generateSummary maxTokens = ⌊0.8 × reserveTokens⌋, ${CODE}:529; the corpus' 3 real pi sessions hold no compaction`,
    ),
  // The knobs the golden dump's first line lists.
  dumpKnobKeys: ['contextWindow', 'reserveTokens', 'keepRecentTokens'],
};
