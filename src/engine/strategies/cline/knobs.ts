import { estimateTextTokens } from '../../tokens/estimate';
import type { TokenCount } from '../../types';
import type { KnobSpec } from '../types';
import { profileKnobSpec } from '../version-profile';
import { CLINE_PROFILES, CLINE_V4_0, CLINE_V4_1, CLINE_V4_1_8, type ClineProfileId } from './profiles';

// Cline's knobs: the classic ContextManager's, the SDK's (4.x) and the version profile (index.ts
// runs them: classic-run.ts, sdk-run.ts).

export interface ClineKnobs {
  /** The release profile: classic ContextManager or SDK, and the defaults a log opens with. */
  profile: ClineProfileId;
  /** The model's window (`contextWindow`, 128,000 when the model states none); with `windowPerModel`, that of calls whose model Cline's rule does not place. */
  contextWindow: TokenCount;
  /** Check each request against its own model's window (a log's own knobs: on when the task switches models of different windows). */
  windowPerModel: boolean;
  /** An explicit `maxAllowedSize`; undefined = the table by window size. */
  maxAllowedTokens: TokenCount | undefined;
  /** The table's buffers: window − this for a 64k, 128k and 200k window, else max(window − other, other% of the window). */
  buffer64kTokens: TokenCount;
  buffer128kTokens: TokenCount;
  buffer200kTokens: TokenCount;
  bufferOtherTokens: TokenCount;
  otherMinPercent: number;
  /** File-read dedup before truncating. */
  dedupEnabled: boolean;
  /** Dedup savings (percent of the in-context size) that make the truncation unnecessary. */
  dedupEnoughPercent: number;
  /** `auto`: half, a quarter kept when the total is over twice the limit. */
  truncateKeep: 'auto' | 'half' | 'quarter';
  /** Auto-condense through `summarize_task` instead of truncating. */
  useAutoCondense: boolean;
  autoCondensePercent: number;
  /** Tokens of the notices. */
  dedupNoticeTokens: TokenCount;
  truncationNoticeTokens: TokenCount;
  /** The continuation prompt around a condensed summary. */
  continuationTokens: TokenCount;
  /** SDK: the model's stated input limit (`maxInputTokens`); undefined = 90% of the window's size. */
  sdkMaxInputTokens: TokenCount | undefined;
  /** SDK: compact at this % of the usable input. */
  sdkTriggerPercent: number;
  /** SDK 4.0: the trigger is at most the input limit less this. */
  sdkReserveTokens: TokenCount;
  /** SDK agentic: the newest messages kept verbatim, in tokens. */
  preserveRecentTokens: TokenCount;
  /** SDK agentic: the summary call's max output. */
  summaryMaxTokens: TokenCount;
}

// Sizes of Cline's own texts (responses.ts `duplicateFileReadNotice`, 153 characters;
// `contextTruncationNotice`, 290; contextManagement.ts `continuationPrompt` without the summary,
// 605), priced at Claude Code's chars / 4 (tokens/estimate.ts).
const DEDUP_NOTICE_TOKENS = estimateTextTokens(153);
const TRUNCATION_NOTICE_TOKENS = estimateTextTokens(290);
const CONTINUATION_TOKENS = estimateTextTokens(605);

/** context-window-utils.ts: the window when the model states none. */
export const CLINE_DEFAULT_WINDOW: TokenCount = 128_000;

export const CLINE_DEFAULT_KNOBS: ClineKnobs = {
  profile: 'classic-v3.34',
  contextWindow: 200_000,
  windowPerModel: false,
  maxAllowedTokens: undefined,
  buffer64kTokens: 27_000,
  buffer128kTokens: 30_000,
  buffer200kTokens: 40_000,
  bufferOtherTokens: 40_000,
  otherMinPercent: 80,
  dedupEnabled: true,
  dedupEnoughPercent: 30,
  truncateKeep: 'auto',
  useAutoCondense: false,
  autoCondensePercent: 75,
  dedupNoticeTokens: DEDUP_NOTICE_TOKENS,
  truncationNoticeTokens: TRUNCATION_NOTICE_TOKENS,
  continuationTokens: CONTINUATION_TOKENS,
  sdkMaxInputTokens: undefined,
  sdkTriggerPercent: 90,
  sdkReserveTokens: 16_384,
  preserveRecentTokens: 20_000,
  summaryMaxTokens: 4_096,
};

