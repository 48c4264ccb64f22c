import { num, parseJsonLines, type Truth, type TruthCall, type TruthCompaction } from './types';

// Codex CLI rollouts (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl), read from their raw lines
// alone: every line `{timestamp, type, payload}` (FORMAT.md §11 in ../../../shared/research).
//
// * API calls: Codex writes an `event_msg` of type `token_count` after each model response, with
//   `info.last_token_usage` (that response) and `info.total_token_usage` (the session's running
//   sum). It also writes the last one again where nothing was asked of the model (at each turn's
//   start, after a compaction: same running sum, or `info: null` before the first call). A call is
//   therefore a `token_count` whose running sum (`total_token_usage.total_tokens`) differs from
//   the one before it.
// * Context per call: `last_token_usage.input_tokens` (OpenAI's count, cached tokens included).
// * Compactions: a `compacted` line (the new history, in full: `replacement_history`), followed by
//   an `event_msg` `context_compacted`. It follows the last call before it. The rollout says
//   neither trigger nor pre/post tokens.
// * Compaction trigger: the rollout does not say it (the engine infers one from where it falls;
//   the truth leaves it undefined, so it is not compared).
// * Early rollouts (before openai/codex PR #3380, 2025-09-09; JaydenXsoe/ocodex@097782c7755f5df3016f580f9c9bc9c7f9d47755:codex-rs/core/src/rollout.rs:303-346):
//   a first line `{id, timestamp, instructions, git?}`, then response items written bare
//   (`{type: "message" | "function_call" | …}`) and `{record_type: "state"}` lines. Codex wrote
//   no event then, so no `token_count`: no call can be derived, and its `/compact` kept the
//   summary in memory only (codex.rs:2607-2611 there), so no compaction either.

/** The calls and compactions of one Codex rollout. */
export function readCodexTruth(text: string): Truth {
  const calls: TruthCall[] = [];
  const compactions: TruthCompaction[] = [];
  let lastRunningSum: number | undefined;
  let line = 0;
  const records = parseJsonLines(text);
  const first = records[0];
  if (first && typeof first.instructions === 'string' && !('type' in first)) return { calls, compactions };
  for (const r of records) {
    line++;
    const p = r.payload;
    if (r.type === 'compacted') {
      compactions.push({ kind: 'compact', afterCall: calls.length - 1 });
      continue;
    }
    if (r.type !== 'event_msg' || p?.type !== 'token_count' || !p.info) continue;
    const runningSum = num(p.info.total_token_usage?.total_tokens);
    if (runningSum === lastRunningSum) continue; // a repeat: no request was made
    lastRunningSum = runningSum;
    calls.push({ id: `record ${line}`, contextTokens: num(p.info.last_token_usage?.input_tokens) });
  }
  return { calls, compactions };
}
