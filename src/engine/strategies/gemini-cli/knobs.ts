// Gemini CLI's knobs: the values and specs of its chat compression and tool-output masking
// (index.ts runs them; the sources are cited on each spec).

import type { TokenCount } from '../../types';
import type { KnobSpec } from '../types';
import { profileKnobSpec, type VersionProfile } from '../version-profile';
import { GEMINI_PROFILES, type GeminiProfileId, MASKING_SOURCE } from './masking';

export interface GeminiCliKnobs {
  /** `tokenLimit(model)`: 1,048,576 for Gemini 2.x / 3 models. */
  tokenLimit: TokenCount;
  /** `model.compressionThreshold`, a fraction of the token limit. */
  compressionThreshold: number;
  /** `COMPRESSION_PRESERVE_THRESHOLD`: the fraction of the history (by characters) kept. */
  preserveFraction: number;
  /** `COMPRESSION_FUNCTION_RESPONSE_TOKEN_BUDGET`. */
  functionResponseBudgetTokens: TokenCount;
  /** `truncateToolOutputThreshold`: characters a truncated function response keeps. */
  truncateOutputChars: number;
  /** The verification probe: a second summarizer call. */
  probe: boolean;
  /** The release profile (strategies/version-profile.ts): whether tool-output masking exists and its default. */
  profile: GeminiProfileId;
  /** `experimental.toolOutputMasking.enabled`: 'profile' (its default), 'on', 'off' (ignored where masking is always on). */
  maskingEnabled: string;
  /** DEFAULT_TOOL_PROTECTION_THRESHOLD: the newest function responses kept whole. */
  maskingProtectionTokens: TokenCount;
  /** DEFAULT_MIN_PRUNABLE_TOKENS_THRESHOLD: masking waits for this much to prune. */
  maskingMinPrunableTokens: TokenCount;
  /** DEFAULT_PROTECT_LATEST_TURN: the last history entry is never masked. */
  maskingProtectLatestTurn: boolean;
}

import { GEMINI_DEFAULT_TOKEN_LIMIT } from '../../parse/dialects/gemini-cli/info';

/** A release's default `DEFAULT_COMPRESSION_TOKEN_THRESHOLD` (profile id: the fraction). */
interface CompressionRelease extends VersionProfile<string> {
  threshold: number;
}

const GC = 'google-gemini/gemini-cli';

/**
 * The compression threshold each release shipped by default, read at the release tags (a log states
 * no version: its start date picks, by the tag dates). From 0.13 the CLI may also take it from a
 * remote experiment flag (config.ts `getCompressionThreshold`, CONTEXT_COMPRESSION_THRESHOLD):
 * not in the log, so the default stands.
 */
export const COMPRESSION_RELEASES: readonly CompressionRelease[] = [
  {
    id: '0.95',
    label: '0.95 (to 0.1.9)',
    threshold: 0.95,
    from: {},
    source: `${GC}@34935d6558dfca743e457ecd7684d0aab69f1c1b:packages/core/src/core/client.ts:452 (v0.1.9)`,
  },
  {
    id: '0.7',
    label: '0.7 (0.1.10–0.11.2)',
    threshold: 0.7,
    from: { version: '0.1.10', date: '2025-07-10' },
    source: `${GC}@319e4859be14da33676810650fc9dd3db927a506:packages/core/src/core/client.ts:94 (v0.1.10); still at ${GC}@f4f3727936d3cf9bb4f4269560153b94e2db04c1:packages/core/src/core/client.ts:122 (v0.11.2)`,
  },
  {
    id: '0.2',
    label: '0.2 (0.11.3–0.16)',
    threshold: 0.2,
    from: { version: '0.11.3', date: '2025-10-31' },
    source: `${GC}@e5161610ff649256b13448166582e4eca340be0c:packages/core/src/services/chatCompressionService.ts:23 (v0.11.3) (PR #12306)`,
  },
  {
    id: '0.5',
    label: '0.5 (0.17+)',
    threshold: 0.5,
    from: { version: '0.17.0', date: '2025-11-20' },
    source: `${GC}@079dfef2f7ea2e79ff85da4bbed2c58c05e2b7d4:packages/core/src/services/chatCompressionService.ts:22 (v0.17.0) (PR #13517); still 0.5 at ${GC}@1000b33d4caf462b8f34063c8669ebc2ce59dce2:packages/core/src/context/chatCompressionService.ts:41 (v0.44.0)`,
  },
];

export const DEFAULTS: GeminiCliKnobs = {
  tokenLimit: GEMINI_DEFAULT_TOKEN_LIMIT,
  compressionThreshold: 0.5,
  preserveFraction: 0.3,
  functionResponseBudgetTokens: 50_000,
  truncateOutputChars: 40_000,
  probe: true,
  profile: 'masking-no-memory',
  maskingEnabled: 'profile',
  maskingProtectionTokens: 50_000,
  maskingMinPrunableTokens: 30_000,
  maskingProtectLatestTurn: true,
};

