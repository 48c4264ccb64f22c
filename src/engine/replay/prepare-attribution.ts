import { LoggedHistory } from '../simulation/history';
import {
  PLACEHOLDER_TOKENS,
  type PreparedReplay,
  type RealCompactionInfo,
  TOKEN_SOURCE,
  type UsageFalls,
} from '../simulation/prepared';
import type { TokenCount } from '../types';
import type { CallAxis } from './prepare-call-axis';
import type { ClearableItems } from './prepare-clearables';

// Phase 4 of `prepareReplay`: token attribution. The context entries are split into groups:
// group k holds the entries first sent with API call k. The recorded usage says exactly how much
// each group added: R[k] − R[k−1] (plus what a real microcompact removed in between). That total
// is split over the group's entries in proportion to Claude Code's own estimate
// (tokens/estimate.ts). Entries no usage covers (summarized before anything was sent, or after the
// last call) get the estimate itself. `tokenSource` says which.

interface Attribution {
  tokens: Float64Array;
  tokenSource: Uint8Array;
  /**
   * Per context position, the tokens the recorded usage fell by at the group starting there (a
   * negative delta: its entries are clamped to 0), else 0 (`PreparedReplay.usageFalls`).
   */
  drops: Float64Array;
  /** System prompt + tools. */
  baseTokens: TokenCount;
}

/** Splits `total` over `weights` in proportion, in integers that sum exactly to `total`. */
function splitInteger(total: number, weights: number[], out: number[]): void {
  const n = weights.length;
  let sum = 0;
  for (const w of weights) sum += w;
  if (n === 0) return;
  if (sum <= 0) {
    for (let i = 0; i < n; i++) out[i] = 0;
    out[n - 1] = total;
    return;
  }
  let acc = 0;
  let prev = 0;
  for (let i = 0; i < n; i++) {
    acc += weights[i]!;
    const cut = Math.round((total * acc) / sum);
    out[i] = cut - prev;
    prev = cut;
  }
}

/**
 * The system prompt and tools: what a fresh history (the first call, or the first call after a
 * real compaction) carries beyond its messages. The smallest such figure is taken, so that a log
 * that starts mid-session (a resumed or forked context) does not count its hidden history as
 * system prompt.
 */
function getBaseTokens(
  axis: CallAxis,
  real: readonly RealCompactionInfo[],
  estimate: Float64Array,
): TokenCount {
  const { recorded, callPos } = axis;
  const n = recorded.length;
  let baseTokens = Number.POSITIVE_INFINITY;
  const freshStart = (k: number, from: number) => {
    let est = 0;
    for (let p = from; p < callPos[k]!; p++) est += estimate[p]!;
    baseTokens = Math.min(baseTokens, recorded[k]! - est);
  };
  if (n > 0) freshStart(0, 0);
  for (const r of real) {
    if (r.kind === 'compact' && r.afterCall + 1 < n && r.afterCall + 1 >= 0)
      freshStart(r.afterCall + 1, r.boundaryPos);
  }
  return Number.isFinite(baseTokens) ? Math.max(0, baseTokens) : 0;
}

/**
 * Attributes every context entry's tokens, and from them each clearable item's share, each real
 * microcompact's savings and each real compaction's artifact and summary tokens (filled in place).
 */
