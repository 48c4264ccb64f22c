import type { PreparedReplay } from '../../src/engine/replay/prepare';

// The references' own reading of when a request follows, written apart from the engine's
// (simulation/turns.ts) from the same facts: the entries at each context position.

/** Position `p` holds a person's message: a user entry with content, no tool result, not injected text, not a compaction's. */
export function isPersonTurn(prepared: PreparedReplay, p: number): boolean {
  if (prepared.artifactOf[p] !== 0) return false;
  const entry = prepared.session.entries[prepared.ctxEntry[p]!]!;
  if (entry.kind !== 'user' || entry.role === 'assistant' || entry.isMeta || entry.isCompactSummary)
    return false;
  return entry.blocks.length > 0 && !entry.blocks.some((b) => b.kind === 'tool-result');
}

/** After the last call's own lines the log holds a prompt or a tool's result: a request no recorded call answers. */
export function requestAfterLastCall(prepared: PreparedReplay): boolean {
  const { callPos } = prepared;
  const n = callPos.length - 1;
  for (let p = n > 0 ? callPos[n - 1]! + 1 : callPos[n]!; p < callPos[n]!; p++) {
    if (isPersonTurn(prepared, p)) return true;
    const entry = prepared.session.entries[prepared.ctxEntry[p]!]!;
    if (
      prepared.artifactOf[p] === 0 &&
      entry.kind === 'user' &&
      entry.blocks.some((b) => b.kind === 'tool-result')
    )
      return true;
  }
  return false;
}
