import type { ThresholdLine } from '../../simulation/types';
import type { TokenCount } from '../../types';
import type { KnobSpec, StrategyDescriptor } from '../types';
import { createKnobNormalizer, contextWindowSpec } from '../knobs';
import { profileKnobSpec, type VersionProfile } from '../version-profile';
import { CODEX } from './prompt';
import { borrowedSummarySize } from '../summary-size';

// Codex CLI's knobs, their defaults and the thresholds they draw: what the page shows without
// replaying (index.ts holds the rules and their sources).

export interface CodexKnobs {
  /** The release profile: whether and how Codex compacts on its own. */
  profile: CodexProfileId;
  /** `model_context_window` (effective). Requests over it fail. */
  contextWindow: TokenCount;
  /** `effective_context_window_percent`: the logged window's share of the raw one, default 95. */
  effectiveWindowPercent: number;
  /** Auto-compact limit as a percent of the raw window, default 90. */
  thresholdPercent: number;
  /** `model_auto_compact_token_limit` set explicitly (undefined: the percent). */
  autoCompactTokenLimit?: TokenCount;
  /** Count the estimate of the encrypted reasoning before the last user message. */
  countReasoning: boolean;
  /** Count an estimate of the items after the last model-generated item (tool outputs). */
  countItemsSinceUsage: boolean;
  /** Drop the oldest items while the compaction request exceeds the raw window's size. */
  overflowTrim: boolean;
  /** `COMPACT_USER_MESSAGE_MAX_TOKENS`, default 20,000. */
  userMessageBudgetTokens: TokenCount;
  /** Off: no automatic compaction (a `/compact` still works). */
  autoCompactEnabled: boolean;
}

/** Codex's 272k models at `effective_context_window_percent` 95 (docs/sources.md#codex): what rollouts log. */
const CODEX_DEFAULT_CONTEXT_WINDOW: TokenCount = 258_400;

type CodexProfileId = 'manual-only' | 'fixed-limit' | 'percent-90';

/** Dated by the PRs (no release tag known for them): pickProfile goes by the log's start date. */
export const CODEX_PROFILES: readonly VersionProfile<CodexProfileId>[] = [
  {
    id: 'manual-only',
    label: 'before 2025-09-23: /compact only, no automatic compaction',
    from: {},
    source:
      'JaydenXsoe/ocodex@097782c7755f5df3016f580f9c9bc9c7f9d47755:codex-rs/core/src/codex.rs:1240-1256 (upstream history to 2025-08-22: no auto-compaction)',
  },
  {
    id: 'fixed-limit',
    label:
      '2025-09-23: fixed per-model limits (gpt-5-codex 350,000 from 2025-09-24; PR threads, values not verified)',
    from: { date: '2025-09-23' },
    source: 'ours (why: openai/codex PR #4093, #4135, #4156 threads; the merged constants were not read)',
  },
  {
    id: 'percent-90',
    label: '2025-10-17: 90% of the raw window (244,800 for 272,000)',
    from: { date: '2025-10-17' },
    source:
      'openai/codex@0d4367d0e6a976082b36d9eea8f8a579fca368cb:codex-rs/protocol/src/openai_models.rs (auto_compact_token_limit; PR #5292)',
  },
];

/**
 * The last Codex CLI release seen logging the model's raw window as `model_context_window`: the
 * 0.47.0 rollout of 2025-10-19 (Redaration/praxis3) logs 272,000, gpt-5's window in
 * openai_model_info.rs (`gpt-5*` → 272_000); the 0.57.0 one of 2025-11-12 (MoonLadderStudios/
 * MoonMind) and every later one log 258,400, its `effective_context_window_percent` 95. ours (why:
 * the release that started logging the effective window is not known here; a later release takes
 * the newer rule, as the Claude Code profiles do with their last version seen).
 */
export const CODEX_LAST_RAW_WINDOW_VERSION = '0.47';

/** PR #4156's limit for gpt-5-codex (context_window 272,000): above the window's size. */
const FIXED_LIMIT_TOKENS: TokenCount = 350_000;

export const DEFAULTS: CodexKnobs = {
  profile: 'percent-90',
  contextWindow: CODEX_DEFAULT_CONTEXT_WINDOW,
  effectiveWindowPercent: 95,
  thresholdPercent: 90,
  countReasoning: true,
  countItemsSinceUsage: false,
  overflowTrim: true,
  userMessageBudgetTokens: 20_000,
  autoCompactEnabled: true,
};

const SOURCE = 'docs/sources.md#codex (openai/codex compact.rs, openai_models.rs)';

const MODELS_SOURCE =
  'openai/codex@0d4367d0e6a976082b36d9eea8f8a579fca368cb:codex-rs/protocol/src/openai_models.rs';

export const CODEX_HISTORY_SOURCE =
  'openai/codex@023fad268e08c252b94e4a95cb3c7f2f08c2a972:codex-rs/core/src/context_manager/history.rs';