const SOURCE =
  'docs/sources.md#gemini-cli (google-gemini/gemini-cli packages/core/src/context/chatCompressionService.ts)';

export const SPECS: readonly KnobSpec[] = [
  {
    key: 'tokenLimit',
    label: 'Model token limit',
    kind: 'number',
    unit: 'tokens',
    min: 10_000,
    max: 4_000_000,
    step: 1_000,
    source:
      'google-gemini/gemini-cli@5411f113cafae26161b4969b0237b8e1e024e2c2:packages/core/src/core/tokenLimits.ts:20: 1,048,576 (DEFAULT_TOKEN_LIMIT; Gemini 2.x and 3); 2,097,152 for gemini-1.5-pro in google-gemini/gemini-cli@fa5b616a10497802f0af5b6c9534eef66fff7159:packages/core/src/core/tokenLimits.ts:17',
    group: 'Gemini CLI',
    cliFlag: 'window',
  },
  {
    key: 'compressionThreshold',
    label: 'Compress at (fraction of the limit)',
    kind: 'number',
    min: 0.01,
    max: 1,
    step: 0.05,
    help: 'model.compressionThreshold in settings.json',
    source: `DEFAULT_COMPRESSION_TOKEN_THRESHOLD by release (the log's, else its date's): ${COMPRESSION_RELEASES.map((r) => `${r.label}: ${r.source}`).join('; ')}`,
    group: 'Gemini CLI',
  },
  {
    key: 'preserveFraction',
    label: 'Kept (fraction of the characters)',
    kind: 'number',
    min: 0.01,
    max: 0.99,
    step: 0.05,
    source: `${SOURCE}: COMPRESSION_PRESERVE_THRESHOLD 0.3`,
    group: 'Gemini CLI',
  },
  {
    key: 'functionResponseBudgetTokens',
    label: 'Function responses kept in full',
    kind: 'number',
    unit: 'tokens',
    min: 0,
    max: 1_000_000,
    step: 1_000,
    source: `${SOURCE}: COMPRESSION_FUNCTION_RESPONSE_TOKEN_BUDGET 50,000`,
    group: 'Gemini CLI',
  },
  {
    key: 'truncateOutputChars',
    label: 'A truncated response keeps',
    kind: 'number',
    min: 100,
    max: 4_000_000,
    step: 1_000,
    help: 'Characters (first 20%, last 80%) of a function response over the budget',
    source:
      'google-gemini/gemini-cli packages/core/src/config/config.ts DEFAULT_TRUNCATE_TOOL_OUTPUT_THRESHOLD 40,000 characters (read from the source; not in docs/sources.md#gemini-cli; older releases 4,000,000), utils/fileUtils.ts formatTruncatedToolOutput',
    group: 'Gemini CLI',
  },
  {
    key: 'probe',
    label: 'Verification probe (2nd call)',
    kind: 'boolean',
    source: `${SOURCE}: the "probe" turn that asks the model to check and re-emit its <state_snapshot>`,
    group: 'Gemini CLI',
    cliFlag: 'probe',
  },
  profileKnobSpec(GEMINI_PROFILES, 'Gemini CLI'),
  {
    key: 'maskingEnabled',
    label: 'Tool-output masking',
    kind: 'select',
    options: [
      { value: 'profile', label: "the profile's default" },
      { value: 'on', label: 'on' },
      { value: 'off', label: 'off' },
    ],
    help: 'experimental.toolOutputMasking.enabled (0.29–0.36); from 0.37 masking always runs',
    source:
      'google-gemini/gemini-cli@d924ed0128690dc99c5d7e3bfc1f23051dbd429e:packages/core/src/config/config.ts:761 (v0.29.0: ?? false); google-gemini/gemini-cli@339c4984aa67c98890647a8a8c2b772e3eeb67bc:packages/core/src/config/config.ts:767 (v0.30.0-preview.0: ?? true)',
    group: 'Tool-output masking',
  },
  {
    key: 'maskingProtectionTokens',
    label: 'Newest tool output protected',
    kind: 'number',
    unit: 'tokens',
    min: 0,
    max: 1_000_000,
    step: 1_000,
    source: `${MASKING_SOURCE}:25 (DEFAULT_TOOL_PROTECTION_THRESHOLD 50,000)`,
    group: 'Tool-output masking',
  },
  {
    key: 'maskingMinPrunableTokens',
    label: 'Mask once at least',
    kind: 'number',
    unit: 'tokens',
    min: 0,
    max: 1_000_000,
    step: 1_000,
    source: `${MASKING_SOURCE}:26 (DEFAULT_MIN_PRUNABLE_TOKENS_THRESHOLD 30,000)`,
    group: 'Tool-output masking',
  },
  {
    key: 'maskingProtectLatestTurn',
    label: 'Protect the latest turn',
    kind: 'boolean',
    source: `${MASKING_SOURCE}:27 (DEFAULT_PROTECT_LATEST_TURN true), :92-94`,
    group: 'Tool-output masking',
  },
];
