import type { Session, TokenCount } from '../types';

// A session's billed calls as its entries record them, each once over all its files: what the
// library's cost (library/library-row.ts) and its usage by day and project (stats/usage.ts) are
// summed from, so the two agree.

/** One call's recorded usage, with the model it is priced at and when it was answered. */
export interface SessionCall {
  model: string;
  input: TokenCount;
  cacheWrite: TokenCount;
  cacheWrite1h?: TokenCount;
  cacheRead: TokenCount;
  output: TokenCount;
  /** The timestamp of the call's first line, when the log gives one. */
  timestampMs?: number;
}

/**
 * Every call in the session's entries. A call is keyed as the session builder keys it (message
 * id, request id, uuid), over all files at once: a subagent or compaction-call log that repeats a
 * parent's response is not counted twice; streamed lines of one response count their input once
 * and their largest output snapshot (docs/sources.md#fmt-usage). A line without a model takes its
 * file's last model, else the session's first.
 */
export function getSessionCalls(session: Session): SessionCall[] {
  const calls = new Map<string, SessionCall>();
  const modelOfFile = new Map<number, string>();
  for (const entry of session.entries) {
    if (entry.model) modelOfFile.set(entry.fileIndex, entry.model);
    const usage = entry.usage;
    if (!usage || entry.isSynthetic) continue;
    const key = entry.messageId ?? entry.requestId ?? entry.uuid ?? `#${entry.index}`;
    const known = calls.get(key);
    if (known) {
      known.output = Math.max(known.output, usage.outputTokens);
      continue;
    }
    calls.set(key, {
      model: entry.model ?? modelOfFile.get(entry.fileIndex) ?? session.meta.models[0] ?? '',
      input: usage.inputTokens,
      cacheWrite: usage.cacheCreationInputTokens,
      cacheRead: usage.cacheReadInputTokens,
      cacheWrite1h: usage.cacheCreation1hInputTokens,
      output: usage.outputTokens,
      timestampMs: entry.timestampMs,
    });
  }
  return [...calls.values()];
}

/** A call's usage in the shape the price table takes. */
export function getCallUsage(c: SessionCall) {
  return {
    inputTokens: c.input,
    outputTokens: c.output,
    cacheCreationInputTokens: c.cacheWrite,
    cacheReadInputTokens: c.cacheRead,
    cacheCreation1hInputTokens: c.cacheWrite1h,
  };
}