const SPECS: readonly KnobSpec[] = [
  profileKnobSpec(CODEX_PROFILES, 'Codex'),
  contextWindowSpec(`${SOURCE}: the log's model_context_window, else 272,000 × 95%`, 'Codex'),
  {
    key: 'effectiveWindowPercent',
    label: 'Logged window (% of the raw one)',
    kind: 'number',
    unit: 'percent',
    min: 1,
    max: 100,
    step: 1,
    source: `${MODELS_SOURCE} (default_effective_context_window_percent 95)`,
    group: 'Codex',
  },
  {
    key: 'thresholdPercent',
    label: 'Auto-compact at (% of the raw window)',
    kind: 'number',
    unit: 'percent',
    min: 1,
    max: 100,
    step: 1,
    source: `${MODELS_SOURCE} (auto_compact_token_limit: context_window * 9 / 10)`,
    group: 'Codex',
    cliFlag: 'pct',
  },
  {
    key: 'autoCompactTokenLimit',
    label: 'Explicit auto-compact limit',
    kind: 'number',
    unit: 'tokens',
    min: 1_000,
    max: 4_000_000,
    step: 1_000,
    optional: true,
    help: 'model_auto_compact_token_limit in config.toml; empty: the percent of the raw window',
    source: `${MODELS_SOURCE} (auto_compact_token_limit.or(…))`,
    group: 'Codex',
  },
  {
    key: 'countReasoning',
    label: 'Count earlier reasoning',
    kind: 'boolean',
    help: 'Encrypted reasoning before the last user message: (length × 3/4 − 650) bytes / 4 each',
    source: `${CODEX_HISTORY_SOURCE} (get_total_token_usage, get_non_last_reasoning_items_tokens, estimate_reasoning_length)`,
    group: 'Codex',
  },
  {
    key: 'countItemsSinceUsage',
    label: 'Count items since the last usage',
    kind: 'boolean',
    help: 'Tool outputs after the last model item, characters / 4 (ours: Codex estimates the truncated item it stores, serialized, bytes / 4)',
    source: `${CODEX_HISTORY_SOURCE} (items_after_last_model_generated_item; newer copies only, release unknown: off by default)`,
    group: 'Codex',
  },
  {
    key: 'overflowTrim',
    label: 'Trim the oldest items on overflow',
    kind: 'boolean',
    source:
      'openai/codex@0100b103625752f6a10c21b79a8c423761dc4c6a:codex-rs/core/src/compact.rs (run_compact_task_inner: ContextWindowExceeded → history.remove_first_item, retry)',
    group: 'Codex',
  },
  {
    key: 'userMessageBudgetTokens',
    label: 'Kept user messages',
    kind: 'number',
    unit: 'tokens',
    min: 0,
    max: 200_000,
    step: 1_000,
    source: `${SOURCE}: COMPACT_USER_MESSAGE_MAX_TOKENS 20,000`,
    group: 'Codex',
  },
  {
    key: 'autoCompactEnabled',
    label: 'Auto-compact',
    kind: 'boolean',
    source: SOURCE,
    group: 'Codex',
    cliFlag: 'auto-compact',
  },
];

/** The raw window: the logged (effective) one ÷ `effective_context_window_percent`. */
export function getCodexRawWindow(knobs: CodexKnobs): TokenCount {
  return Math.round((knobs.contextWindow * 100) / knobs.effectiveWindowPercent);
}

/** `auto_compact_token_limit`: the explicit limit, else `(context_window * 9) / 10` of the raw window's size. */
export function getCodexThreshold(knobs: CodexKnobs): TokenCount {
  if (knobs.profile === 'fixed-limit') return knobs.autoCompactTokenLimit ?? FIXED_LIMIT_TOKENS;
  return knobs.autoCompactTokenLimit ?? Math.floor((getCodexRawWindow(knobs) * knobs.thresholdPercent) / 100);
}

export const CODEX_DESCRIPTOR: StrategyDescriptor<CodexKnobs> = {
  id: 'codex',
  label: 'Codex CLI',
  // Its estimate of the earlier encrypted reasoning (index.ts, `count`).
  countsBeyondUsage: true,
  description:
    "Auto-compact at 90% of the model's raw window (244,800 of 272,000) on the last request's total plus Codex's estimate of the earlier encrypted reasoning; the history becomes the most recent user messages (≤ 20,000 tokens) and a prefixed summary (the oldest items dropped first when the request overflows).",
  knobSpecs: SPECS,
  defaultKnobs: DEFAULTS,
  normalizeKnobs: createKnobNormalizer(SPECS, DEFAULTS),
  thresholds: (knobs): ThresholdLine[] => {
    const lines: ThresholdLine[] = [];
    if (knobs.autoCompactEnabled && knobs.profile !== 'manual-only')
      lines.push({
        id: 'auto-compact',
        label: 'Auto-compact',
        tokens: getCodexThreshold(knobs),
        kind: 'trigger',
      });
    lines.push({ id: 'window', label: 'Context window', tokens: knobs.contextWindow, kind: 'limit' });
    return lines;
  },
  // Its summarization prompt presets (the picker lists them; the first is what its compactions send).
  promptPresets: [CODEX],
  // Its real rollouts' compactions carry the summary encrypted: no size to fit on.
  summarySize: () =>
    borrowedSummarySize(
      "the 3 compactions of the corpus' real Codex rollouts (CLI 0.117–0.118, 2026-03/04) carry their summary encrypted (a `compaction` item, the `compacted` record's message empty) and Codex's compact prompt states no cap",
    ),
  // The knobs the golden dump's first line lists.
  dumpKnobKeys: ['contextWindow'],
};