const UTILS =
  'cline/cline@7fa0a4924b579fa7329e514b01cefab9f2ad20af:src/core/context/context-management/context-window-utils.ts';
const TABLE = `docs/sources.md#cline-classic (getContextWindowInfo, ${UTILS}:10-34)`;
const MANAGER =
  'cline/cline@7c782abaf4d2b9c944e7cd7370c542151fec7e3e:src/core/context/context-management/ContextManager.ts';
const STATE = 'cline/cline@7c782abaf4d2b9c944e7cd7370c542151fec7e3e:src/shared/storage/state-keys.ts';

const tokens = (
  key: keyof ClineKnobs,
  label: string,
  source: string,
  more: Partial<KnobSpec> = {},
): KnobSpec => ({
  key,
  label,
  kind: 'number',
  unit: 'tokens',
  min: 0,
  max: 2_000_000,
  step: 1_000,
  integer: true,
  source,
  group: 'Cline',
  ...more,
});

const SDK_CTX = 'sdk/packages/core/src/extensions/context';

export const CLINE_KNOB_SPECS: readonly KnobSpec[] = [
  profileKnobSpec(CLINE_PROFILES, 'Cline'),
  tokens(
    'contextWindow',
    'Context window',
    `${UTILS}:11 (the model's window, 128,000 when unknown); ${TABLE}`,
    {
      min: 10_000,
      cliFlag: 'window',
    },
  ),
  {
    key: 'windowPerModel',
    label: "Each request's model's window",
    kind: 'boolean',
    source: `${UTILS}:10-34 (getContextWindowInfo(api): the window of the model the request is sent with, read before each request by ContextManager.getNewContextMessagesAndMetadata)`,
    help: 'On (a task that switches models): each request is checked against its model’s window (the table’s maxAllowedSize for that window), Context window standing for models Cline’s rule does not place. Off: Context window for every request.',
    group: 'Cline',
    cliFlag: 'window-per-model',
  },
  tokens('maxAllowedTokens', 'maxAllowedSize (override)', `${TABLE}: empty = the table by window`, {
    optional: true,
    cliFlag: 'max-allowed',
  }),
  tokens('buffer64kTokens', 'Buffer, 64k window', `${UTILS}:21-22: 27,000 (DeepSeek)`, {
    cliFlag: 'buffer-64k',
  }),
  tokens('buffer128kTokens', 'Buffer, 128k window', `${UTILS}:24-25: 30,000`, { cliFlag: 'buffer-128k' }),
  tokens('buffer200kTokens', 'Buffer, 200k window', `${UTILS}:27-28: 40,000 (Claude)`, {
    cliFlag: 'buffer-200k',
  }),
  tokens('bufferOtherTokens', 'Buffer, other windows', `${UTILS}:31: 40,000`, { cliFlag: 'buffer-other' }),
  {
    key: 'otherMinPercent',
    label: 'Other windows: at least (% of window)',
    kind: 'number',
    unit: 'percent',
    min: 1,
    max: 100,
    step: 1,
    source: `${UTILS}:31: 80%`,
    group: 'Cline',
    cliFlag: 'other-pct',
  },
  {
    key: 'dedupEnabled',
    label: 'File-read dedup',
    kind: 'boolean',
    source: `docs/sources.md#cline-file-read-dedup; ${MANAGER}:246-249 (attemptFileReadOptimizationCore before truncating)`,
    group: 'Cline',
    cliFlag: 'dedup',
  },
  {
    key: 'dedupEnoughPercent',
    label: 'Dedup saving that skips truncation',
    kind: 'number',
    unit: 'percent',
    min: 0,
    max: 100,
    step: 1,
    source: `${MANAGER}:648 (needToTruncate: percentSaved < 0.3)`,
    group: 'Cline',
    cliFlag: 'dedup-enough-pct',
  },
  {
    key: 'truncateKeep',
    label: 'Truncation keeps',
    kind: 'select',
    options: [
      { value: 'auto', label: 'half; a quarter when over twice the limit' },
      { value: 'half', label: 'half' },
      { value: 'quarter', label: 'a quarter' },
    ],
    source: `${MANAGER}:246 (keep = totalTokens / 2 > maxAllowedSize ? "quarter" : "half"), getNextTruncationRange :293-332`,
    group: 'Cline',
    cliFlag: 'keep',
  },
  {
    key: 'useAutoCondense',
    label: 'Auto-condense (summarize_task)',
    kind: 'boolean',
    source: `${STATE}:257 (useAutoCondense default false); honoured for next-gen models only, cline/cline@7c782abaf4d2b9c944e7cd7370c542151fec7e3e:src/core/task/index.ts:2372-2374`,
    group: 'Cline',
    cliFlag: 'auto-condense',
  },
  {
    key: 'autoCondensePercent',
    label: 'Auto-condense at (% of window)',
    kind: 'number',
    unit: 'percent',
    min: 1,
    max: 100,
    step: 1,
    source: `${STATE}:269 (autoCondenseThreshold 0.75, from v3.31.0; removed in v3.66.0, 9fd2b99be45f049ccc35ccbc5f8afcc80f458958: the trigger is maxAllowedSize again)`,
    group: 'Cline',
    cliFlag: 'condense-pct',
  },
  tokens(
    'dedupNoticeTokens',
    'Dedup notice',
    'cline/cline@7c782abaf4d2b9c944e7cd7370c542151fec7e3e:src/core/prompts/responses.ts:10-11 (duplicateFileReadNotice, 153 characters)',
    {
      step: 1,
      max: 10_000,
    },
  ),
  tokens(
    'truncationNoticeTokens',
    'Truncation notice',
    'cline/cline@7c782abaf4d2b9c944e7cd7370c542151fec7e3e:src/core/prompts/responses.ts:13-14 (contextTruncationNotice, 290 characters)',
    { step: 1, max: 10_000 },
  ),
  tokens(
    'continuationTokens',
    'Continuation prompt',
    'cline/cline@7c782abaf4d2b9c944e7cd7370c542151fec7e3e:src/core/prompts/contextManagement.ts:112 (continuationPrompt without the summary, 605 characters; docs/sources.md#cline-continuation)',
    {
      step: 1,
      max: 10_000,
    },
  ),
  tokens(
    'sdkMaxInputTokens',
    'SDK: model input limit',
    `${CLINE_V4_1_8}:${SDK_CTX}/compaction-shared.ts:51-70 (resolveEffectiveMaxInputTokens: the model's maxInputTokens, at most its window; empty = the window × CONTEXT_WINDOW_INPUT_RATIO 0.9, :15)`,
    { optional: true, cliFlag: 'max-input' },
  ),
  {
    key: 'sdkTriggerPercent',
    label: 'SDK: compact at (% of usable input)',
    kind: 'number',
    unit: 'percent',
    min: 1,
    max: 100,
    step: 1,
    source: `${CLINE_V4_1_8}:${SDK_CTX}/compaction-shared.ts:17 (COMPACTION_TRIGGER_RATIO 0.9); 4.0: ${CLINE_V4_0}:${SDK_CTX}/compaction-shared.ts:13 (DEFAULT_THRESHOLD_RATIO 0.9)`,
    group: 'Cline',
    cliFlag: 'sdk-trigger-pct',
  },
  tokens(
    'sdkReserveTokens',
    'SDK 4.0: reserve below the input limit',
    `${CLINE_V4_0}:${SDK_CTX}/compaction-shared.ts:14 (DEFAULT_RESERVE_TOKENS 16,384; trigger min(max − reserve, 90% of max), compaction.ts:160-174)`,
    { step: 1_024, cliFlag: 'sdk-reserve' },
  ),
  tokens(
    'preserveRecentTokens',
    'SDK: newest tokens kept verbatim',
    `${CLINE_V4_1_8}:${SDK_CTX}/compaction-shared.ts:19 (DEFAULT_PRESERVE_RECENT_TOKENS 20,000; findCutIndex :326-359 keeps the latest typed prompt's turn)`,
    { cliFlag: 'preserve-recent' },
  ),
  tokens(
    'summaryMaxTokens',
    'SDK: summary max output',
    `${CLINE_V4_1_8}:${SDK_CTX}/compaction-shared.ts:20 (DEFAULT_SUMMARY_MAX_OUTPUT_TOKENS 4,096; 1,024 until 4.1.7, ${CLINE_V4_1}:${SDK_CTX}/compaction-shared.ts:20)`,
    { step: 256, max: 200_000, cliFlag: 'summary-max' },
  ),
];

