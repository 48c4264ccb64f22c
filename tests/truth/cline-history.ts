import type { Truth, TruthCall, TruthCompaction, TruthFailed } from './types';

// Cline's api_conversation_history.json (…/saoudrizwan.claude-dev/tasks/<taskId>/), read alone: a
// JSON array of Anthropic-style messages. Newer Cline puts each answer's usage on its assistant
// message, `"metrics":{"tokens":{"prompt":N,"completion":N,"cached":N}}` (`prompt` the whole input,
// `cached` a part of it; cline/cline@64fde3a3:src/shared/messages/metrics.ts).
//
// * API calls: each `metrics.tokens` object, in the order written; its context is `prompt`, or
//   `prompt + cached` where `cached` is the larger: through the Anthropic provider `prompt` is the
//   uncached input alone and `cached` the cache writes and reads (gmfstu/Online-Card-Architecture's
//   tasks: `prompt` 10 beside `cached` 9,573, their UI log's tokensIn 10, cacheWrites 9,573).
// * Failed requests: one whose three counts are all zero (no answer came).
// * Truncations: the history only grows (Cline keeps what it drops as a range in the task's state),
//   so a call whose `prompt` is below 98% of the call before it was sent truncated: one after the
//   call before (the engine's rule, api-history.ts, counted here from the raw numbers alone).
//
// Read from the text of each `metrics` object, not by parsing the whole document: a real file
// (mike4567/MRA04242026) holds escapes `\X` that the corpus's secret masking wrote, which no JSON
// parser reads; the engine loses that one message and says so, and it carries no metrics.

const METRICS = /"metrics"\s*:\s*\{\s*"tokens"\s*:\s*(\{[^{}]*\})/g;

/** The calls of one Cline api_conversation_history.json. */
export function readClineHistoryTruth(text: string): Truth {
  const calls: TruthCall[] = [];
  const failed: TruthFailed[] = [];
  const compactions: TruthCompaction[] = [];
  let n = 0;
  for (const match of text.matchAll(METRICS)) {
    const tokens = JSON.parse(match[1]!) as { prompt?: number; completion?: number; cached?: number };
    const id = `metrics ${++n}`;
    if (!tokens.prompt && !tokens.completion && !tokens.cached)
      failed.push({ id, afterCall: calls.length - 1, reason: 'no_usage' });
    else {
      const before = calls.at(-1)?.contextTokens;
      const cached = tokens.cached ?? 0;
      const prompt = (tokens.prompt ?? 0) + (cached > (tokens.prompt ?? 0) ? cached : 0);
      if (before !== undefined && prompt < before * 0.98)
        compactions.push({
          kind: 'truncate',
          afterCall: calls.length - 1,
          trigger: 'auto',
          preTokens: before,
        });
      calls.push({ id, contextTokens: prompt });
    }
  }
  return { calls, compactions, failed };
}
