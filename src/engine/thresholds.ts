import type { TokenCount } from './types';

// Claude Code's context thresholds, computed exactly as the reference documents give them.
//   v2.1.68 profile: ../shared/reference/claude-code-compaction-v2.1.68.txt, section "Threshold".
//   legacy profile:  ../shared/reference/claude-code-compact-system.md, "Three-Tier Threshold System".

/** `BcK`: the default context window for non-extended models (v2.1.68 "Threshold"). */
export const DEFAULT_CONTEXT_WINDOW: TokenCount = 200_000;
/** The extended (1M) context window, selectable for models that have it. */
export const EXTENDED_CONTEXT_WINDOW: TokenCount = 1_000_000;
/** `a5Y`: output reservation cap (v2.1.68 "Threshold"). */
export const OUTPUT_RESERVATION_CAP: TokenCount = 20_000;
/** `wk8` / `zQ0`: free-space buffer below the usable window (both documents). */
export const AUTOCOMPACT_BUFFER: TokenCount = 13_000;
/** `rD5`: warning shown this far below the limit ("Three-Tier Threshold System"). */
export const WARNING_BUFFER: TokenCount = 20_000;
/** `oD5`: error shown this far below the limit ("Three-Tier Threshold System"). */
export const ERROR_BUFFER: TokenCount = 20_000;
/** Blocking limit: window − 3,000, an absolute hard stop (v2.1.68 "Threshold"). */
export const BLOCKING_BUFFER: TokenCount = 3_000;
/** Max output tokens Claude Code assumes for current models (Sonnet/Opus 4.x allow 64k or more). */
export const DEFAULT_MAX_OUTPUT_TOKENS: TokenCount = 64_000;

export type ThresholdProfileId = 'v2.1.68' | 'legacy';

export interface ThresholdProfile {
  id: ThresholdProfileId;
  label: string;
  source: string;
}

export const THRESHOLD_PROFILES: readonly ThresholdProfile[] = [
  {
    id: 'v2.1.68',
    label: 'Claude Code 2.1.x (effective window − 13k)',
    source: 'claude-code-compaction-v2.1.68.txt, "Threshold"',
  },
  {
    id: 'legacy',
    label: 'Claude Code legacy (context limit − 13k)',
    source: 'claude-code-compact-system.md, "Three-Tier Threshold System"',
  },
];

export interface ThresholdKnobs {
  profile: ThresholdProfileId;
  contextWindow: TokenCount;
  maxOutputTokens: TokenCount;
  /** CLAUDE_AUTOCOMPACT_PCT_OVERRIDE, 1–100; it can only lower the threshold. Absent = no override. */
  autocompactPctOverride?: number;
  /** autoCompactEnabled / DISABLE_AUTO_COMPACT: changes the base the warning levels hang from. */
  autoCompactEnabled: boolean;
  /** CLAUDE_CODE_BLOCKING_LIMIT_OVERRIDE. */
  blockingLimitOverride?: TokenCount;
}

export const DEFAULT_THRESHOLD_KNOBS: ThresholdKnobs = {
  profile: 'v2.1.68',
  contextWindow: DEFAULT_CONTEXT_WINDOW,
  maxOutputTokens: DEFAULT_MAX_OUTPUT_TOKENS,
  autoCompactEnabled: true,
};

export interface Thresholds {
  contextWindow: TokenCount;
  /** `B96`: window − min(max output, 20k). The legacy profile has no output reservation. */
  effectiveWindow: TokenCount;
  autoCompact: TokenCount;
  warning: TokenCount;
  error: TokenCount;
  blocking: TokenCount;
}

function isValidPct(pct: number | undefined): pct is number {
  return pct !== undefined && Number.isFinite(pct) && pct > 0 && pct <= 100;
}

/** All of Claude Code's thresholds for one set of knobs. */
export function computeThresholds(knobs: ThresholdKnobs): Thresholds {
  const window = knobs.contextWindow;
  // v2.1.68 `B96`; the legacy `aI2` works from the total context limit (`TYA`) directly.
  const effectiveWindow =
    knobs.profile === 'v2.1.68' ? window - Math.min(knobs.maxOutputTokens, OUTPUT_RESERVATION_CAP) : window;
  const base = effectiveWindow - AUTOCOMPACT_BUFFER;
  // Both profiles: the override is a percentage of the same base window, floored, and never
  // above the default threshold (`Math.min(custom, default)`).
  const autoCompact = isValidPct(knobs.autocompactPctOverride)
    ? Math.min(Math.floor(effectiveWindow * (knobs.autocompactPctOverride / 100)), base)
    : base;
  // `x1A`: warning/error hang from the auto-compact threshold when auto-compact is on, else from
  // the total context limit.
  const limit = knobs.autoCompactEnabled ? autoCompact : window;
  return {
    contextWindow: window,
    effectiveWindow,
    autoCompact,
    warning: limit - WARNING_BUFFER,
    error: limit - ERROR_BUFFER,
    blocking: knobs.blockingLimitOverride ?? window - BLOCKING_BUFFER,
  };
}

/** The window a model id implies: `[1m]` / `-1m` variants have the extended window. */
export function getContextWindowForModel(model: string | undefined): TokenCount {
  return model && /\[1m\]|-1m\b/i.test(model) ? EXTENDED_CONTEXT_WINDOW : DEFAULT_CONTEXT_WINDOW;
}
