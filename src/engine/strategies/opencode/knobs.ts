import type { TokenCount } from '../../types';
import { profileKnobSpec, type VersionProfile } from '../version-profile';
import type { KnobSpec } from '../types';

// OpenCode's knobs: its version profiles, the knob values and their specs (index.ts runs them).

type OpenCodeProfileId = 'early-2026' | 'prune-opt-in';

/**
 * OpenCode's releases as far as the sources establish them (the stored-file index's copies of
 * anomalyco/opencode also hold fork content, so its commits are not proven upstream and carry no
 * date). Not modelled: the tail kept verbatim (clamp(25% of usable, 2,000, 15,000) tokens), the
 * 2,000-character tool outputs and the anchored previous summary of a newer `compaction.ts` — they
 * were seen only in fork copies, with no upstream commit found; nor core's "compact v2"
 * (anomalyco/opencode PR #30986, 2026-06-05), whose trigger and kept tail differ.
 */
export const OPENCODE_PROFILES: readonly VersionProfile<OpenCodeProfileId>[] = [
  {
    id: 'early-2026',
    label: 'early 2026: overflow at usable; prune on unless compaction.prune is false',
    from: {},
    source:
      'anomalyco/opencode@fd78ec63492f89beb0bcff15321ebbb23f214cc2:packages/opencode/src/session/compaction.ts:30-91 (index copy; the code issue #10016 of 2026-01-22 quotes)',
  },
  {
    id: 'prune-opt-in',
    label:
      'from 2026-04-24 at the latest: prune only when compaction.prune is true (tail/anchor rules of forks not modelled)',
    from: { date: '2026-04-24' },
    source:
      'anomalyco/opencode@08f74b9bb5a7dac12b2624a9b1dba4abf7d5b3f2:packages/opencode/src/session/overflow.ts:6-22 (usable, index copy); prune opt-in: `if (!cfg.compaction?.prune) return` per issue #24108 (2026-04-24) and PR #24127 ("disabled by default intentionally"); flip commit not found',
  },
];

export interface OpenCodeKnobs {
  /** The release profile: sets the prune default when a log is opened. */
  profile: OpenCodeProfileId;
  /** `model.limit.context`. */
  contextLimit: TokenCount;
  /** `model.limit.input`, when the model states one (0: none). */
  inputLimit: TokenCount;
  /** `ProviderTransform.maxOutputTokens`: min(`model.limit.output`, `OUTPUT_TOKEN_MAX` 32,000). */
  maxOutputTokens: TokenCount;
  /** `compaction.reserved`; undefined: min(20,000, max output). */
  reservedTokens: TokenCount | undefined;
  /** `compaction.auto` (and not `OPENCODE_DISABLE_AUTOCOMPACT`). */
  autoCompact: boolean;
  /** `compaction.prune`. */
  prune: boolean;
  /** `PRUNE_PROTECT`: newest tool output kept, in tokens. */
  pruneProtectTokens: TokenCount;
  /** `PRUNE_MINIMUM`: prune only when more than this is prunable. */
  pruneMinimumTokens: TokenCount;
  /** User turns the prune never touches (`turns < 2`). */
  protectTurns: number;
  /** `PRUNE_PROTECTED_TOOLS`. */
  protectedTools: string[];
  /** `autoCompactStalled` threshold: a compaction that leaves ≥ this % of its trigger stalls. */
  stallPercent: number;
}

/** `COMPACTION_BUFFER` (overflow.ts). */
export const OPENCODE_COMPACTION_BUFFER: TokenCount = 20_000;

export const OPENCODE_DEFAULT_KNOBS: OpenCodeKnobs = {
  profile: 'prune-opt-in',
  contextLimit: 200_000,
  inputLimit: 0,
  maxOutputTokens: 32_000,
  reservedTokens: undefined,
  autoCompact: true,
  prune: false,
  pruneProtectTokens: 40_000,
  pruneMinimumTokens: 20_000,
  protectTurns: 2,
  protectedTools: ['skill'],
  stallPercent: 95,
};

export const OPENCODE_SOURCE = 'docs/sources.md#opencode (anomalyco/opencode packages/opencode/src/session';
const COMPACTION = `${OPENCODE_SOURCE}/compaction.ts)`;
const OVERFLOW = `${OPENCODE_SOURCE}/overflow.ts)`;

