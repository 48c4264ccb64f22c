import { estimateTextTokens } from '../tokens/estimate';
import type { Compaction } from '../types';
import { getRecordedSummaryBody } from './cleanup';
import { RECORDED_MODEL } from './model-ids';
import type { Summarizer, SummaryResult } from './types';

// The summary the transcript itself holds at a real compaction: what Claude Code's own call
// produced. It ignores the request; the caller reads the summary entry's text.

/** What the log states of the real summary call: what it read, wrote and took. */
export type RecordedCallFigures = Pick<Compaction, 'preTokens' | 'summaryTokens' | 'durationMs'>;

/** The compaction's figures, as plain data (they cross the worker boundary with the request). */
export function getRecordedCallFigures(compaction: Compaction): RecordedCallFigures {
  const { preTokens, summaryTokens, durationMs } = compaction;
  return { preTokens, summaryTokens, durationMs };
}

/**
 * A summarizer that returns a real compaction's summary. `continuation` is the text of the
 * `isCompactSummary` message; its opening and trailers are stripped.
 */
export function createRecordedSummarizer(continuation: string, compaction?: RecordedCallFigures): Summarizer {
  const body = getRecordedSummaryBody(continuation);
  return {
    kind: 'recorded',
    async summarize(_request, { signal, onText } = {}): Promise<SummaryResult> {
      signal?.throwIfAborted();
      onText?.(body);
      return {
        text: body,
        usage: {
          // preTokens is what the real call read; summaryTokens (2.1.109+) what it wrote.
          inputTokens: compaction?.preTokens ?? 0,
          outputTokens: compaction?.summaryTokens ?? estimateTextTokens(body.length),
        },
        model: RECORDED_MODEL,
        durationMs: compaction?.durationMs ?? 0,
        stopReason: 'recorded',
      };
    },
  };
}
