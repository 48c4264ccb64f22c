import type { ThresholdLine } from '../../simulation/types';
import type { TokenCount } from '../../types';
import { API_COMPACTION_DEFAULT_TRIGGER, API_COMPACTION_MIN_TRIGGER } from './compaction';
import { DEFAULT_KEEP_THINKING_TURNS } from './clear-thinking';
import { createKnobNormalizer, contextWindowSpec } from '../knobs';
import type { KnobSpec, StrategyDescriptor } from '../types';
import { borrowedSummarySize } from '../summary-size';

// The strategy's descriptor: its knobs, their defaults and the threshold lines they draw, what
// the page shows without replaying (index.ts holds the rules and their sources).

export interface ApiContextEditingKnobs {
  /** `clear_thinking_20251015` in the edits. */
  clearThinking: boolean;
  /** Its `keep: {type: "thinking_turns", value}`, default 1. */
  keepThinkingTurns: number;
  /** Its `keep: "all"`: no thinking block is cleared (most cache hits). */
  keepAllThinking: boolean;
  /** `clear_tool_uses_20250919` in the edits (on: what this strategy always modelled). */
  clearToolUses: boolean;
  /** `trigger.input_tokens`, default 100,000. */
  triggerTokens: TokenCount;
  /** `keep.tool_uses`, default 3. */
  keepToolUses: number;
  /** `clear_at_least.input_tokens`; 0 = none (the default). */
  clearAtLeastTokens: TokenCount;
  /** `exclude_tools`, default none. */
  excludeTools: string[];
  /** `compact_20260112` in the edits. */
  compaction: boolean;
  /** Its `trigger.input_tokens`: default 150,000, at least 50,000. */
  compactTriggerTokens: TokenCount;
  /** Its `instructions`: replace the default summary prompt. */
  compactInstructions?: string;
  /** Its `pause_after_compaction`, default false. */
  pauseAfterCompaction: boolean;
  /** The request window, for the blocking line: requests over it fail. */
  contextWindow: TokenCount;
}

export const DEFAULTS: ApiContextEditingKnobs = {
  clearThinking: false,
  keepThinkingTurns: DEFAULT_KEEP_THINKING_TURNS,
  keepAllThinking: false,
  clearToolUses: true,
  triggerTokens: 100_000,
  keepToolUses: 3,
  clearAtLeastTokens: 0,
  excludeTools: [],
  compaction: false,
  compactTriggerTokens: API_COMPACTION_DEFAULT_TRIGGER,
  compactInstructions: undefined,
  pauseAfterCompaction: false,
  contextWindow: 200_000,
};

const EDITING = 'docs/sources.md#api-clear-tool-uses (platform.claude.com "Context editing"';

export const SOURCE = `${EDITING}, clear_tool_uses_20250919)`;

const THINKING_SOURCE = `${EDITING}, "Thinking block clearing", clear_thinking_20251015)`;

const COMPACTION_SOURCE =
  'docs/sources.md#api-compaction (platform.claude.com "Compaction", compact_20260112)';

