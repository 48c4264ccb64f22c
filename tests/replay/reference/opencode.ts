import type { OpenCodeKnobs } from '../../../src/engine/strategies/opencode';
import type { TokenCount } from '../../../src/engine/types';
import { PLACEHOLDER_TOKENS, type PreparedReplay } from '../../../src/engine/replay/prepare';

// A deliberately naive replay of OpenCode's prune (strategies/opencode/index.ts through
// compute-replay.ts), to check the fast one on the same transcripts: the clear family with
// turn-ended timing. The pruned set is explicit and every call re-prices it in full; every
// decision rescans every position and every item. Shared with the fast path: the prepared
// attribution and estimates. Its own: the user-turn test, the walk, the pricing. Scope: logs
// without compactions of their own, auto-compaction off (the summary is the size model's).

export interface NaiveOpenCodeEvent {
  afterCallPos: number;
  /** tool_use ids, in item order. */
  ids: string[];
  prunedTokens: TokenCount;
}

export interface NaiveOpenCodeResult {
  simulatedTokens: number[];
  events: NaiveOpenCodeEvent[];
}

/** Runs the naive prune; `knobs` must be complete (normalized). */
export function computeNaiveOpenCodePrune(
  prepared: PreparedReplay,
  knobs: OpenCodeKnobs,
): NaiveOpenCodeResult {
  const { session, calls, recorded, callPos, ctxEntry, clearables, real, toolNames } = prepared;
  if (real.length > 0) throw new RangeError('the naive OpenCode prune models logs without compactions only');
  const n = calls.length;
  const pruned = new Set<number>();
  const events: NaiveOpenCodeEvent[] = [];
  const simulatedTokens: number[] = [];
  const isTurn = (p: number): boolean => {
    const e = session.entries[ctxEntry[p]!]!;
    if (e.kind !== 'user' || e.isMeta || e.isCompactSummary || e.role === 'assistant') return false;
    return e.blocks.length > 0 && !e.blocks.some((b) => b.kind === 'tool-result');
  };
  const protectedNames = knobs.protectedTools.map((t) => t.toLowerCase());

  for (let k = 0; k < n; k++) {
    // The log's history is whole: the simulated one differs by what the prune replaced.
    let saved = 0;
    for (const i of pruned) saved += Math.max(0, clearables.tokens[i]! - PLACEHOLDER_TOKENS);
    simulatedTokens.push(recorded[k]! - saved);
    if (k + 1 >= n || !knobs.prune) continue;

    // A turn ends at call k when a user turn starts before call k + 1.
    let next = -1;
    for (let p = callPos[k]! + 1; p < callPos[k + 1]! && next < 0; p++) if (isTurn(p)) next = p;
    if (next < 0) continue;
    const turns: number[] = [];
    for (let p = 0; p < next; p++) if (isTurn(p)) turns.push(p);
    if (turns.length < knobs.protectTurns) continue;
    const protectFrom = knobs.protectTurns === 0 ? next : turns[turns.length - knobs.protectTurns]!;

    // Every item, newest position first.
    const order = Array.from(clearables.pos.keys()).sort(
      (a, b) => clearables.pos[b]! - clearables.pos[a]! || b - a,
    );
    let total = 0;
    let prunedTokens = 0;
    const chosen: number[] = [];
    for (const i of order) {
      if (clearables.pos[i]! >= protectFrom) continue;
      const t = clearables.tool[i]!;
      if (t < 0 || protectedNames.includes(toolNames[t]!.toLowerCase())) continue;
      if (pruned.has(i)) break;
      total += clearables.estimate[i]!;
      if (total > knobs.pruneProtectTokens) {
        prunedTokens += clearables.estimate[i]!;
        chosen.push(i);
      }
    }
    if (prunedTokens <= knobs.pruneMinimumTokens) continue;
    chosen.sort((a, b) => a - b);
    for (const i of chosen) pruned.add(i);
    events.push({ afterCallPos: k, ids: chosen.map((i) => clearables.ids[i]!), prunedTokens });
  }
  return { simulatedTokens, events };
}
