import type { TokenCount } from '../types';
import type { CompactMechanism, SummarySource } from './types';

// How many tokens a simulated summary takes. The replay does not call a summarizer: a size model
// stands in until the summarize layer supplies real answers (`ReplayOptions.suppliedSummaryTokens`).
//
// The built-in ratio model comes from the corpus (docs/replay-accuracy.md, "Summary size"): over
// the 61 compact summaries of the real-log corpus (tests/real-logs/shared-corpus.json) (Claude Code 2.0.67–2.1.101), the summary message is
// 784–4,780 tokens (chars / 4, median 2,036) for spans (preTokens) of 155k–205k, a median 1.14% of
// the span (p10 0.64%, p90 2.03%). The spans are too alike to show how size grows with span, so
// the model is linear, floored at the smallest summary seen and capped at the summary call's max
// output (20,000, Claude Code 2.1.68 (docs/sources.md#cc-full-mechanism)).

/** Median summary / span ratio in the corpus. */
export const SUMMARY_SPAN_RATIO = 0.0114;
/** Smallest summary in the corpus, in tokens. */
export const SUMMARY_MIN_TOKENS: TokenCount = 800;
/** `maxOutputTokensOverride: 20000` of the summary call (Claude Code 2.1.68 (docs/sources.md#cc-full-mechanism step 4)). */
export const SUMMARY_MAX_TOKENS: TokenCount = 20_000;

export interface SummarySizeInput {
  /** Tokens of the history being summarized (attributed). */
  spanTokens: TokenCount;
  mechanism: CompactMechanism;
  /** The real compaction at (or within the tolerance of) this point, when there is one. */
  real?: { summaryTokens?: TokenCount; exact: boolean };
}

export interface SummarySizeModel {
  id: SummaryModelId;
  label: string;
  description: string;
  getSummaryTokens(input: SummarySizeInput): { tokens: TokenCount; source: SummarySource };
}

export type SummaryModelId = 'recorded' | 'ratio';

function ratioTokens(spanTokens: TokenCount): TokenCount {
  return Math.round(
    Math.min(SUMMARY_MAX_TOKENS, Math.max(SUMMARY_MIN_TOKENS, spanTokens * SUMMARY_SPAN_RATIO)),
  );
}

export const RATIO_SUMMARY_MODEL: SummarySizeModel = {
  id: 'ratio',
  label: 'Built-in size model',
  description: `${SUMMARY_SPAN_RATIO * 100}% of the summarized span, at least ${SUMMARY_MIN_TOKENS} and at most ${SUMMARY_MAX_TOKENS} tokens (fitted on the corpus).`,
  getSummaryTokens: (input) => ({ tokens: ratioTokens(input.spanTokens), source: 'model' }),
};

export const RECORDED_SUMMARY_MODEL: SummarySizeModel = {
  id: 'recorded',
  label: 'Recorded where it matches',
  description:
    "The log's own summary when the simulated compaction is at a real one (within one call), the built-in model elsewhere.",
  getSummaryTokens: (input) =>
    input.real?.summaryTokens !== undefined
      ? { tokens: input.real.summaryTokens, source: 'recorded' }
      : { tokens: ratioTokens(input.spanTokens), source: 'model' },
};

export const SUMMARY_MODELS: Record<SummaryModelId, SummarySizeModel> = {
  recorded: RECORDED_SUMMARY_MODEL,
  ratio: RATIO_SUMMARY_MODEL,
};
