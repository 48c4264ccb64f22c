import { CHARS_PER_TOKEN } from '../tokens/estimate';
import type { CompactionCallCost, CompactionCallUsage, Entry, Session } from '../types';

// What a compaction cost, from its own log (`agent-acompact-*.jsonl`, docs/sources.md#fmt-around-compaction). That log
// can hold several calls (the conversation re-sent while the summary streams, retries): the cost
// is the call that produced the summary, not their sum.

/**
 * A recorded output below this share of the chars/4 estimate is a streamed snapshot taken before
 * the text was written (seen: 2 output tokens on an 18,000-character summary), not the total.
 */
const PARTIAL_OUTPUT_SHARE = 0.1;
/** Below this many characters the estimate is too coarse to call an output partial. */
const PARTIAL_MIN_CHARS = 400;

/** The summary's answer opens with its analysis or the summary itself (Prompt 1, v2.1.68 reference). */
const SUMMARY_OPENING = /^\s*<(analysis|summary)>/;

function outputCharsOf(entry: Entry): number {
  let chars = 0;
  for (const block of entry.blocks) {
    if (block.kind === 'text' || block.kind === 'thinking') chars += block.chars;
    else if (block.kind === 'tool-use') chars += block.inputChars;
  }
  return chars;
}

/** True when the recorded output tokens cannot cover the characters the call wrote. */
export function isPartialOutput(outputTokens: number, outputChars: number): boolean {
  if (outputChars < PARTIAL_MIN_CHARS) return false;
  return outputTokens < (outputChars / CHARS_PER_TOKEN) * PARTIAL_OUTPUT_SHARE;
}

/**
 * The calls of a compaction call's log, deduplicated over streamed lines (input once, the largest
 * output snapshot), and which one produced the summary: the last whose text opens with
 * `<analysis>` or `<summary>`, else the last call. Undefined when the entries hold no call.
 */
function computeCompactionCallCost(
  entries: readonly Entry[],
  entryIndices: readonly number[],
): CompactionCallCost | undefined {
  const calls: CompactionCallUsage[] = [];
  const byKey = new Map<string, CompactionCallUsage>();
  let summaryCall = -1;
  for (const index of entryIndices) {
    const entry = entries[index];
    if (entry?.kind !== 'assistant' || entry.isSynthetic || !entry.usage) continue;
    const key = entry.messageId ?? entry.requestId ?? entry.uuid ?? `#${entry.index}`;
    let call = byKey.get(key);
    if (!call) {
      const u = entry.usage;
      call = {
        entryIndex: entry.index,
        line: entry.line,
        messageId: entry.messageId,
        usage: { ...u },
        contextTokens: u.inputTokens + u.cacheCreationInputTokens + u.cacheReadInputTokens,
        outputChars: 0,
        partial: false,
      };
      byKey.set(key, call);
      calls.push(call);
    }
    call.usage.outputTokens = Math.max(call.usage.outputTokens, entry.usage.outputTokens);
    call.outputChars += outputCharsOf(entry);
    const first = entry.blocks[0];
    if (first?.kind === 'text' && SUMMARY_OPENING.test(first.text)) summaryCall = calls.indexOf(call);
  }
  if (calls.length === 0) return undefined;
  for (const call of calls) call.partial = isPartialOutput(call.usage.outputTokens, call.outputChars);
  return { calls, summaryCall: summaryCall >= 0 ? summaryCall : calls.length - 1 };
}

/** Sets each linked compaction's `callCost`, and its `callUsage` to the summary call's usage. */
export function applyCompactionCallCosts(session: Session): void {
  for (const compaction of session.compactions) {
    if (compaction.callFileIndex === undefined) continue;
    const sidechain = session.sidechains.find((s) => s.fileIndex === compaction.callFileIndex);
    const cost = sidechain && computeCompactionCallCost(session.entries, sidechain.entryIndices);
    if (!cost) continue;
    compaction.callCost = cost;
    compaction.callUsage = cost.calls[cost.summaryCall]!.usage;
  }
}
