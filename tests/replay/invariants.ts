import { at } from '../../src/engine/assert';
import type { PreparedReplay } from '../../src/engine/replay/prepare';
import type { ReplayResult } from '../../src/engine/replay/types';

// Properties every replay must have, checked by the tests on every replay they run:
// 1. after a compaction the context is under the threshold, or the event says why not;
// 2. no compaction boundary or kept-messages cut separates a tool_use from its tool_result;
// 3. a cleared or replaced tool result is cleared once and never comes back; a truncation drops
//    no message an earlier one already dropped, and its cuts split no tool pair;
// 4. where the simulated history equals the log's, the simulated context is the recorded one;
// 5. events come in call order and the series are finite and never negative; after one call a clearing comes before
//    a compaction (claude-code-compaction-v2.1.68.txt edge case 6: microcompact inline, the full
//    compaction after it).
// 6. what an event tagged instead of deleting (Roo) is what it took out of the context: a rewind
//    restores the dropped range (truncation) or the summarized span (condense), no more, no less.

/** Violations, as sentences; empty when the replay is sound. */
export function checkReplayInvariants(prepared: PreparedReplay, result: ReplayResult): string[] {
  const problems: string[] = [];
  const { callPos, clearables, posOfEntry } = prepared;
  const splits = (cut: number): string | undefined => {
    for (let i = 0; i < clearables.pos.length; i++) {
      const use = at(clearables.usePos, i);
      if (use >= 0 && use < cut && at(clearables.pos, i) >= cut) return clearables.ids[i];
    }
    return undefined;
  };

  let lastCall = -1;
  /** Entry ranges dropped since the history last restarted (a compaction or a reset). */
  let dropped: [number, number][] = [];
  result.events.forEach((e, index) => {
    if (e.afterCallPos < lastCall)
      problems.push(`event #${index} (call ${e.afterCallPos}) comes after an event at call ${lastCall}`);
    const previous = result.events[index - 1];
    if (
      e.kind === 'microcompact' &&
      previous?.kind === 'compact' &&
      previous.afterCallPos === e.afterCallPos &&
      previous.trigger !== 'log'
    )
      problems.push(
        `event #${index}: a microcompact after the compaction of the same call (edge case 6 has it first)`,
      );
    lastCall = e.afterCallPos;
    if (e.kind === 'compact' || e.kind === 'reset') dropped = [];
    if (e.kind === 'truncate') {
      if (e.postTokens >= e.thresholdTokens && !e.note?.includes('not under'))
        problems.push(
          `event #${index}: ${e.postTokens} tokens after truncating, over the ${e.thresholdTokens} threshold, and no note says why`,
        );
      const from = e.droppedFromEntryIndex!;
      const to = e.droppedToEntryIndex!;
      for (const cut of [posOfEntry[from]!, posOfEntry[to]! + 1]) {
        const split = cut >= 0 ? splits(cut) : undefined;
        if (split)
          problems.push(`event #${index}: the truncation separates tool_use ${split} from its result`);
      }
      if (dropped.some(([a, b]) => from <= b && to >= a))
        problems.push(`event #${index}: entries ${from}–${to} overlap a range an earlier truncation dropped`);
      dropped.push([from, to]);
    }
    if ((e.kind === 'truncate' || e.kind === 'compact') && e.hidden) {
      const h = e.hidden;
      const [from, to, tokens] =
        e.kind === 'truncate'
          ? [e.droppedFromEntryIndex, e.droppedToEntryIndex, e.droppedTokens]
          : [e.spanFromEntryIndex, e.spanToEntryIndex, e.spanTokens];
      if (h.fromEntryIndex !== from || h.toEntryIndex !== to || h.tokens !== tokens || h.entries <= 0)
        problems.push(
          `event #${index}: hides entries ${h.fromEntryIndex}–${h.toEntryIndex} (${h.entries}, ${h.tokens} tokens) but took out ${from}–${to} (${tokens} tokens)`,
        );
    }
    if (e.kind === 'compact') {
      if (e.postTokens >= e.thresholdTokens && !e.note?.includes('not under')) {
        problems.push(
          `event #${index}: ${e.postTokens} tokens after compacting, over the ${e.thresholdTokens} threshold, and no note says why`,
        );
      }
      const boundary = at(callPos, e.afterCallPos + 1);
      const split = splits(boundary);
      if (split) problems.push(`event #${index}: its boundary separates tool_use ${split} from its result`);
      if (e.keptFromEntryIndex !== undefined) {
        const cut = at(posOfEntry, e.keptFromEntryIndex);
        const kept = cut >= 0 ? splits(cut) : undefined;
        if (kept)
          problems.push(`event #${index}: the kept messages start between tool_use ${kept} and its result`);
      }
    }
  });

  const clearedBy = new Map<string, number>();
  result.events.forEach((e, index) => {
    for (const id of e.kind === 'microcompact' || e.kind === 'replace' ? e.clearedToolIds : []) {
      const before = clearedBy.get(id);
      if (before !== undefined)
        problems.push(`tool result ${id} cleared twice (events #${before} and #${index})`);
      clearedBy.set(id, index);
    }
  });
  for (const [id, index] of Object.entries(result.clearedToolIds)) {
    if (clearedBy.get(id) !== index)
      problems.push(
        `tool result ${id}: the cleared map says event #${index}, the events say #${clearedBy.get(id)}`,
      );
  }

  for (let k = 0; k < result.callIndex.length; k++) {
    const s = at(result.simulatedTokens, k);
    if (!Number.isFinite(s) || !Number.isFinite(at(result.checkTokens, k)))
      problems.push(`call ${k}: non-finite simulated figure`);
    else if (s < 0) problems.push(`call ${k}: a negative context (${s})`);
    if (result.diverged[k] === 0 && s !== result.recordedTokens[k]) {
      problems.push(`call ${k}: history unchanged but simulated ${s} ≠ recorded ${result.recordedTokens[k]}`);
    }
  }
  return problems;
}
