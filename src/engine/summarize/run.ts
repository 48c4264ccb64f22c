import type { PresetOutput } from '../prompts/types';
import { scoreRetention } from '../retention/score';
import type { RetentionFact, RetentionScore } from '../retention/types';
import { estimateTextTokens } from '../tokens/estimate';
import type { TokenCount } from '../types';
import { cleanupSummary } from './cleanup';
import type { SummarizeOptions, Summarizer, SummaryRequest, SummaryResult } from './types';

// One summarization from request to scored summary: call the summarizer, clean its answer the
// way the preset's tool would, measure it, score what it kept.

export interface SummaryOutcome {
  result: SummaryResult;
  /** The summary as the continuation would carry it (tags cleaned). */
  text: string;
  /**
   * Size of the summary in the context after compaction: the API's output token count when a
   * model wrote it, else chars / 4 of the cleaned text.
   */
  summaryTokens: TokenCount;
  summaryTokensSource: 'api' | 'estimate';
  retention: RetentionScore;
}

/** Cleans, measures and scores a summarizer's answer. */
export function finishSummary(
  result: SummaryResult,
  output: PresetOutput,
  facts: RetentionFact[],
): SummaryOutcome {
  const text = cleanupSummary(result.text, output);
  const fromApi = result.model !== 'builtin' && result.model !== 'recorded' && result.usage.outputTokens > 0;
  return {
    result,
    text,
    summaryTokens: fromApi ? result.usage.outputTokens : estimateTextTokens(text.length),
    summaryTokensSource: fromApi ? 'api' : 'estimate',
    retention: scoreRetention(facts, text),
  };
}

/** Runs a summarizer on a prepared request and scores the answer. */
export async function runSummary(
  summarizer: Summarizer,
  request: SummaryRequest,
  output: PresetOutput,
  facts: RetentionFact[],
  options: SummarizeOptions = {},
): Promise<SummaryOutcome> {
  return finishSummary(await summarizer.summarize(request, options), output, facts);
}
