import { estimateBlockTokens } from '../tokens/estimate';
import type { ApiCall, Entry, ParseIssue, TokenCount } from '../types';

// Calls whose recorded output cannot hold their own answer. Claude Code wrote some releases'
// assistant records with the usage of the stream's start (`output_tokens` 1 or 2) and never the
// final count (Claude Code's issue 10259 on GitHub; ccusage's 866): in the corpus, 2.1.9–2.1.41
// sessions record 1–2 output tokens on 40–100% of their calls, answers of hundreds to thousands of
// tokens. The figures stay the log's (a reader agrees with the raw records); the session says
// which calls and by about how much their output, and its cost, are understated.

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
export function getAnswerOutputs(entries: readonly Entry[], apiCalls: readonly ApiCall[]): Float64Array {
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
    answers[call.index] =
      answer >= MIN_ANSWER_TOKENS && call.usage.outputTokens < answer * MAX_SHARE ? answer : 0;
  }
  return answers;
}

/** The session's note on understated output, or undefined when every call's output holds its answer. */
export function findUnderstatedOutput(
  entries: readonly Entry[],
  apiCalls: readonly ApiCall[],
): ParseIssue | undefined {
  let count = 0;
  let missing = 0;
  let first: { call: ApiCall; answer: TokenCount } | undefined;
  const answers = getAnswerOutputs(entries, apiCalls);
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
    message: `${fmt(count)} of ${fmt(apiCalls.length)} API calls record fewer output tokens than their answers hold (first, line ${call.line}: ${fmt(call.usage.outputTokens)} recorded for an answer of about ${fmt(answer)}): the log wrote the usage of the stream's start, not its end (Claude Code's GitHub issue 10259). Their output, and its cost, are understated by about ${fmt(missing)} tokens (the answers' characters / 4; ours).`,
  };
}
