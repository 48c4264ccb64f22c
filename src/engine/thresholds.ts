import type { TokenCount } from './types';

// Claude Code's context thresholds, as each release's cli.js computes them (npm package
// @anthropic-ai/claude-code, docs/sources.md#cc-npm-constants):
//   legacy profile:  1.0.x before 1.0.71: 92% of (window − max output), warning and error at 80%.
//   v2.0 profile:    1.0.71–2.1.20: window − max output (32,000 unless CLAUDE_CODE_MAX_OUTPUT_TOKENS)
//                    − 13,000; the corpus's 2.0.67–2.0.76 auto-compactions fire at 155,000.
//   v2.1.68 profile: 2.1.21 on: window − min(max output, 20,000) − 13,000 (docs/sources.md#cc-threshold).

/** `BcK`: the default context window for non-extended models (Claude Code 2.1.68 (docs/sources.md#cc-threshold)). */
export const DEFAULT_CONTEXT_WINDOW: TokenCount = 200_000;
/** The extended (1M) context window, selectable for models that have it. */
export const EXTENDED_CONTEXT_WINDOW: TokenCount = 1_000_000;
/** `a5Y`: output reservation cap, 2.1.21 on (`@anthropic-ai/claude-code@2.1.21:cli.js (Math.min(Sx6(A),PL2))`, docs/sources.md#cc-npm-constants). */
export const OUTPUT_RESERVATION_CAP: TokenCount = 20_000;
/**
 * What 1.0.x–2.1.20 reserved for output: the max output itself, 32,000 unless
 * CLAUDE_CODE_MAX_OUTPUT_TOKENS says otherwise (`@anthropic-ai/claude-code@2.0.76:cli.js
 * (ShA={…default:32000…}; EHA(){…return NO(A)-Q})`, docs/sources.md#cc-npm-constants); no cap.
 * Modelled as a cap on the max-output knob, which defaults to 64,000.
 */
export const OUTPUT_RESERVATION_CAP_V2_0: TokenCount = 32_000;
/** 1.0.x before 1.0.71: auto-compact at 92% of the effective window (`@anthropic-ai/claude-code@1.0.70:cli.js (ZG8=0.92)`). */
const LEGACY_AUTOCOMPACT_FRACTION = 0.92;
/**
 * 1.0.x before 1.0.71: warning and error at 80% of the auto-compact threshold (`@anthropic-ai/claude-code@1.0.70:cli.js
 * (GG8=0.8,FG8=0.8)`); 1.0.24–1.0.48 warned at 60% (`@anthropic-ai/claude-code@1.0.24:cli.js (vY5=0.6)`):
 * ours (why: one profile for both; the warning only draws a line, 1.0.x has no microcompact).
 */
const LEGACY_WARNING_FRACTION = 0.8;
/** `wk8`: free-space buffer below the usable window, 1.0.71 on (docs/sources.md#cc-npm-constants). */
export const AUTOCOMPACT_BUFFER: TokenCount = 13_000;
/** `s5Y`: warning shown this far below the limit, 1.0.71 on (docs/sources.md#cc-npm-constants). */
export const WARNING_BUFFER: TokenCount = 20_000;
/** `t5Y`: error shown this far below the limit, 1.0.71 on (docs/sources.md#cc-npm-constants). */
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
  /** `B96`: window − min(max output, 20k); window − min(max output, 32k) in v2.0 and legacy. */
  effectiveWindow: TokenCount;
  autoCompact: TokenCount;
  warning: TokenCount;
  error: TokenCount;
  blocking: TokenCount;
}

function isValidPct(pct: number | undefined): pct is number {
  return pct !== undefined && Number.isFinite(pct) && pct > 0 && pct <= 100;
}

/** Tokens a profile keeps free for the model's answer: `min(max output, cap)`. */
export function getOutputReservation(profile: ThresholdProfileId, maxOutputTokens: TokenCount): TokenCount {
  switch (profile) {
    case 'v2.1.68':
      return Math.min(maxOutputTokens, OUTPUT_RESERVATION_CAP);
    case 'v2.0':
    case 'legacy':
      return Math.min(maxOutputTokens, OUTPUT_RESERVATION_CAP_V2_0);
  }
}

/** The last release reserving the whole max output (`@anthropic-ai/claude-code@2.1.20:cli.js`); 2.1.21 caps it at 20,000. */
const LAST_V2_0_PATCH_OF_2_1 = 20;
/** The first release computing window − output − 13,000 (`@anthropic-ai/claude-code@1.0.71:cli.js (pK8=13000)`); 1.0.70 has 92%. */
const FIRST_V2_0_PATCH_OF_1_0 = 71;
/**
 * The newest Claude Code version whose auto-compactions the real logs reproduce under the v2.1.68
 * profile (LAF-US__IDAHO-VAULT 05541cb5, 2.1.92–2.1.101: 5 of 6 at the logged call; the real-log
 * manifest's sessions of the same vault in 2.1.111: 12 of 12 at the logged call,
 * docs/replay-accuracy.md); later logs of the corpus (2.1.114–2.1.229) never compact, so nothing
 * in them confirms or refutes the profile. ours (why: the newest version a profile was checked on).
 */
