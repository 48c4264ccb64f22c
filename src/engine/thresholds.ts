import type { TokenCount } from './types';

// Claude Code's context thresholds, computed exactly as the reference documents give them.
//   v2.1.68 profile: docs/sources.md#cc-threshold.
//   legacy profile:  docs/sources.md#ccs-thresholds.
//   v2.0 profile:    the v2.1.68 formula with a 32,000-token output reservation cap, measured on the
//                    corpus for 2.0.x–2.1.19 (2.0.67–2.0.76 auto-compactions fire at the first call
//                    whose usage reaches 155,000 = 200,000 − 32,000 − 13,000; 2.1.9–2.1.19
//                    microcompactions at 148,000 = 168,000 − 20,000; docs/replay-accuracy.md).

/** `BcK`: the default context window for non-extended models (Claude Code 2.1.68 (docs/sources.md#cc-threshold)). */
export const DEFAULT_CONTEXT_WINDOW: TokenCount = 200_000;
/** The extended (1M) context window, selectable for models that have it. */
export const EXTENDED_CONTEXT_WINDOW: TokenCount = 1_000_000;
/** `a5Y`: output reservation cap (Claude Code 2.1.68 (docs/sources.md#cc-threshold)). */
export const OUTPUT_RESERVATION_CAP: TokenCount = 20_000;
/**
 * Output reservation cap of Claude Code 2.0.x. Not in the references: derived from the corpus
 * (docs/replay-accuracy.md, "2.0.x threshold"): 2.0.x reserved the 32k max output it then
 * defaulted to, so 200k windows auto-compacted at 155,000.
 */
export const OUTPUT_RESERVATION_CAP_V2_0: TokenCount = 32_000;
/** `wk8` / `zQ0`: free-space buffer below the usable window (both documents). */
export const AUTOCOMPACT_BUFFER: TokenCount = 13_000;
/** `rD5`: warning shown this far below the limit ("Three-Tier Threshold System"). */
export const WARNING_BUFFER: TokenCount = 20_000;
/** `oD5`: error shown this far below the limit ("Three-Tier Threshold System"). */
const ERROR_BUFFER: TokenCount = 20_000;
/** Blocking limit: window − 3,000, an absolute hard stop (Claude Code 2.1.68 (docs/sources.md#cc-threshold)). */
export const BLOCKING_BUFFER: TokenCount = 3_000;
/** Max output tokens Claude Code assumes for current models (Sonnet/Opus 4.x allow 64k or more). */
export const DEFAULT_MAX_OUTPUT_TOKENS: TokenCount = 64_000;

type ThresholdProfileId = 'v2.1.68' | 'v2.0' | 'legacy';

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

/** Tokens a profile keeps free for the model's answer: `min(max output, cap)`, 0 for legacy. */
export function getOutputReservation(profile: ThresholdProfileId, maxOutputTokens: TokenCount): TokenCount {
  switch (profile) {
    case 'v2.1.68':
      return Math.min(maxOutputTokens, OUTPUT_RESERVATION_CAP);
    case 'v2.0':
      return Math.min(maxOutputTokens, OUTPUT_RESERVATION_CAP_V2_0);
    case 'legacy':
      return 0;
  }
}

/** Last version seen with the 32k output cap; 2.1.34 is the first seen with 20k (docs/replay-accuracy.md). */
const LAST_V2_0_PATCH_OF_2_1 = 19;
/** The first version seen with the 20k cap (docs/replay-accuracy.md): 2.1.20–2.1.33 are unseen. */
const FIRST_V2_1_68_PATCH_SEEN = 34;
/**
 * The newest Claude Code version whose auto-compactions the real logs reproduce under the v2.1.68
 * profile (LAF-US__IDAHO-VAULT 05541cb5, 2.1.92–2.1.101: 5 of 6 at the logged call; the real-log
 * manifest's sessions of the same vault in 2.1.111: 12 of 12 at the logged call,
 * docs/replay-accuracy.md); later logs of the corpus (2.1.114–2.1.229) never compact, so nothing
 * in them confirms or refutes the profile. ours (why: the newest version a profile was checked on).
 */
