import { estimateTextTokens } from '../../tokens/estimate';
import type { ThresholdLine } from '../../simulation/types';
import type { TokenCount } from '../../types';
import { createKnobNormalizer } from '../knobs';
import type { KnobSpec, StrategyDescriptor } from '../types';
import { CLINE_CONDENSE } from './condense-prompt';
import { CLINE_SUMMARIZE_TASK } from './summarize-task-prompt';

// The strategy's descriptor: its knobs, their defaults and the threshold lines they draw, what
// the page shows without replaying (index.ts holds the rules and their sources).

export interface ClineKnobs {
  /** The model's window (`contextWindow`, 128,000 when the model states none). */
  contextWindow: TokenCount;
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
}

/** context-window-utils.ts: the window when the model states none. */
// Sizes of Cline's own texts (responses.ts `duplicateFileReadNotice`, 153 characters;
// `contextTruncationNotice`, 290; contextManagement.ts `continuationPrompt` without the summary,
// 605), priced at Claude Code's chars / 4 (tokens/estimate.ts).
const DEDUP_NOTICE_TOKENS = estimateTextTokens(153);
const TRUNCATION_NOTICE_TOKENS = estimateTextTokens(290);
const CONTINUATION_TOKENS = estimateTextTokens(605);

export const CLINE_DEFAULT_WINDOW: TokenCount = 128_000;

export const DEFAULTS: ClineKnobs = {
  contextWindow: 200_000,
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
};

export const UTILS =
  'cline/cline@7fa0a4924b579fa7329e514b01cefab9f2ad20af:src/core/context/context-management/context-window-utils.ts';

export const TABLE = `docs/sources.md#cline-classic (getContextWindowInfo, ${UTILS}:10-34)`;

export const MANAGER =
  'cline/cline@7c782abaf4d2b9c944e7cd7370c542151fec7e3e:src/core/context/context-management/ContextManager.ts';

export const STATE = 'cline/cline@7c782abaf4d2b9c944e7cd7370c542151fec7e3e:src/shared/storage/state-keys.ts';

export const tokens = (
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

export const SPECS: readonly KnobSpec[] = [
  tokens(
    'contextWindow',
    'Context window',
    `${UTILS}:11 (the model's window, 128,000 when unknown); ${TABLE}`,
    {
      min: 10_000,
      cliFlag: 'window',
    },
  ),
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

/** The auto-condense threshold: min(⌊window × pct⌋, maxAllowedSize) (Task `shouldCompactBeforeNextRequest`). */
export function getClineCondenseThreshold(knobs: ClineKnobs): TokenCount {
  return Math.min(
    Math.floor((knobs.contextWindow * knobs.autoCondensePercent) / 100),
    getClineMaxAllowed(knobs),
  );
}

export const CLINE_DESCRIPTOR: StrategyDescriptor<ClineKnobs> = {
  id: 'cline',
  label: 'Cline (classic)',
  description:
    "Before each request, the previous one's total (in + out + cache) against maxAllowedSize (window − 40k on 200k): earlier reads of a file replaced by a notice, then half of the history after the first pair dropped; or summarize_task at 75% with auto-condense.",
  knobSpecs: SPECS,
  defaultKnobs: DEFAULTS,
  normalizeKnobs: createKnobNormalizer(SPECS, DEFAULTS),
  thresholds: (knobs): ThresholdLine[] => {
    const lines: ThresholdLine[] = [];
    if (knobs.useAutoCondense)
      lines.push({
        id: 'auto-condense',
        label: 'Auto-condense',
        tokens: getClineCondenseThreshold(knobs),
        kind: 'trigger',
      });
    else
      lines.push({
        id: 'max-allowed',
        label: 'maxAllowedSize',
        tokens: getClineMaxAllowed(knobs),
        kind: 'trigger',
      });
    lines.push({ id: 'window', label: 'Context window', tokens: knobs.contextWindow, kind: 'limit' });
    return lines;
  },
  // Its summarization prompt presets (the picker lists them; the first is what its compactions send).
  promptPresets: [CLINE_SUMMARIZE_TASK, CLINE_CONDENSE],
  // The knobs the golden dump's first line lists.
  dumpKnobKeys: ['contextWindow', 'maxAllowedTokens', 'useAutoCondense'],
};
