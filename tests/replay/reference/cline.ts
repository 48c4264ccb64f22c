import { isSafeCut } from '../../../src/engine/simulation/cuts';
import { getMessageAt, getMessageRangePositions } from '../../../src/engine/simulation/message-pairs';
import { type ClineKnobs, getClineMaxAllowed } from '../../../src/engine/strategies/cline/knobs';
import type { TokenCount } from '../../../src/engine/types';
import { PLACEHOLDER_TOKENS, type PreparedReplay } from '../../../src/engine/replay/prepare';
import { requestAfterLastCall } from '../reference-requests';

// A deliberately naive replay of Cline's rules (strategies/cline/index.ts through compute-replay.ts), to
// check the fast one on the same transcripts: the truncate and replace families. Both histories
// are explicit sets of positions, re-priced in full at every call (quadratic); every decision
// scans every item. Shared with the fast path: the prepared attribution, `maxAllowedSize`, the
// message ↔ call mapping (simulation/message-pairs.ts) and the safe-cut rule (simulation/cuts.ts).
// No auto-condense, no manual requests; the log's microcompacts as the log's placeholder.

export interface NaiveClineEvent {
  kind: 'truncate' | 'replace' | 'reset';
  afterCallPos: number;
  postTokens: TokenCount;
  /** Truncate: the positions dropped, [from, to). */
  range?: [number, number];
  /** Replace: the tool_use ids. */
  ids?: string[];
}

export interface NaiveClineResult {
  simulatedTokens: number[];
  events: NaiveClineEvent[];
}

const READ_TOOLS = /^(read|read_?file)$/i;