export const NEWEST_CLAUDE_CODE_VERSION_CHECKED = '2.1.111';

/**
 * What is known of a version's profile, when it is not read or measured: a version in the unseen
 * gap between two profiles, or newer than every version checked. Undefined when it was seen.
 */
export function describeUncheckedVersion(version: string | undefined): string | undefined {
  const m = version ? /^(\d+)\.(\d+)\.(\d+)/.exec(version) : null;
  if (!m) return undefined;
  const [major, minor, patch] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (major === 2 && minor === 1 && patch > LAST_V2_0_PATCH_OF_2_1 && patch < FIRST_V2_1_68_PATCH_SEEN)
    return `Claude Code ${version} lies between 2.1.${LAST_V2_0_PATCH_OF_2_1} (the last version seen reserving 32,000 for output) and 2.1.${FIRST_V2_1_68_PATCH_SEEN} (the first seen reserving 20,000); no log of it was seen, so the newer profile v2.1.68 is assumed.`;
  const [nMajor, nMinor, nPatch] = NEWEST_CLAUDE_CODE_VERSION_CHECKED.split('.').map(Number) as [
    number,
    number,
    number,
  ];
  const newer = major !== nMajor ? major > nMajor : minor !== nMinor ? minor > nMinor : patch > nPatch;
  if (newer)
    return `Claude Code ${version} is newer than every version the profiles were read from (2.1.68) or checked on (the real logs' auto-compactions up to ${NEWEST_CLAUDE_CODE_VERSION_CHECKED}): its thresholds are assumed unchanged since then.`;
  return undefined;
}

/**
 * The profile a Claude Code version used: 2.1.20+ → v2.1.68, 2.0.x–2.1.19 → v2.0, older →
 * legacy. Unknown or missing versions get the current profile.
 */
export function getThresholdProfileForVersion(version: string | undefined): ThresholdProfileId {
  const m = version ? /^(\d+)\.(\d+)\.(\d+)/.exec(version) : null;
  if (!m) return 'v2.1.68';
  const major = Number(m[1]);
  const minor = Number(m[2]);
  const patch = Number(m[3]);
  if (major > 2 || (major === 2 && minor > 1)) return 'v2.1.68';
  if (major === 2 && minor === 1) return patch > LAST_V2_0_PATCH_OF_2_1 ? 'v2.1.68' : 'v2.0';
  if (major === 2) return 'v2.0';
  return 'legacy';
}

/** All of Claude Code's thresholds for one set of knobs. */
export function computeThresholds(knobs: ThresholdKnobs): Thresholds {
  const window = knobs.contextWindow;
  // v2.1.68 `B96` (docs/sources.md#cc-threshold); the legacy `aI2` works from the total context limit (`TYA`) directly.
  const effectiveWindow = window - getOutputReservation(knobs.profile, knobs.maxOutputTokens);
  const base = effectiveWindow - AUTOCOMPACT_BUFFER;
  // Both profiles: the override is a percentage of the same base window, floored, and never
  // above the default threshold (`Math.min(custom, default)`).
  const autoCompact = isValidPct(knobs.autocompactPctOverride)
    ? Math.min(Math.floor(effectiveWindow * (knobs.autocompactPctOverride / 100)), base)
    : base;
  // `x1A`: warning/error hang from the auto-compact threshold when auto-compact is on, else from
  // the total context limit `TYA` — the base the 13k buffer is taken from, i.e. the effective
  // window in the output-reserving profiles (the window itself in legacy).
  const limit = knobs.autoCompactEnabled ? autoCompact : effectiveWindow;
  return {
    contextWindow: window,
    effectiveWindow,
    autoCompact,
    warning: limit - WARNING_BUFFER,
    error: limit - ERROR_BUFFER,
    blocking: knobs.blockingLimitOverride ?? window - BLOCKING_BUFFER,
  };
}

/** The context window a model id implies: `[1m]` / `-1m` variants have 1M tokens. */
export function getContextWindowForModel(model: string | undefined): TokenCount {
  return model && /\[1m\]|-1m\b/i.test(model) ? EXTENDED_CONTEXT_WINDOW : DEFAULT_CONTEXT_WINDOW;
}
