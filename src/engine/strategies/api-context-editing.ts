import { lowerBound } from '../simulation/search';
import { CLEARABLE_IMAGE, type PreparedReplay } from '../simulation/prepared';
import type { ThresholdLine } from '../simulation/types';
import { estimateTextTokens } from '../tokens/estimate';
import type { TokenCount } from '../types';
import { createKnobNormalizer } from './knobs';
import type { CompactionStrategy, KnobSpec, ReplayView, StepOutcome, StrategyRun } from './types';

// The Anthropic API's server-side context editing, `clear_tool_uses_20250919` (beta
// `context-management-2025-06-27`; research/ANCHORS.md §2.1): when a request's input reaches
// `trigger` tokens, the oldest tool results are replaced by a placeholder, keeping the `keep`
// most recent tool uses and any excluded tool; nothing is applied when less than `clear_at_least`
// would be cleared. The client keeps its full history and the server re-applies the edit to every
// request; as the history only grows past the trigger, that equals clearing each result once.
// No LLM, no summary. (`clear_tool_inputs` is not modelled.)

export interface ApiContextEditingKnobs {
  /** `trigger.input_tokens`, default 100,000. */
  triggerTokens: TokenCount;
  /** `keep.tool_uses`, default 3. */
  keepToolUses: number;
  /** `clear_at_least.input_tokens`; 0 = none (the default). */
  clearAtLeastTokens: TokenCount;
  /** `exclude_tools`, default none. */
  excludeTools: string[];
  /** The request window, for the blocking line: requests over it fail. */
  contextWindow: TokenCount;
}

const DEFAULTS: ApiContextEditingKnobs = {
  triggerTokens: 100_000,
  keepToolUses: 3,
  clearAtLeastTokens: 0,
  excludeTools: [],
  contextWindow: 200_000,
};

const SOURCE = 'research/ANCHORS.md §2.1 (platform.claude.com "Context editing")';

const SPECS: readonly KnobSpec[] = [
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
    key: 'contextWindow',
    label: 'Context window',
    kind: 'number',
    unit: 'tokens',
    min: 10_000,
    max: 2_000_000,
    step: 1_000,
    source: 'the model',
    group: 'Context editing',
    cliFlag: 'window',
  },
];

/** The API's placeholder is not documented in our references; priced like Claude Code's. */
const PLACEHOLDER_TOKENS = estimateTextTokens('[Old tool result content cleared]'.length);

class ApiContextEditingRun implements StrategyRun {
  readonly allowsManualCompaction = true;
  readonly countsPending = false;
  readonly blockingTokens: TokenCount;
  private readonly eligible: Uint8Array;

  constructor(
    private readonly knobs: ApiContextEditingKnobs,
    private readonly prepared: PreparedReplay,
  ) {
    this.blockingTokens = knobs.contextWindow;
    const excluded = new Set(knobs.excludeTools);
    const { tool } = prepared.clearables;
    this.eligible = new Uint8Array(tool.length);
    for (let i = 0; i < tool.length; i++) {
      const t = tool[i]!;
      // Tool results only: images in user messages are not tool uses.
      this.eligible[i] = t >= 0 && !excluded.has(prepared.toolNames[t]!) ? 1 : t === CLEARABLE_IMAGE ? 0 : 0;
    }
  }

  step(view: ReplayView): StepOutcome | undefined {
    // The next request carries this call's usage plus what follows; the trigger compares the
    // request as the client sends it (uncleared).
    const raw = view.usageTokens + view.pendingEstimate + view.clearedTokens;
    if (raw < this.knobs.triggerTokens) return undefined;
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
    if (items.length === 0) return undefined;
    // `clear_at_least` is about everything the edit clears in this request (already cleared results included).
    let total = 0;
    for (const i of clearable) total += estimate[i]!;
    if (total < this.knobs.clearAtLeastTokens) return undefined;
    let fresh = 0;
    for (const i of items) fresh += estimate[i]!;
    return {
      actions: [
        {
          kind: 'clear',
          items: items.sort((a, b) => a - b),
          placeholderTokens: PLACEHOLDER_TOKENS,
          estimatedSavedTokens: fresh,
          checkTokens: raw,
          thresholdTokens: this.knobs.triggerTokens,
          note: `input reached the ${this.knobs.triggerTokens.toLocaleString('en-US')}-token trigger: tool results but the last ${this.knobs.keepToolUses} cleared`,
        },
      ],
    };
  }
}

export const API_CONTEXT_EDITING_STRATEGY: CompactionStrategy<ApiContextEditingKnobs> = {
  id: 'api-clear-tool-uses',
  label: 'API context editing (clear_tool_uses)',
  description:
    'Server-side clearing of old tool results once a request reaches the trigger; keeps the last N tool uses. No summary.',
  knobSpecs: SPECS,
  defaultKnobs: DEFAULTS,
  getSessionKnobs: (info) => ({
    knobs: {
      ...DEFAULTS,
      contextWindow: info.models.some((m) => /\[1m\]|-1m\b/i.test(m)) ? 1_000_000 : DEFAULTS.contextWindow,
    },
    notes: [
      'The API defaults (trigger 100,000 input tokens, keep 3 tool uses); the log used Claude Code, so its compactions are not expected to match.',
    ],
  }),
  normalizeKnobs: createKnobNormalizer(SPECS, DEFAULTS),
  thresholds: (knobs): ThresholdLine[] => [
    { id: 'trigger', label: 'clear_tool_uses trigger', tokens: knobs.triggerTokens, kind: 'trigger' },
    { id: 'window', label: 'Context window', tokens: knobs.contextWindow, kind: 'limit' },
  ],
  createRun: (knobs, prepared) => new ApiContextEditingRun(knobs, prepared),
};
