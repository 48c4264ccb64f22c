import { num, parseJsonLines, type Truth, type TruthCall, type TruthCompaction } from './types';

// pi's session JSONL (~/.pi/agent/sessions/<cwd>/<time>_<id>.jsonl, version 3), read from its raw
// lines alone. Every line after the `session` header is an entry `{type, id, parentId, timestamp}`.
//
// * API calls: an entry `{type: 'message', message: {role: 'assistant', usage, stopReason, …}}` is
//   one model response; each is one request. A request that failed (`stopReason: 'error'`) is
//   still a request; its usage is all zeros, so its context is not recorded.
// * Context per call: usage.input + usage.cacheRead + usage.cacheWrite (pi's `input` excludes the
//   cached part, as Anthropic's does; `totalTokens` adds the output).
// * Compactions: an entry `{type: 'compaction', summary, firstKeptEntryId, tokensBefore}` written
//   when pi compacted; it follows the last call before it. pi compacts by itself at a run's end or
//   when asked (`/compact`); the entry does not say which.
// * Branches (`parentId` forks) are not followed: every response in the file was a request made.

/** The calls and compactions of one pi session file. */
export function readPiTruth(text: string): Truth {
  const calls: TruthCall[] = [];
  const compactions: TruthCompaction[] = [];
  for (const r of parseJsonLines(text)) {
    if (r.type === 'compaction') {
      compactions.push({
        kind: 'compact',
        afterCall: calls.length - 1,
        preTokens: typeof r.tokensBefore === 'number' ? r.tokensBefore : undefined,
      });
      continue;
    }
    if (r.type !== 'message' || r.message?.role !== 'assistant') continue;
    const u = r.message.usage;
    const context = u ? num(u.input) + num(u.cacheRead) + num(u.cacheWrite) : 0;
    calls.push({
      id: String(r.id),
      contextTokens: r.message.stopReason === 'error' && context === 0 ? undefined : context,
    });
  }
  return { calls, compactions };
}
