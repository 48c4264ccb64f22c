import type { TokenCount } from '../types';
import { CLAUDE_CODE_SUMMARY_SIZE, type SummarySizeSpec } from '../strategies/summary-size';
import type { CompactMechanism, SummarySource } from './types';

// How many tokens a simulated summary takes. The replay does not call a summarizer: a size model
// stands in until the summarize layer supplies real answers (`ReplayOptions.suppliedSummaryTokens`).
// Its numbers are the strategy's (`CompactionStrategy.summarySize`, strategies/summary-size.ts):
// each agent's own fit, its stated cap, or Claude Code's fit where its logs hold no summary.

/** Claude Code's median summary / span ratio (the default spec's). */
export const SUMMARY_SPAN_RATIO = CLAUDE_CODE_SUMMARY_SIZE.ratio;

interface SummarySizeInput {
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

/** The spec's size for a span: the ratio, floored and capped. */
export function getModelSummaryTokens(spec: SummarySizeSpec, spanTokens: TokenCount): TokenCount {
  return Math.round(Math.min(spec.maxTokens, Math.max(spec.minTokens, spanTokens * spec.ratio)));
}

/** The size model `id` over a strategy's spec (default: Claude Code's fit). */
export function createSummaryModel(
  id: SummaryModelId,
  spec: SummarySizeSpec = CLAUDE_CODE_SUMMARY_SIZE,
): SummarySizeModel {
  const sized = (spanTokens: TokenCount) => getModelSummaryTokens(spec, spanTokens);
  const what = `${(spec.ratio * 100).toFixed(2)}% of the summarized span, at least ${spec.minTokens} and at most ${spec.maxTokens} tokens (${spec.basis === 'fitted' ? 'fitted on real summaries' : spec.basis === 'limit' ? "the agent's stated cap" : "Claude Code's fit"})`;
  if (id === 'ratio')
    return {
      id,
      label: 'Built-in size model',
      description: `${what}.`,
      getSummaryTokens: (input) => ({ tokens: sized(input.spanTokens), source: 'model' }),
    };
  return {
    id,
    label: 'Recorded where it matches',
    description: `The log's own summary when the simulated compaction is at a real one (within one call), elsewhere ${what}.`,
    getSummaryTokens: (input) =>
      input.real?.summaryTokens !== undefined
        ? { tokens: input.real.summaryTokens, source: 'recorded' }
        : { tokens: sized(input.spanTokens), source: 'model' },
  };
}

const RATIO_SUMMARY_MODEL: SummarySizeModel = createSummaryModel('ratio');
const RECORDED_SUMMARY_MODEL: SummarySizeModel = createSummaryModel('recorded');

export const SUMMARY_MODELS: Record<SummaryModelId, SummarySizeModel> = {
  recorded: RECORDED_SUMMARY_MODEL,
  ratio: RATIO_SUMMARY_MODEL,
};