export const NEWEST_CLAUDE_CODE_VERSION_CHECKED = '2.1.111';
/** The newest release whose code was read for the profiles (its native binary's JavaScript, docs/sources.md#cc-npm-constants). */
const NEWEST_CLAUDE_CODE_VERSION_READ = '2.1.229';

/** A version's `x.y.z` as numbers (a suffix aside), or undefined. */
function parseXyz(version: string | undefined): [number, number, number] | undefined {
  const m = version ? /^(\d+)\.(\d+)\.(\d+)/.exec(version) : null;
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

/** Numeric order of two `x.y.z` (engine root: the strategies' `compareVersions` is a layer above). */
function compareXyz(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/**
 * What is known of a version's profile, when it is not read or measured: a version newer than
 * every version checked. Undefined otherwise.
 */
export function describeUncheckedVersion(version: string | undefined): string | undefined {
  const at = parseXyz(version);
  if (!at || compareXyz(at, parseXyz(NEWEST_CLAUDE_CODE_VERSION_CHECKED)!) <= 0) return undefined;
  const read = compareXyz(at, parseXyz(NEWEST_CLAUDE_CODE_VERSION_READ)!) <= 0;
  return read
    ? `Claude Code ${version} is newer than every version checked on real logs' auto-compactions (up to ${NEWEST_CLAUDE_CODE_VERSION_CHECKED}); its code, read from the npm package up to ${NEWEST_CLAUDE_CODE_VERSION_READ}, computes the same threshold (docs/sources.md#cc-npm-constants).`
    : `Claude Code ${version} is newer than every version the profiles were read from (the npm package, up to ${NEWEST_CLAUDE_CODE_VERSION_READ}) or checked on (the real logs' auto-compactions up to ${NEWEST_CLAUDE_CODE_VERSION_CHECKED}): its thresholds are assumed unchanged since then.`;
}

/**
 * The profile a Claude Code version used, as its cli.js computes the threshold
 * (docs/sources.md#cc-npm-constants): 2.1.21+ → v2.1.68, 1.0.71–2.1.20 → v2.0, older → legacy.
 * Unknown or missing versions get the current profile.
 */
export function getThresholdProfileForVersion(version: string | undefined): ThresholdProfileId {
  const at = parseXyz(version);
  if (!at) return 'v2.1.68';
  const [major, minor, patch] = at;
  if (major > 2 || (major === 2 && minor > 1)) return 'v2.1.68';
  if (major === 2 && minor === 1) return patch > LAST_V2_0_PATCH_OF_2_1 ? 'v2.1.68' : 'v2.0';
  if (major === 2) return 'v2.0';
  if (major === 1 && (minor > 0 || patch >= FIRST_V2_0_PATCH_OF_1_0)) return 'v2.0';
  return 'legacy';
}

/** All of Claude Code's thresholds for one set of knobs. */
export function computeThresholds(knobs: ThresholdKnobs): Thresholds {
  const window = knobs.contextWindow;
  // v2.1.68 `B96` (docs/sources.md#cc-threshold); 1.0.x before 1.0.71 compacts at 92% of it (a
  // fraction: T ≥ 154,560 on 168,000; rounded up, the same test for whole token counts).
  const effectiveWindow = window - getOutputReservation(knobs.profile, knobs.maxOutputTokens);
  const legacy = knobs.profile === 'legacy';
  const base = legacy
    ? Math.ceil(effectiveWindow * LEGACY_AUTOCOMPACT_FRACTION)
    : effectiveWindow - AUTOCOMPACT_BUFFER;
  // Both profiles: the override is a percentage of the same base window, floored, and never
  // above the default threshold (`Math.min(custom, default)`).
  const autoCompact = isValidPct(knobs.autocompactPctOverride)
    ? Math.min(Math.floor(effectiveWindow * (knobs.autocompactPctOverride / 100)), base)
    : base;
  // `Yl`: warning/error hang from the auto-compact threshold when auto-compact is on, else from
  // the effective window (every release read; 1.0.x's are fractions of it, not offsets).
  const limit = knobs.autoCompactEnabled ? autoCompact : effectiveWindow;
  const warning = legacy ? Math.ceil(limit * LEGACY_WARNING_FRACTION) : limit - WARNING_BUFFER;
  return {
    contextWindow: window,
    effectiveWindow,
    autoCompact,
    warning,
    error: legacy ? warning : limit - ERROR_BUFFER,
    blocking: knobs.blockingLimitOverride ?? window - BLOCKING_BUFFER,
  };
}

/** The context window a model id implies: `[1m]` / `-1m` variants have 1M tokens. */
export function getContextWindowForModel(model: string | undefined): TokenCount {
  return model && /\[1m\]|-1m\b/i.test(model) ? EXTENDED_CONTEXT_WINDOW : DEFAULT_CONTEXT_WINDOW;
}