/** `maxAllowedSize` for these knobs: the override, else context-window-utils.ts's table. */
export function getClineMaxAllowed(knobs: ClineKnobs): TokenCount {
  if (knobs.maxAllowedTokens !== undefined) return knobs.maxAllowedTokens;
  const w = knobs.contextWindow;
  if (w === 64_000) return w - knobs.buffer64kTokens;
  if (w === 128_000) return w - knobs.buffer128kTokens;
  if (w === 200_000) return w - knobs.buffer200kTokens;
  return Math.max(w - knobs.bufferOtherTokens, (w * knobs.otherMinPercent) / 100);
}

/**
 * The auto-condense threshold: min(⌊window × pct⌋, maxAllowedSize) (ContextManager
 * `shouldCompactContextWindow`); 100% leaves maxAllowedSize (the releases that pass no threshold).
 */
export function getClineCondenseThreshold(knobs: ClineKnobs): TokenCount {
  return Math.min(
    Math.floor((knobs.contextWindow * knobs.autoCondensePercent) / 100),
    getClineMaxAllowed(knobs),
  );
}

/** SDK: the usable input (`resolveEffectiveMaxInputTokens`): the stated limit, else 90% of the window's size. */
function getClineSdkUsable(knobs: ClineKnobs): TokenCount {
  return knobs.sdkMaxInputTokens !== undefined
    ? Math.min(knobs.sdkMaxInputTokens, knobs.contextWindow)
    : knobs.contextWindow * 0.9;
}