export function attributeTokens(
  axis: CallAxis,
  real: RealCompactionInfo[],
  items: ClearableItems,
  estimate: Float64Array,
): Attribution {
  const { recorded, callPos, posOfEntry } = axis;
  const { clearables, firstClearable } = items;
  const n = recorded.length;
  const m = axis.ctxEntry.length;
  const tokens = new Float64Array(m);
  const tokenSource = new Uint8Array(m);
  const drops = new Float64Array(m);
  const weights: number[] = [];
  const shares: number[] = [];
  const assign = (from: number, to: number, total: number) => {
    if (to <= from) return;
    weights.length = 0;
    for (let p = from; p < to; p++) weights.push(estimate[p]!);
    shares.length = weights.length;
    if (total < 0) {
      for (let p = from; p < to; p++) {
        tokens[p] = 0;
        tokenSource[p] = TOKEN_SOURCE.clamped;
      }
      drops[from] = drops[from]! - total;
      return;
    }
    splitInteger(total, weights, shares);
    const source = to - from === 1 ? TOKEN_SOURCE.exact : TOKEN_SOURCE.split;
    for (let p = from; p < to; p++) {
      tokens[p] = shares[p - from]!;
      tokenSource[p] = source;
    }
  };
  const estimateRange = (from: number, to: number) => {
    for (let p = from; p < to; p++) {
      tokens[p] = estimate[p]!;
      tokenSource[p] = TOKEN_SOURCE.estimated;
    }
  };
  const isArtifact = new Uint8Array(m);
  for (const r of real) for (const p of r.artifactPositions) isArtifact[p] = 1;
  // The first call after a real compaction or truncation: its usage holds what the event put in
  // the context (a summary, kept or re-attached messages, a notice) besides the messages sent
  // since. Those messages are priced on their own (their estimate), not as a share of the whole
  // figure: a history that did not make the event grows by them alone (issue 19 item 9). What the
  // compaction put there goes to its artifacts; what no record holds is measured afterwards
  // (`measureUnloggedTokens`).
  const assignAfterReset = (from: number, to: number, total: number) => {
    let own = 0;
    let artifacts = 0;
    for (let p = from; p < to; p++)
      if (isArtifact[p]) artifacts++;
      else own += estimate[p]!;
    if (own > total) {
      assign(from, to, total);
      return;
    }
    weights.length = 0;
    for (let p = from; p < to; p++) {
      if (!isArtifact[p]) {
        tokens[p] = estimate[p]!;
        tokenSource[p] = TOKEN_SOURCE.estimated;
      } else weights.push(estimate[p]!);
    }
    if (artifacts === 0) return;
    shares.length = weights.length;
    splitInteger(total - own, weights, shares);
    let i = 0;
    for (let p = from; p < to; p++) {
      if (!isArtifact[p]) continue;
      tokens[p] = shares[i++]!;
      tokenSource[p] = artifacts === 1 ? TOKEN_SOURCE.exact : TOKEN_SOURCE.split;
    }
  };
  const clearableTokens = (from: number, to: number) => {
    // The entry's attributed tokens shared over its clearable items by estimate.
    for (let p = from; p < to; p++) {
      const a = firstClearable[p]!;
      const b = firstClearable[p + 1]!;
      if (a === b) continue;
      const est = estimate[p]!;
      for (let i = a; i < b; i++) {
        clearables.tokens[i] = est > 0 ? Math.round((tokens[p]! * clearables.estimate[i]!) / est) : 0;
      }
    }
  };

  const baseTokens = getBaseTokens(axis, real, estimate);
  let realIdx = 0;
  for (let k = 0; k <= n; k++) {
    const from = k === 0 ? 0 : callPos[k - 1]!;
    const to = callPos[k]!;
    // Real events between call k−1 and call k.
    let fullBoundary = -1;
    let truncated = false;
    let saved = 0;
    while (realIdx < real.length && real[realIdx]!.afterCall < k) {
      const r = real[realIdx]!;
      if (r.kind === 'compact') fullBoundary = Math.max(fullBoundary, r.boundaryPos);
      else if (r.kind === 'truncate' && r.droppedRange) truncated = true;
      else {
        let own = 0;
        for (const i of r.cleared) own += Math.max(0, clearables.tokens[i]! - PLACEHOLDER_TOKENS);
        r.savedTokens = own;
        saved += own;
      }
      realIdx++;
    }
    if (k === n) {
      estimateRange(from, to);
    } else if (k === 0) {
      if (fullBoundary >= 0 && fullBoundary <= to) {
        estimateRange(from, fullBoundary);
        assignAfterReset(fullBoundary, to, recorded[0]! - baseTokens);
      } else assign(from, to, recorded[0]! - baseTokens);
    } else if (fullBoundary >= 0) {
      const cut = Math.min(Math.max(fullBoundary, from), to);
      estimateRange(from, cut);
      assignAfterReset(cut, to, recorded[k]! - baseTokens);
    } else if (truncated) {
      // The usage fell by what the truncation dropped, net of what was sent since: the messages
      // sent since are priced on their own (above).
      estimateRange(from, to);
    } else {
      assign(from, to, recorded[k]! - recorded[k - 1]! + saved);
    }
    clearableTokens(from, to);
  }
  for (const r of real) {
    let sum = 0;
    for (const p of r.artifactPositions) sum += tokens[p]!;
    r.artifactTokens = sum;
    if (r.summaryEntryIndex !== undefined) {
      // The summary's own size is its estimate: what else the first call after the boundary
      // carried (re-attached files that older versions did not log) stays in `artifactTokens`.
      const p = posOfEntry[r.summaryEntryIndex]!;
      if (p >= 0) r.summaryTokens = Math.min(tokens[p]!, estimate[p]!);
    }
  }
  return { tokens, tokenSource, drops, baseTokens };
}

