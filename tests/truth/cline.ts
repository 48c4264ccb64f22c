import { num, type Raw, type Truth, type TruthCall, type TruthCompaction } from './types';

// Cline's ui_messages.json (…/saoudrizwan.claude-dev/tasks/<taskId>/ui_messages.json): one JSON
// array of `{ts, type: 'say' | 'ask', say | ask, text, conversationHistoryIndex,
// conversationHistoryDeletedRange, …}`, read alone (FORMAT.md §12 in ../../../shared/research).
//
// * API calls: Cline says `api_req_started` before each request and fills its `text` (a JSON
//   string) with `tokensIn, tokensOut, cacheWrites, cacheReads, cost` when the response ends. One
//   `api_req_started` is one request, whether it succeeded or not (`api_req_retried` marks a
//   retry inside that request, not another one).
// * Context per call: tokensIn + cacheWrites + cacheReads (Anthropic's split: tokensIn is the
//   uncached part). A request with all three zero or absent (failed, cancelled before usage) has no
//   recorded context.
// * Truncations: every message carries the `conversationHistoryDeletedRange` in force when it was
//   written. The `api_req_started` is written before Cline's context manager runs for that request,
//   so a new range first shows on the messages after it, while the request itself already went
//   out truncated (its context drops): the truncation follows the call before that one.
// * Condenses: the summary is a message of its own, `ask: 'condense'` (asked by the person: manual)
//   or `ask: 'summarize_task'`, or a `say: 'tool'` whose text is `{tool: 'summarizeTask', …}`
//   (written by the model when Cline asked for it: automatic). The range change after it applies
//   it; the condense follows the call the summary answered (the last before the summary). A
//   request started before any range change means the summary was declined.
// * File-read deduplication rewrites history in place without a ui message: not derivable here.

const parseText = (m: Raw): Raw => {
  try {
    const v = JSON.parse(m.text);
    return v !== null && typeof v === 'object' ? v : {};
  } catch {
    return {};
  }
};

/** The calls and compactions of one Cline ui_messages.json. */
export function readClineTruth(text: string): Truth {
  const messages: Raw[] = JSON.parse(text);
  const calls: TruthCall[] = [];
  const compactions: TruthCompaction[] = [];
  let range = 'null';
  let pendingCondense: { trigger: string; afterCall: number } | undefined;
  for (const m of messages) {
    const isRequest = m.type === 'say' && m.say === 'api_req_started';
    const current = JSON.stringify(m.conversationHistoryDeletedRange ?? null);
    if (current !== range) {
      range = current;
      if (pendingCondense) compactions.push({ kind: 'compact', ...pendingCondense });
      else {
        // The cut precedes the first request that went out with it: this message's own request
        // when it is an `api_req_started`, else the one said just before it.
        const firstCut = isRequest ? calls.length : calls.length - 1;
        compactions.push({ kind: 'truncate', afterCall: firstCut - 1, trigger: 'auto' });
      }
      pendingCondense = undefined;
    }
    if (isRequest) pendingCondense = undefined;
    if (m.type === 'ask' && (m.ask === 'condense' || m.ask === 'summarize_task'))
      pendingCondense = { trigger: m.ask === 'condense' ? 'manual' : 'auto', afterCall: calls.length - 1 };
    if (m.type === 'say' && m.say === 'tool' && m.partial !== true && parseText(m).tool === 'summarizeTask')
      pendingCondense = { trigger: 'auto', afterCall: calls.length - 1 };
    if (!isRequest) continue;
    const usage = parseText(m);
    const context = num(usage.tokensIn) + num(usage.cacheWrites) + num(usage.cacheReads);
    calls.push({ id: `ts ${m.ts}`, contextTokens: context > 0 ? context : undefined });
  }
  return { calls, compactions };
}