const SPECS: readonly KnobSpec[] = [
  {
    key: 'clearThinking',
    label: 'clear_thinking',
    help: 'The clear_thinking_20251015 edit: thinking blocks of older assistant turns removed (first in the edits)',
    kind: 'boolean',
    source: `${THINKING_SOURCE}: an edit of the request, off unless listed`,
    group: 'clear_thinking',
    cliFlag: 'clear-thinking',
  },
  {
    key: 'keepThinkingTurns',
    label: 'keep (thinking turns)',
    help: 'keep: {type: "thinking_turns", value}: the most recent assistant turns whose thinking stays',
    kind: 'number',
    unit: 'count',
    min: 1,
    max: 1_000,
    step: 1,
    integer: true,
    source: `${THINKING_SOURCE}: default 1, N > 0`,
    group: 'clear_thinking',
    cliFlag: 'keep-thinking',
  },
  {
    key: 'keepAllThinking',
    label: 'keep all thinking',
    help: 'keep: "all": no thinking block is cleared (maximizes cache hits)',
    kind: 'boolean',
    source: `${THINKING_SOURCE}: keep "all"`,
    group: 'clear_thinking',
  },
  {
    key: 'clearToolUses',
    label: 'clear_tool_uses',
    help: 'The clear_tool_uses_20250919 edit: old tool results replaced by a placeholder',
    kind: 'boolean',
    source: `${SOURCE}: this strategy's edit since the start`,
    group: 'Context editing',
    cliFlag: 'clear-tool-uses',
  },
  {
    key: 'triggerTokens',
    label: 'trigger (input tokens)',
    kind: 'number',
    unit: 'tokens',
    min: 1_000,
    max: 2_000_000,
    step: 1_000,
    source: `${SOURCE}: default 100,000`,
    group: 'Context editing',
  },
  {
    key: 'keepToolUses',
    label: 'keep (tool uses)',
    kind: 'number',
    unit: 'count',
    min: 0,
    max: 100,
    step: 1,
    integer: true,
    source: `${SOURCE}: default 3`,
    group: 'Context editing',
  },
  {
    key: 'clearAtLeastTokens',
    label: 'Clear at least',
    help: 'The edit’s clear_at_least: clear only when this many tokens would go',
    kind: 'number',
    unit: 'tokens',
    min: 0,
    max: 500_000,
    step: 1_000,
    source: `${SOURCE}: default none`,
    group: 'Context editing',
  },
  {
    key: 'excludeTools',
    label: 'Tools never cleared',
    help: 'The edit’s exclude_tools',
    kind: 'list',
    source: `${SOURCE}: default []`,
    group: 'Context editing',
  },
  {
    key: 'compaction',
    label: 'compaction',
    help: 'The compact_20260112 edit: at its trigger the conversation becomes one compaction block',
    kind: 'boolean',
    source: `${COMPACTION_SOURCE}: an edit of the request, off unless listed`,
    group: 'Compaction',
    cliFlag: 'compaction',
  },
  {
    key: 'compactTriggerTokens',
    label: 'compaction trigger (input tokens)',
    kind: 'number',
    unit: 'tokens',
    min: API_COMPACTION_MIN_TRIGGER,
    max: 2_000_000,
    step: 1_000,
    source: `${COMPACTION_SOURCE}: default 150,000, minimum 50,000`,
    group: 'Compaction',
    cliFlag: 'compact-trigger',
  },
  {
    key: 'compactInstructions',
    label: 'instructions',
    help: 'Replace the default summary prompt (state, next steps, learnings in <summary>)',
    kind: 'text',
    optional: true,
    source: `${COMPACTION_SOURCE}: default none (the API's own prompt)`,
    group: 'Compaction',
  },
  {
    key: 'pauseAfterCompaction',
    label: 'pause_after_compaction',
    help: 'The response ends after the compaction block (stop_reason "compaction")',
    kind: 'boolean',
    source: `${COMPACTION_SOURCE}: default false`,
    group: 'Compaction',
  },
  contextWindowSpec(
    "ours (the model's window, inferred from the log; 200,000, or 1,000,000 for a [1m] model): the edits have no window of their own",
    'Context editing',
  ),
];

export const API_CONTEXT_EDITING_DESCRIPTOR: StrategyDescriptor<ApiContextEditingKnobs> = {
  // The id predates the other edits; goldens, tests and saved overrides name it.
  id: 'api-clear-tool-uses',
  label: 'Anthropic API context management',
  description:
    'The Anthropic API’s context_management edits, each on or off: clear_thinking keeps the last N turns’ thinking; clear_tool_uses clears old tool results from its trigger (on by default); compaction summarizes everything at its trigger. Applied in that order.',
  knobSpecs: SPECS,
  defaultKnobs: DEFAULTS,
  normalizeKnobs: createKnobNormalizer(SPECS, DEFAULTS),
  thresholds: (knobs): ThresholdLine[] => {
    const lines: ThresholdLine[] = [];
    if (knobs.clearToolUses)
      lines.push({
        id: 'trigger',
        label: 'clear_tool_uses trigger',
        tokens: knobs.triggerTokens,
        kind: 'trigger',
      });
    if (knobs.compaction)
      lines.push({
        id: 'compaction',
        label: 'compaction trigger',
        tokens: knobs.compactTriggerTokens,
        kind: 'trigger',
      });
    lines.push({ id: 'window', label: 'Context window', tokens: knobs.contextWindow, kind: 'limit' });
    return lines;
  },
  summarySize: () =>
    borrowedSummarySize(
      "no real API log with a server-side compaction block is in the corpus, and the API's compaction states no summary cap",
    ),
  // The knobs the golden dump's first line lists.
  dumpKnobKeys: ['contextWindow'],
};
