import type { TokenCount } from '../types';

// How large each agent's summary is (issue 19, item 7). The replay does not call a summarizer: a
// size model stands in (replay/summary-size.ts). Each strategy says what its agent's model rests
// on: the agent's own real summaries (fitted), a cap the agent's source states (limit), or — when
// its logs hold no summary text and its source no cap — Claude Code's fit (borrowed), and why.

export interface SummarySizeSpec {
  /** Summary tokens per token of the summarized span. */
  ratio: number;
  /** Floor and cap, in tokens. */
  minTokens: TokenCount;
  maxTokens: TokenCount;
  /**
   * `fitted`: on the agent's own real summaries; `limit`: Claude Code's ratio under the agent's
   * stated cap; `borrowed`: Claude Code's fit, the agent's logs holding no summary to fit on.
   */
  basis: 'fitted' | 'limit' | 'borrowed';
  /** What it rests on: the logs fitted on (counts), the source line of the cap, or why none. */
  source: string;
}

/**
 * Claude Code's fit (docs/replay-accuracy.md, "Summary size"): over the 61 compact summaries of
 * the real-log corpus (tests/real-logs/shared-corpus.json; Claude Code 2.0.67–2.1.101) the
 * summary message is 784–4,780 tokens (chars / 4, median 2,036) for spans of 155k–205k, a median
 * 1.14% of the span (p10 0.64%, p90 2.03%); floored at the smallest summary seen, capped at the
 * summary call's max output (`maxOutputTokensOverride: 20000`, Claude Code 2.1.68
 * (docs/sources.md#cc-full-mechanism step 4)).
 */
export const CLAUDE_CODE_SUMMARY_SIZE: SummarySizeSpec = {
  ratio: 0.0114,
  minTokens: 800,
  maxTokens: 20_000,
  basis: 'fitted',
  source:
    '61 compact summaries of the real-log corpus (Claude Code 2.0.67–2.1.101): median 1.14% of the span, 784–4,780 tokens',
};

/** Claude Code's fit for an agent whose logs hold no summary and whose source states no cap. */
export function borrowedSummarySize(why: string): SummarySizeSpec {
  return { ...CLAUDE_CODE_SUMMARY_SIZE, basis: 'borrowed', source: why };
}

/** Claude Code's ratio under the agent's stated cap (`source`: where the cap is). */
export function limitedSummarySize(maxTokens: TokenCount, source: string): SummarySizeSpec {
  return {
    ...CLAUDE_CODE_SUMMARY_SIZE,
    minTokens: Math.min(CLAUDE_CODE_SUMMARY_SIZE.minTokens, maxTokens),
    maxTokens,
    basis: 'limit',
    source,
  };
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/** The note a replay shows: which size model the summaries take and what it rests on. */
export function describeSummarySize(agent: string, spec: SummarySizeSpec): string {
  const model = `${(spec.ratio * 100).toFixed(2)}% of the summarized span, ${fmt(spec.minTokens)}–${fmt(spec.maxTokens)} tokens`;
  if (spec.basis === 'fitted')
    return `Summary size: fitted on ${agent}'s own summaries (${spec.source}): ${model}.`;
  if (spec.basis === 'limit')
    return `Summary size: ${agent}'s stated cap of ${fmt(spec.maxTokens)} tokens (${spec.source}) over Claude Code's fitted ratio: ${model}.`;
  return `Summary size: Claude Code's fit (${model}), borrowed: ${spec.source}.`;
}
