import type { PreparedReplay } from './prepared';
import { lowerBound } from './search';

// Where a history may be cut (partial compaction, session memory keeping recent messages):
// never between a tool_use and its tool_result, never inside one streamed response.

/** True when keeping [pos, …) and dropping what precedes leaves every tool pair and response whole. */
export function isSafeCut(prepared: PreparedReplay, pos: number, boundaryPos: number): boolean {
  const { session, ctxEntry, clearables } = prepared;
  if (pos <= 0 || pos >= boundaryPos) return true;
  const here = session.entries[ctxEntry[pos]!]!;
  if (here.kind === 'assistant' && here.messageId !== undefined) {
    // A later line of a streamed response (tool results of its earlier lines may sit between).
    for (let p = pos - 1; p >= 0; p--) {
      const e = session.entries[ctxEntry[p]!]!;
      if (e.kind === 'assistant') {
        if (e.messageId === here.messageId) return false;
        break;
      }
      if (!(e.kind === 'user' && e.blocks.length > 0 && e.blocks.every((b) => b.kind === 'tool-result')))
        break;
    }
  }
  for (
    let i = lowerBound(clearables.pos, pos);
    i < clearables.pos.length && clearables.pos[i]! < boundaryPos;
    i++
  ) {
    const use = clearables.usePos[i]!;
    if (use >= 0 && use < pos) return false;
  }
  return true;
}

/** The nearest safe cut at or before `pos`, not before `liveFromPos`. */
export function getSafeCut(
  prepared: PreparedReplay,
  pos: number,
  liveFromPos: number,
  boundaryPos: number,
): number {
  let q = Math.min(Math.max(pos, liveFromPos), boundaryPos);
  while (q > liveFromPos && !isSafeCut(prepared, q, boundaryPos)) q--;
  return q;
}

/** The earliest safe cut whose kept part [cut, boundary) holds at most `keepTokens` (attributed). */
export function getKeepRecentCut(
  prepared: PreparedReplay,
  keepTokens: number,
  liveFromPos: number,
  boundaryPos: number,
): number {
  if (keepTokens <= 0) return boundaryPos;
  const { prefixNon } = prepared;
  let q = boundaryPos;
  while (q > liveFromPos && prefixNon[boundaryPos]! - prefixNon[q - 1]! <= keepTokens) q--;
  // Move forward to a safe cut (keeping less, never more than asked).
  while (q < boundaryPos && !isSafeCut(prepared, q, boundaryPos)) q++;
  return q;
}
