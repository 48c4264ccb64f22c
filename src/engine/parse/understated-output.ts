import { estimateBlockTokens } from '../tokens/estimate';
import type { ApiCall, Entry, ParseIssue, TokenCount } from '../types';
import type { TranscriptConventions } from './dialects/descriptor';

// Calls whose recorded output cannot hold their own answer. Claude Code wrote some releases'
// assistant records with the usage of the stream's start (`output_tokens` 1 or 2) and never the
// final count (Claude Code's issue 10259 on GitHub; ccusage's 866): in the corpus, 2.1.9–2.1.41
// sessions record 1–2 output tokens on 40–100% of their calls, answers of hundreds to thousands of
// tokens. The figures stay the log's (a reader agrees with the raw records); the session says
// which calls and by about how much their output, and its cost, are understated. Only for the
// agents whose conventions name that defect (`understatedOutputCause`): elsewhere the recorded
// output is the API's own count, and a longer answer in the log is the agent's addition (a real
// Gemini CLI chat, fabien-lessirard/dotfiles: a `replace` call's arguments as the person edited
// them, `modified_by_user`, 2,104 tokens for 325 generated), not a count lost. A call that
// recorded no usage at all is not understated either: it is unrecorded (query/usage-coverage.ts).

/** A call is understated when its answer's estimate is at least this (ours: below it, a short answer's tokenization may differ)… */
const MIN_ANSWER_TOKENS = 50;
/** …and its recorded output under this share of the estimate (ours: chars / 4 is within 2× of a tokenizer). */
const MAX_SHARE = 0.25;

/**
 * Per API call, its output as its answer shows it where the recorded output cannot hold the answer,
 * else 0: what the agent itself held in memory, the final usage of the stream. The answer is the
 * call's assistant entries' text, thinking and tool calls (characters / 4), summed in one pass over
 * the entries (a call's lines may lie far apart).
 */
export function getAnswerOutputs(
  entries: readonly Entry[],
  apiCalls: readonly ApiCall[],
  causeOf: (fileIndex: number) => string | undefined,
): Float64Array {
  const answers = new Float64Array(apiCalls.length);
  for (const e of entries) {
    if (e.kind !== 'assistant' || e.apiCallIndex === undefined || e.apiCallIndex >= answers.length) continue;
    // What the model wrote: a Gemini CLI record also holds its tool calls' results.
    for (const b of e.blocks)
      if (b.kind === 'text' || b.kind === 'thinking' || b.kind === 'tool-use')
        answers[e.apiCallIndex]! += estimateBlockTokens(b);
  }
  for (const call of apiCalls) {
    const answer = answers[call.index]!;
    const recorded = call.contextTokens > 0 || call.usage.outputTokens > 0;
    answers[call.index] =
      recorded &&
      causeOf(call.fileIndex) !== undefined &&
      answer >= MIN_ANSWER_TOKENS &&
      call.usage.outputTokens < answer * MAX_SHARE
        ? answer
        : 0;
  }
  return answers;
}

/** Each file's cause, from its dialect's conventions (by file index). */
export const causeIn =
  (conventions: readonly (TranscriptConventions | undefined)[]) =>
  (fileIndex: number): string | undefined =>
    conventions[fileIndex]?.understatedOutputCause;

/** The session's note on understated output, or undefined when every call's output holds its answer. */
export function findUnderstatedOutput(
  entries: readonly Entry[],
  apiCalls: readonly ApiCall[],
  causeOf: (fileIndex: number) => string | undefined,
): ParseIssue | undefined {
  let count = 0;
  let missing = 0;
  let first: { call: ApiCall; answer: TokenCount } | undefined;
  const answers = getAnswerOutputs(entries, apiCalls, causeOf);
  for (const call of apiCalls) {
    const answer = answers[call.index]!;
    if (answer === 0) continue;
    count++;
    missing += answer - call.usage.outputTokens;
    first ??= { call, answer };
  }
  if (!first) return undefined;
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  const { call, answer } = first;
  return {
    fileIndex: call.fileIndex,
    line: call.line,
    code: 'understated-output',
    severity: 'info',
    message: `${fmt(count)} of ${fmt(apiCalls.length)} API calls record fewer output tokens than their answers hold (first, line ${call.line}: ${fmt(call.usage.outputTokens)} recorded for an answer of about ${fmt(answer)}): ${causeOf(call.fileIndex)}. Their output, and its cost, are understated by about ${fmt(missing)} tokens (the answers' characters / 4; ours).`,
  };
}