/** Runs the naive Cline replay; `knobs` must be complete (normalized), auto-condense off. */
export function computeNaiveClineReplay(prepared: PreparedReplay, knobs: ClineKnobs): NaiveClineResult {
  const { session, calls, recorded, output, callPos, ctxEntry, tokens, artifactOf, clearables, real } =
    prepared;
  const n = calls.length;
  // The step after the last call: only when the log holds a request after it.
  const stepsAfterLast = requestAfterLastCall(prepared);
  const maxAllowed = getClineMaxAllowed(knobs);
  const m = ctxEntry.length;
  /** Simulated history: which positions it holds (artifacts of unadopted compactions never). */
  let simFrom = 0;
  let adopted = -1;
  const simDropped = new Uint8Array(m);
  const replacedWith = new Map<number, number>();
  let noticeTokens = 0;
  let logFrom = 0;
  const logDropped = new Uint8Array(m);
  const events: NaiveClineEvent[] = [];
  const simulatedTokens: number[] = [];

  const readPath = (i: number): string | undefined => {
    const t = clearables.tool[i]!;
    const use = clearables.usePos[i]!;
    if (t < 0 || use < 0 || !READ_TOOLS.test(prepared.toolNames[t]!)) return undefined;
    for (const b of session.entries[ctxEntry[use]!]!.blocks)
      if (b.kind === 'tool-use' && b.id === clearables.ids[i]) return b.filePath;
    return undefined;
  };
  const simHolds = (p: number) =>
    p >= simFrom && !simDropped[p] && (artifactOf[p] === 0 || artifactOf[p] === adopted + 1);
  const priceSim = (p: number) => {
    let v = tokens[p]!;
    for (let i = 0; i < clearables.pos.length; i++) {
      const kept = replacedWith.get(i);
      if (clearables.pos[i] === p && kept !== undefined && artifactOf[p] === 0)
        v -= Math.max(0, clearables.tokens[i]! - kept);
    }
    return v;
  };
  const simMessages = (to: number) => {
    let sum = 0;
    for (let p = 0; p < to; p++) if (simHolds(p)) sum += priceSim(p);
    return sum;
  };
  /** Results the log's own microcompacts cleared, priced at the log's placeholder. */
  const logCleared = new Set<number>();
  /** What the log's context holds beyond its records (each event's unloggedTokens). */
  let logUnlogged = 0;
  const logMessages = (to: number) => {
    let sum = logUnlogged;
    for (let p = logFrom; p < to; p++) if (!logDropped[p]) sum += tokens[p]!;
    for (const i of logCleared) sum -= Math.max(0, clearables.tokens[i]! - PLACEHOLDER_TOKENS);
    return sum;
  };
  const droppedSet = (a: Uint8Array, extra?: [number, number]) => {
    const out: number[] = [];
    for (let p = 0; p < m; p++) if (a[p] || (extra && p >= extra[0] && p < extra[1])) out.push(p);
    return out.join(',');
  };
  let simSynthetic = 0;
  for (let r = 0; r < real.length && real[r]!.afterCall < 0; r++) {
    if (real[r]!.kind !== 'compact') continue;
    logFrom = real[r]!.boundaryPos;
    simFrom = real[r]!.boundaryPos;
    logUnlogged = real[r]!.unloggedTokens;
    simSynthetic = real[r]!.unloggedTokens;
    adopted = r;
  }

  for (let k = 0; k < n; k++) {
    const pos = callPos[k]!;
    const S = recorded[k]! + simSynthetic + simMessages(pos) - logMessages(pos);
    simulatedTokens.push(S);
    const total = S + output[k]!;
    const boundary = callPos[k + 1]!;

    if ((k + 1 < n || stepsAfterLast) && total >= maxAllowed) {
      let saved = 0;
      let skip = false;
      if (knobs.dedupEnabled) {
        const byPath = new Map<string, number[]>();
        for (let i = 0; i < clearables.pos.length; i++) {
          const p = clearables.pos[i]!;
          if (p >= boundary || !simHolds(p) || replacedWith.has(i)) continue;
          const path = readPath(i);
          if (path === undefined) continue;
          byPath.set(path, [...(byPath.get(path) ?? []), i]);
        }
        const items = [...byPath.values()].flatMap((list) => list.slice(0, -1)).sort((a, b) => a - b);
        if (items.length > 0) {
          const before = simMessages(boundary);
          for (const i of items) replacedWith.set(i, knobs.dedupNoticeTokens);
          saved = before - simMessages(boundary);
          events.push({
            kind: 'replace',
            afterCallPos: k,
            postTokens: total - saved,
            ids: items.map((i) => clearables.ids[i]!),
          });
          // Cline skips the truncation when the dedup saved enough of what is in context.
          if (saved > 0 && saved >= (before * knobs.dedupEnoughPercent) / 100) skip = true;
        }
      }
      if (!skip) {
        // The first position after the first pair and what truncations dropped.
        let rest =
          simFrom < callPos[0]! ? callPos[0]! : (callPos[callIndexAt(callPos, simFrom) + 1] ?? boundary);
        while (rest < boundary && simDropped[rest]) rest++;
        const startOfRest = getMessageAt(callPos, rest);
        const messages = 2 * (k + 1) + 1;
        const keep =
          knobs.truncateKeep === 'auto' ? (total / 2 > maxAllowed ? 'quarter' : 'half') : knobs.truncateKeep;
        const remaining = Math.max(0, messages - startOfRest);
        const remove =
          keep === 'half' ? Math.floor(remaining / 4) * 2 : Math.floor((remaining * 3) / 4 / 2) * 2;
        if (remove > 0) {
          let [from, to] = getMessageRangePositions(callPos, startOfRest, startOfRest + remove - 1);
          to = Math.min(to, boundary);
          while (from > simFrom && !isSafeCut(prepared, from, boundary)) from--;
          while (to > simFrom && !isSafeCut(prepared, to, boundary)) to--;
          if (to > from) {
            const before = simMessages(boundary);
            const real = prepared.real.find(
              (r) =>
                r.kind === 'truncate' &&
                r.afterCall === k &&
                r.droppedRange !== undefined &&
                droppedSet(simDropped, [from, to]) === droppedSet(logDropped, r.droppedRange),
            );
            const hadNotice = noticeTokens > 0 || droppedSet(simDropped) !== '';
            for (let p = from; p < to; p++) simDropped[p] = 1;
            // The log's own truncation: its notice is what it left unlogged.
            const notice = real ? real.unloggedTokens : hadNotice ? 0 : knobs.truncationNoticeTokens;
            noticeTokens += notice;
            simSynthetic += notice;
            events.push({
              kind: 'truncate',
              afterCallPos: k,
              postTokens: total - saved - (before - simMessages(boundary)) + notice,
              range: [from, to],
            });
          }
        }
      }
    }

    for (let r = 0; r < real.length; r++) {
      const info = real[r]!;
      if (info.afterCall !== k) continue;
      if (info.kind === 'microcompact') {
        for (const i of info.cleared) if (clearables.pos[i]! >= logFrom) logCleared.add(i);
      } else if (info.kind === 'truncate' && info.droppedRange) {
        for (let p = Math.max(info.droppedRange[0], logFrom); p < info.droppedRange[1]; p++)
          logDropped[p] = 1;
        logUnlogged += info.unloggedTokens;
        // A truncation this history did not make: it carries the log's drift.
        if (droppedSet(simDropped) !== droppedSet(logDropped)) simSynthetic += info.driftTokens;
      } else if (info.kind === 'compact') {
        logFrom = info.boundaryPos;
        logDropped.fill(0);
        logCleared.clear();
        logUnlogged = info.unloggedTokens;
        if (info.trigger === 'auto' && adopted !== r) simSynthetic += info.driftTokens;
        if (info.trigger !== 'auto' && adopted !== r) {
          adopted = r;
          simFrom = info.boundaryPos;
          simDropped.fill(0);
          // The adopted summary and re-attachments are positions the history holds, with what
          // the compaction holds beyond them.
          simSynthetic = info.unloggedTokens;
          noticeTokens = 0;
          events.push({
            kind: 'reset',
            afterCallPos: k,
            postTokens: prepared.baseTokens + info.artifactTokens,
          });
        }
      }
    }
  }
  return { simulatedTokens, events };
}

/** The call whose positions hold `pos` (the last call starting at or before it). */
function callIndexAt(callPos: Int32Array, pos: number): number {
  let j = 0;
  while (j + 1 < callPos.length && callPos[j + 1]! <= pos) j++;
  return j;
}
