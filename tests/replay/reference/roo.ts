import { isSafeCut } from '../../../src/engine/simulation/cuts';
import { getMessageRangePositions } from '../../../src/engine/simulation/message-pairs';
import { getRooTruncateCount } from '../../../src/engine/strategies/roo';
import { getRooAllowedTokens, type RooKnobs } from '../../../src/engine/strategies/roo/descriptor';
import { estimateTextTokens } from '../../../src/engine/tokens/estimate';
import type { TokenCount } from '../../../src/engine/types';
import { PLACEHOLDER_TOKENS, type PreparedReplay } from '../../../src/engine/replay/prepare';
import { requestAfterLastCall } from '../reference-requests';

// A deliberately naive replay of Roo Code's sliding window (strategies/roo/index.ts with condensing off
// or failing, through compute-replay.ts), to check the fast one on the same transcripts. Both
// histories are explicit sets of positions, re-priced in full at every call (quadratic). Shared
// with the fast path: the prepared attribution, `allowedTokens` and the hidden count, the message ↔
// call mapping (simulation/message-pairs.ts) and the safe-cut rule (simulation/cuts.ts). No
// condense, no manual requests; the log's microcompacts as the log's placeholder.

export interface NaiveRooEvent {
  kind: 'truncate' | 'reset';
  afterCallPos: number;
  postTokens: TokenCount;
  /** Truncate: the positions hidden, [from, to), and their tokens (what a rewind restores). */
  range?: [number, number];
  hiddenTokens?: TokenCount;
}

export interface NaiveRooResult {
  simulatedTokens: number[];
  events: NaiveRooEvent[];
}

/** The marker's size, as roo.ts prices it (~66 characters). */
const MARKER_TOKENS = estimateTextTokens(66);

/** Runs the naive sliding-window replay; `knobs` must be complete (normalized), condensing off or failing. */
export function computeNaiveRooReplay(prepared: PreparedReplay, knobs: RooKnobs): NaiveRooResult {
  const {
    calls,
    recorded,
    output,
    pendingEstimate,
    callPos,
    ctxEntry,
    tokens,
    artifactOf,
    clearables,
    real,
  } = prepared;
  const n = calls.length;
  // The step after the last call: only when the log holds a request after it.
  const stepsAfterLast = requestAfterLastCall(prepared);
  const allowed = getRooAllowedTokens(knobs);
  const m = ctxEntry.length;
  let simFrom = 0;
  let adopted = -1;
  const simHidden = new Uint8Array(m);
  let simSynthetic = 0;
  let logFrom = 0;
  const logCleared = new Set<number>();
  /** API history messages hidden so far (1 … hiddenMessages): Roo's count, whatever was live. */
  let hiddenMessages = 0;
  const events: NaiveRooEvent[] = [];
  const simulatedTokens: number[] = [];

  const simHolds = (p: number) =>
    p >= simFrom && !simHidden[p] && (artifactOf[p] === 0 || artifactOf[p] === adopted + 1);
  const simMessages = (to: number) => {
    let sum = 0;
    for (let p = 0; p < to; p++) if (simHolds(p)) sum += tokens[p]!;
    return sum;
  };
  const logMessages = (to: number) => {
    let sum = 0;
    for (let p = logFrom; p < to; p++) sum += tokens[p]!;
    for (const i of logCleared) sum -= Math.max(0, clearables.tokens[i]! - PLACEHOLDER_TOKENS);
    return sum;
  };
  for (let r = 0; r < real.length && real[r]!.afterCall < 0; r++) {
    if (real[r]!.kind !== 'compact') continue;
    logFrom = real[r]!.boundaryPos;
    simFrom = real[r]!.boundaryPos;
    adopted = r;
  }

  for (let k = 0; k < n; k++) {
    const pos = callPos[k]!;
    const S = recorded[k]! + simSynthetic + simMessages(pos) - logMessages(pos);
    simulatedTokens.push(S);
    // `prevContextTokens`: the last total and the message being sent.
    const check = S + output[k]! + pendingEstimate[k]!;
    const boundary = callPos[k + 1]!;
    if ((k + 1 < n || stepsAfterLast) && check > allowed) {
      const visible = 2 * (k + 1) + 1 - hiddenMessages;
      const count = getRooTruncateCount(visible, knobs.truncatePercent / 100);
      if (count > 0) {
        let [from, to] = getMessageRangePositions(callPos, hiddenMessages + 1, hiddenMessages + count);
        hiddenMessages += count;
        from = Math.max(from, simFrom);
        while (from < boundary && artifactOf[from] !== 0) from++;
        to = Math.min(to, boundary);
        while (from > simFrom && !isSafeCut(prepared, from, boundary)) from--;
        while (to > simFrom && !isSafeCut(prepared, to, boundary)) to--;
        if (to > from) {
          const before = simMessages(boundary);
          for (let p = from; p < to; p++) simHidden[p] = 1;
          const hiddenTokens = before - simMessages(boundary);
          simSynthetic += MARKER_TOKENS;
          events.push({
            kind: 'truncate',
            afterCallPos: k,
            postTokens: check - hiddenTokens + MARKER_TOKENS,
            range: [from, to],
            hiddenTokens,
          });
        }
      }
    }

    for (let r = 0; r < real.length; r++) {
      const info = real[r]!;
      if (info.afterCall !== k) continue;
      if (info.kind === 'microcompact') {
        for (const i of info.cleared) if (clearables.pos[i]! >= logFrom) logCleared.add(i);
      } else if (info.kind === 'compact') {
        logFrom = info.boundaryPos;
        logCleared.clear();
        if (info.trigger !== 'auto' && adopted !== r) {
          adopted = r;
          simFrom = info.boundaryPos;
          simHidden.fill(0);
          // The adopted summary and re-attachments are positions the history holds.
          simSynthetic = 0;
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
