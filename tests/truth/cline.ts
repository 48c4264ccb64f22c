import { num, type Raw, type Truth, type TruthCall, type TruthCompaction, type TruthFailed } from './types';

// Cline's ui_messages.json (…/saoudrizwan.claude-dev/tasks/<taskId>/ui_messages.json): one JSON
// array of `{ts, type: 'say' | 'ask', say | ask, text, conversationHistoryIndex,
// conversationHistoryDeletedRange, …}`, read alone (FORMAT.md §12 in ../../../shared/research).
//
// * API calls: Cline says `api_req_started` before each request and fills its `text` (a JSON
//   string) with `tokensIn, tokensOut, cacheWrites, cacheReads, cost` when the response ends. One
//   `api_req_started` is one request (`api_req_retried` marks a retry inside that request, not
//   another one).
// * Failed requests: a request Cline gave up on says why in the same JSON, `cancelReason`
//   (`streaming_failed`, `user_cancelled`, `retries_exhausted`) or `streamingFailedMessage`. With
//   all four token fields zero or absent, no answer came: it is a failed request, counted apart and
//   not a call (issue 18 item 5; this reader counted them as calls of unknown context before: the
//   real haram-333/fineye task's 7 such requests have all-zero usage, each after its retries and
//   `api_req_failed`). Cancelled after its usage came, it is a call.
// * Context per call: tokensIn + cacheWrites + cacheReads (Anthropic's split: tokensIn is the
//   uncached part). A call with all three zero or absent (no usage recorded, no cancel reason) has
//   no recorded context.
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
  const failed: TruthFailed[] = [];
  let range = 'null';
  // The latest request was a failed one: a range it set first shows on the messages after it, and
  // the first call that went out cut is the next one.
  let lastFailed = false;
  let pendingCondense: { trigger: string; afterCall: number } | undefined;
  // Cline's task total (getApiMetrics): the `cost` of its request, deleted-requests and
  // subagent-usage messages.
  let statedCostUsd: number | undefined;
  for (const m of messages) {
    if (m.type === 'say' && ['api_req_started', 'deleted_api_reqs', 'subagent_usage'].includes(m.say)) {
      const cost = parseText(m).cost;
      if (typeof cost === 'number') statedCostUsd = (statedCostUsd ?? 0) + cost;
    }
    const isRequest = m.type === 'say' && m.say === 'api_req_started';
    const current = JSON.stringify(m.conversationHistoryDeletedRange ?? null);
    if (current !== range) {
      range = current;
      if (pendingCondense) compactions.push({ kind: 'compact', ...pendingCondense });
      else {
        // The cut precedes the first request that went out with it: this message's own request
        // when it is an `api_req_started`, else the one said just before it.
        const firstCut = isRequest || lastFailed ? calls.length : calls.length - 1;
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
    const reason =
      typeof usage.cancelReason === 'string'
        ? usage.cancelReason
        : typeof usage.streamingFailedMessage === 'string'
          ? 'streaming_failed'
          : undefined;
    lastFailed = reason !== undefined && context + num(usage.tokensOut) === 0;
    if (lastFailed) failed.push({ id: `ts ${m.ts}`, afterCall: calls.length - 1, reason: reason! });
    else calls.push({ id: `ts ${m.ts}`, contextTokens: context > 0 ? context : undefined });
  }
  return { calls, compactions, failed, ...(statedCostUsd === undefined ? {} : { statedCostUsd }) };
}
