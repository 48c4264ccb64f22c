import { estimateTextTokens } from '../tokens/estimate';
import type { TokenCount } from '../types';
import { cleanSummaryTags } from './clean-summary';

// The user message that opens the history after a compaction.
//   legacy `T91` (docs/sources.md#ccs-summary-message), seen in
//     2.0.67–2.0.76 transcripts;
//   v2.1.68 `JQ6` (docs/sources.md#cc-continuation) (docs/sources.md#cc-continuation), seen from 2.1.9 on. Line breaks between the parts follow the real 2.1.x
//     messages in the corpus (blank line before the transcript hint, one newline before
//     "Please continue…").

export type ContinuationFormat = 'v2.1.68' | 'legacy';

export interface ContinuationOptions {
  format: ContinuationFormat;
  /** Auto-compact: the model is told to go on without asking (`continueWithoutAsking`). */
  auto: boolean;
  /** JQ6 only: where the full transcript can be read. */
  transcriptPath?: string;
  /** JQ6 only: a partial compaction kept some messages verbatim. */
  partial?: boolean;
}

export const LEGACY_CONTINUATION_OPENING =
  'This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:';
export const CONTINUATION_OPENING =
  'This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.';
export const LEGACY_CONTINUE_INSTRUCTION =
  'Please continue the conversation from where we left it off without asking the user any further questions. Continue with the last task that you were asked to work on.';
export const CONTINUE_INSTRUCTION =
  'Please continue the conversation from where we left off without asking the user any further questions. Continue with the last task that you were asked to work on.';
export const PARTIAL_NOTE = 'Recent messages are preserved verbatim.';

export function getTranscriptHint(transcriptPath: string): string {
  return `If you need specific details from before compaction (like exact code snippets, error messages, or content you generated), read the full transcript at: ${transcriptPath}`;
}

/** `T91` / `JQ6`: the continuation message for a raw summarizer answer (tags are cleaned here). */
export function formatContinuationMessage(rawSummary: string, options: ContinuationOptions): string {
  const cleaned = cleanSummaryTags(rawSummary);
  if (options.format === 'legacy') {
    const base = `${LEGACY_CONTINUATION_OPENING}\n${cleaned}.`;
    return options.auto ? `${base}\n${LEGACY_CONTINUE_INSTRUCTION}` : base;
  }
  let text = `${CONTINUATION_OPENING}\n\n${cleaned}`;
  if (options.transcriptPath) text += `\n\n${getTranscriptHint(options.transcriptPath)}`;
  if (options.partial) text += `\n\n${PARTIAL_NOTE}`;
  if (options.auto) text += `\n${CONTINUE_INSTRUCTION}`;
  return text;
}

/** Tokens the continuation message adds around the summary itself. */
export function getContinuationOverheadTokens(options: ContinuationOptions): TokenCount {
  return estimateTextTokens(formatContinuationMessage('', options).length);
}