export const OPENCODE_KNOB_SPECS: readonly KnobSpec[] = [
  {
    ...profileKnobSpec(OPENCODE_PROFILES, 'OpenCode'),
    help: 'Picked from the log’s start date (the releases are dated, not versioned); it sets the prune default when the log is opened',
  },
  {
    key: 'contextLimit',
    label: 'Model context limit',
    kind: 'number',
    unit: 'tokens',
    min: 10_000,
    max: 2_000_000,
    step: 1_000,
    source: `${OVERFLOW}: model.limit.context; 200,000 for Claude models (the log's window when it is known)`,
    group: 'OpenCode',
    cliFlag: 'window',
  },
  {
    key: 'inputLimit',
    label: 'Model input limit (0: none)',
    kind: 'number',
    unit: 'tokens',
    min: 0,
    max: 2_000_000,
    step: 1_000,
    source: `${OVERFLOW}: model.limit.input, stated by few models; usable = input − reserved when set`,
    group: 'OpenCode',
  },
  {
    key: 'maxOutputTokens',
    label: 'Max output',
    kind: 'number',
    unit: 'tokens',
    min: 1_000,
    max: 200_000,
    step: 1_000,
    source: `${OVERFLOW}: ProviderTransform.maxOutputTokens = min(model.limit.output, OUTPUT_TOKEN_MAX 32,000)`,
    group: 'OpenCode',
    cliFlag: 'max-output',
  },
  {
    key: 'reservedTokens',
    label: 'Reserved (compaction.reserved)',
    kind: 'number',
    unit: 'tokens',
    min: 0,
    max: 500_000,
    step: 1_000,
    optional: true,
    help: 'Empty: min(20,000, max output). Used with an input limit only',
    source: `${OVERFLOW}: compaction.reserved ?? min(COMPACTION_BUFFER 20,000, max output)`,
    group: 'OpenCode',
  },
  {
    key: 'autoCompact',
    label: 'Auto-compact',
    kind: 'boolean',
    source: `${OVERFLOW}: compaction.auto, default true`,
    group: 'OpenCode',
    cliFlag: 'auto-compact',
  },
  {
    key: 'prune',
    label: 'Prune old tool output',
    kind: 'boolean',
    source: `${COMPACTION}: compaction.prune — on unless false in early 2026, off unless true by 2026-04-24 (issue #24108, PR #24127)`,
    group: 'OpenCode prune',
    cliFlag: 'prune',
  },
  {
    key: 'pruneProtectTokens',
    label: 'Protect newest tool output',
    kind: 'number',
    unit: 'tokens',
    min: 0,
    max: 1_000_000,
    step: 1_000,
    source: `${COMPACTION}: PRUNE_PROTECT 40,000`,
    group: 'OpenCode prune',
  },
  {
    key: 'pruneMinimumTokens',
    label: 'Prune only above',
    kind: 'number',
    unit: 'tokens',
    min: 0,
    max: 1_000_000,
    step: 1_000,
    source: `${COMPACTION}: PRUNE_MINIMUM 20,000 (pruned > minimum)`,
    group: 'OpenCode prune',
  },
  {
    key: 'protectTurns',
    label: 'Untouched user turns',
    kind: 'number',
    unit: 'count',
    min: 0,
    max: 50,
    step: 1,
    integer: true,
    source: `${COMPACTION}: the walk skips messages until it has passed 2 user turns`,
    group: 'OpenCode prune',
  },
  {
    key: 'protectedTools',
    label: 'Tools never pruned',
    kind: 'list',
    help: 'Compared without case (OpenCode’s skill, Claude Code’s Skill)',
    source: `${COMPACTION}: PRUNE_PROTECTED_TOOLS ["skill"]`,
    group: 'OpenCode prune',
  },
  {
    key: 'stallPercent',
    label: 'Stall guard (% of the trigger left)',
    kind: 'number',
    unit: 'percent',
    min: 1,
    max: 100,
    step: 1,
    source: `${OVERFLOW}: autoCompactStalled threshold 0.95 (less than a 5% reduction)`,
    group: 'OpenCode',
  },
];
