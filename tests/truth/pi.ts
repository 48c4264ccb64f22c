import {
  num,
  parseJsonLines,
  type Truth,
  type TruthCall,
  type TruthCompaction,
  type TruthFailed,
} from './types';

// pi's session JSONL (~/.pi/agent/sessions/<cwd>/<time>_<id>.jsonl), read from its raw lines
// alone. Every line after the `session` header is an entry `{type, id, parentId, timestamp}` (version
// 1, without `version` in the header, has no id or parentId; the records are read the same).
//
// * API calls: an entry `{type: 'message', message: {role: 'assistant', usage, stopReason, …}}` is
//   one model response; each is one request.
// * Failed requests: a response with `stopReason` 'error' or 'aborted' and all-zero usage (input,
//   output, cacheRead, cacheWrite) is pi's record of an answer that never came (an HTTP error, an
//   abort; `errorMessage` says which): counted apart, not a call (issue 18 item 5; this reader
//   counted it as a call of unknown context before: the real termux-monorepo log's last response
//   is one, '402 You have depleted your monthly included credits', usage all 0). Aborted after
//   usage came, it is a call.
// * Not a request either: OpenClaw's replies to its chat commands, written as assistant messages
//   of provider 'openclaw', model 'gateway-injected', all-zero usage (a real session of
//   adrianstanca1/vps-config holds two: '/kill' usage and a restart notice), and what it mirrors
//   into a session of its deliveries to a chat channel, model 'delivery-mirror', all-zero usage
//   (provider 'dna' in its source, transcript.ts `appendAssistantMessageToSessionTranscript`;
//   'clawdbot' or 'openclaw' in real sessions of Musk-fanX/openclaw-backup and
//   ReinforcementSleeping/openclaw-backup, 17).
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
  const failed: TruthFailed[] = [];
  let statedCostUsd: number | undefined;
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
    // pi's own cost of each answer (`usage.cost.total`), summed.
    if (typeof u?.cost?.total === 'number') statedCostUsd = (statedCostUsd ?? 0) + u.cost.total;
    const context = u ? num(u.input) + num(u.cacheRead) + num(u.cacheWrite) : 0;
    if (
      ((r.message.provider === 'openclaw' && r.message.model === 'gateway-injected') ||
        r.message.model === 'delivery-mirror') &&
      context + num(u?.output) === 0
    )
      continue;
    const stop = r.message.stopReason;
    if ((stop === 'error' || stop === 'aborted') && context + num(u?.output) === 0)
      failed.push({ id: String(r.id), afterCall: calls.length - 1, reason: stop });
    else calls.push({ id: String(r.id), contextTokens: context });
  }
  return { calls, compactions, failed, ...(statedCostUsd === undefined ? {} : { statedCostUsd }) };
}
