import { at } from '../assert';
import { estimateEntryTokens, estimateWithSafety } from '../tokens/estimate';
import type { Session } from '../types';
import { getCallLanes } from './call-lanes';

// Claude Code's local estimate next to what the API really counted, per main-conversation call.
// The estimate covers message content only (no system prompt, tools or memory), so it runs below
// the real context; the gap is the point of the panel.

export interface TokenTable {
  /** Index into `session.apiCalls`, one row per main-conversation call. */
  callIndex: Int32Array;
  firstEntryIndex: Int32Array;
  timestampMs: Float64Array;
  inputTokens: Float64Array;
  cacheCreationInputTokens: Float64Array;
  cacheReadInputTokens: Float64Array;
  outputTokens: Float64Array;
  /** input + cache creation + cache read, as the API reported. */
  contextTokens: Float64Array;
  /** Change from the previous main call (NaN for the first). */
  deltaTokens: Float64Array;
  /** Estimate (×4/3) of the messages added since the previous call: its response plus new input. */
  estimatedDeltaTokens: Float64Array;
  /** Estimate (×4/3) of all messages since the last compaction boundary. */
  estimatedContextTokens: Float64Array;
}

/** Builds the per-call table; linear in entries. */
export function computeTokenTable(session: Session): TokenTable {
  const lanes = getCallLanes(session);
  const calls = session.apiCalls.filter((c) => lanes.isMain[c.index] === 1 && c.model !== '<synthetic>');
  calls.sort((a, b) => a.firstEntryIndex - b.firstEntryIndex);
  const n = calls.length;
  const table: TokenTable = {
    callIndex: new Int32Array(n),
    firstEntryIndex: new Int32Array(n),
    timestampMs: new Float64Array(n),
    inputTokens: new Float64Array(n),
    cacheCreationInputTokens: new Float64Array(n),
    cacheReadInputTokens: new Float64Array(n),
    outputTokens: new Float64Array(n),
    contextTokens: new Float64Array(n),
    deltaTokens: new Float64Array(n),
    estimatedDeltaTokens: new Float64Array(n),
    estimatedContextTokens: new Float64Array(n),
  };

  const compactAt = new Set<number>();
  for (const c of session.compactions) if (c.kind === 'compact') compactAt.add(c.entryIndex);

  let entryCursor = 0;
  let sinceBoundary = 0;
  let sincePrevious = 0;
  for (let row = 0; row < n; row++) {
    const call = at(calls, row);
    // Walk the main-conversation messages that precede this call.
    for (; entryCursor < call.firstEntryIndex && entryCursor < session.entries.length; entryCursor++) {
      const entry = at(session.entries, entryCursor);
      if (compactAt.has(entryCursor)) {
        sinceBoundary = 0;
        sincePrevious = 0;
        continue;
      }
      const role = session.files[entry.fileIndex]?.role ?? 'main';
      if (role !== 'main' || entry.isSidechain || entry.isSynthetic) continue;
      if (entry.kind !== 'user' && entry.kind !== 'assistant') continue;
      const estimate = estimateEntryTokens(entry);
      sinceBoundary += estimate;
      sincePrevious += estimate;
    }
    table.callIndex[row] = call.index;
    table.firstEntryIndex[row] = call.firstEntryIndex;
    table.timestampMs[row] = call.timestampMs ?? Number.NaN;
    table.inputTokens[row] = call.usage.inputTokens;
    table.cacheCreationInputTokens[row] = call.usage.cacheCreationInputTokens;
    table.cacheReadInputTokens[row] = call.usage.cacheReadInputTokens;
    table.outputTokens[row] = call.usage.outputTokens;
    table.contextTokens[row] = call.contextTokens;
    table.deltaTokens[row] = row === 0 ? Number.NaN : call.contextTokens - at(calls, row - 1).contextTokens;
    table.estimatedDeltaTokens[row] = estimateWithSafety(sincePrevious);
    table.estimatedContextTokens[row] = estimateWithSafety(sinceBoundary);
    sincePrevious = 0;
  }
  return table;
}

/** The buffers to transfer when posting a table across threads. */
export function getTokenTableTransferables(table: TokenTable): ArrayBuffer[] {
  return Object.values(table).map((a: Int32Array | Float64Array) => a.buffer as ArrayBuffer);
}