/**
 * SDK: the compaction trigger. 4.0 (`reserve`): the stated input limit (else the window) less
 * 16,384, at most 90% of it; 4.1+ (`usable`): 90% of the usable input.
 */
export function getClineSdkTrigger(knobs: ClineKnobs, trigger: 'reserve' | 'usable'): TokenCount {
  if (trigger === 'reserve') {
    const max = knobs.sdkMaxInputTokens ?? knobs.contextWindow;
    return Math.max(0, Math.min(max - knobs.sdkReserveTokens, (max * knobs.sdkTriggerPercent) / 100));
  }
  return (getClineSdkUsable(knobs) * knobs.sdkTriggerPercent) / 100;
}

/**
 * Where the API refuses a request: the window, except through Cline's OpenAI-compatible provider,
 * whose window is Cline's own setting (128,000 unless the person set another) and not the model's:
 * there a request no larger than the largest the log shows answered is not refused (ours: a real
 * task through it truncated at Cline's 98,000 and the model behind it answered 177,696 tokens).
 */
export function getClineBlockingTokens(
  knobs: ClineKnobs,
  providers: readonly string[] | undefined,
  recorded: ArrayLike<number>,
): TokenCount {
  if (!providers?.length || !providers.every((p) => p === 'openai')) return knobs.contextWindow;
  let answered = 0;
  for (let k = 0; k < recorded.length; k++) answered = Math.max(answered, recorded[k]!);
  return Math.max(knobs.contextWindow, answered + 1);
}

/** What refuses a request at the blocking limit, in the replay's event. */
export const CLINE_BLOCKING_NOTE =
  "the simulated request reaches the model's window: the API would refuse it, and Cline would truncate a quarter and retry once (cline/cline@7fa0a4924b579fa7329e514b01cefab9f2ad20af:src/core/task/index.ts:1905-1913, 1680)";