interface PrefixSums {
  prefixAll: Float64Array;
  prefixNon: Float64Array;
  prefixBySource: Float64Array[];
  usageFalls: UsageFalls;
}

/** Prefix sums of the attributed tokens: all entries, without artifacts, by token source. */
export function getPrefixSums(attribution: Attribution, artifactOf: Int32Array): PrefixSums {
  const { tokens, tokenSource, drops } = attribution;
  const m = tokens.length;
  const prefixAll = new Float64Array(m + 1);
  const fallPos: number[] = [];
  for (let p = 0; p < m; p++) if (drops[p]! > 0) fallPos.push(p);
  const k = fallPos.length;
  const usageFalls: UsageFalls = {
    pos: Int32Array.from(fallPos),
    tokens: Float64Array.from(fallPos, (p) => drops[p]!),
    prefix: new Float64Array(k + 1),
    suffixMax: new Float64Array(k + 1),
  };
  for (let i = 0; i < k; i++) usageFalls.prefix[i + 1] = usageFalls.prefix[i]! + usageFalls.tokens[i]!;
  for (let i = k - 1; i >= 0; i--)
    usageFalls.suffixMax[i] = Math.max(usageFalls.suffixMax[i + 1]!, usageFalls.tokens[i]!);
  const prefixNon = new Float64Array(m + 1);
  const prefixBySource = [0, 1, 2, 3].map(() => new Float64Array(m + 1));
  for (let p = 0; p < m; p++) {
    prefixAll[p + 1] = prefixAll[p]! + tokens[p]!;
    prefixNon[p + 1] = prefixNon[p]! + (artifactOf[p] === 0 ? tokens[p]! : 0);
    for (const prefix of prefixBySource) prefix[p + 1] = prefix[p]!;
    if (artifactOf[p] !== 0) continue;
    const s = tokenSource[p]!;
    const prefix = prefixBySource[s]!;
    prefix[p + 1] = prefix[p + 1]! + (s === TOKEN_SOURCE.clamped ? 1 : tokens[p]!);
  }
  return { prefixAll, prefixNon, prefixBySource, usageFalls };
}

/**
 * Claude Code 2.1.x's estimate of what follows each response's first line up to the next call
 * (its later lines, tool results, user messages; real compaction artifacts excluded).
 */
export function getPendingEstimates(
  axis: CallAxis,
  estimate: Float64Array,
  artifactOf: Int32Array,
): Float64Array {
  const { callPos } = axis;
  const n = callPos.length - 1;
  const pendingEstimate = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    let sum = 0;
    for (let p = callPos[k]! + 1; p < callPos[k + 1]!; p++) if (artifactOf[p] === 0) sum += estimate[p]!;
    pendingEstimate[k] = sum;
  }
  return pendingEstimate;
}

/**
 * Per real compaction or truncation, what the first call after it holds beyond the log's own
 * history priced per message (`RealCompactionInfo.unloggedTokens`), so that the log's history
 * prices every call at its recorded usage: the log's history is walked as the replay walks it
 * (`LoggedHistory`). A compaction's share joins its artifacts: adopting it brings it along.
 */
export function measureUnloggedTokens(prepared: PreparedReplay): void {
  const { real, recorded, callPos } = prepared;
  const log = new LoggedHistory(prepared);
  let r = 0;
  for (let k = 0; k < recorded.length; k++) {
    let last = -1;
    while (r < real.length && real[r]!.afterCall < k) {
      const e = real[r]!;
      if (e.afterCall >= 0) e.driftTokens = recorded[e.afterCall]! - log.contextBefore(callPos[e.afterCall]!);
      if (e.kind === 'microcompact') log.clear(e.cleared);
      else if (e.kind === 'truncate') {
        if (e.droppedRange) {
          log.truncate(e.droppedRange[0], e.droppedRange[1]);
          last = r;
        }
      } else {
        log.compact(e.boundaryPos);
        last = r;
      }
      r++;
    }
    if (last < 0) continue;
    const info = real[last]!;
    const unlogged = recorded[k]! - log.contextBefore(callPos[k]!);
    info.unloggedTokens = unlogged;
    log.addUnlogged(unlogged);
    if (info.kind === 'compact') info.artifactTokens += unlogged;
  }
}
