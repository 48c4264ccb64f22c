import type { RestoredFile } from '../compact/restore';
import type { TokenCount } from '../types';
import { isSafeCut } from './cuts';
import { getUsageFallTokens, PLACEHOLDER_TOKENS, type PreparedReplay } from './prepared';
import { lowerBound } from './search';
import type { SummarySource } from './types';

// The simulated history of a replay: synthetic parts (a summary, re-attached files, messages kept
// beside the summary) followed by the live context positions [liveFrom, …), less the ranges
// truncated away, with some results replaced by a shorter text (a placeholder, a notice). Every
// way an agent shrinks its context is one of five operations:
//   adopt      continue from the log's own post-compaction history (a real compaction);
//   clear      replace tool results by a placeholder (microcompact, API context editing);
//   replace    the same with any notice (Cline's "file already read" dedup);
//   truncate   drop a range of messages, tool pairs never split (Cline, Roo);
//   summarize  replace the history up to a boundary by a summary, a kept range before or after.
// Tokens are the attributed per-message figures of `prepareReplay`, so a history equal to the
// log's prices exactly as the log's usage.

/** The synthetic parts at the head of the history, by kind (provenance). */
interface SyntheticParts {
  /** Summary message, continuation text included. */
  summaryTokens: TokenCount;
  summarySource?: SummarySource;
  /** Re-attached files, todos, plan. */
  restoredTokens: TokenCount;
  /** Messages kept verbatim beside the summary. */
  keptTokens: TokenCount;
}

interface SummarizeOperation {
  /** The first position after the summarized part (the next call's first entry). */
  boundaryPos: number;
  /** Partial, `up-to`: [keepFromPos, boundary) stays live; `from`: [liveFrom, keepFromPos) is frozen beside the summary. */
  keepFromPos?: number;
  keepDirection?: 'up-to' | 'from';
  summaryTokens: TokenCount;
  summarySource?: SummarySource;
  /** The summary message's own text (continuation, another agent's prefix). */
  overheadTokens: TokenCount;
  restoredTokens: TokenCount;
  /** Tokens re-sent verbatim from anywhere in the history (Codex's recent user messages). */
  keptMessageTokens?: TokenCount;
  restoredFiles: readonly RestoredFile[];
}

export class SimulatedHistory {
  /** First live context position. */
  liveFrom = 0;
  /** Synthetic tokens at the head (sum of `parts`). */
  syntheticTokens = 0;
  parts: SyntheticParts = { summaryTokens: 0, restoredTokens: 0, keptTokens: 0 };
  /** Tokens the replaced results no longer hold (live ones), net of their replacement text. */
  savedTokens = 0;
  /** Files the last summary re-attached: restoration carries them forward. */
  carriedFiles: readonly RestoredFile[] = [];
  /** The head's summary is not in the transcript: its size, for the next summary's request. */
  previousSummaryTokens: TokenCount | undefined;
  /** Index into `prepared.real` of the compaction whose artifacts the history holds, else −1. */
  adoptedReal = -1;
  /** First clearable item at or after `liveFrom`. */
  clearableFrom = 0;
  /**
   * The log's usage less its history priced per message, carried from a log compaction or
   * truncation this history did not make (`RealCompactionInfo.driftTokens`): its messages are
   * still here, priced as the log's were. Gone with the next summary or adoption.
   */
  carriedTokens = 0;
  /** Truncated ranges [from, to) of live positions, sorted, disjoint, and their tokens. */
  private truncated: [number, number][] = [];
  private truncatedTokens = 0;
  /** 1 for each replaced item (read-only outside: the strategies' `isCleared` reads it on their hot path). */
  readonly replaced: Uint8Array;
  /** Every replaced item in the order it was replaced (append-only: `ReplayView.clearedOrder`). */
  readonly replacedOrder: number[] = [];
  /** Tokens each replaced result keeps (its placeholder or notice). */
  private readonly replacementOf: Float64Array;

  // The prepared arrays the pricing reads on every call, held directly (hot path).
  private readonly prefixNon: Float64Array;
  private readonly itemPos: Int32Array;
  private readonly itemTokens: Float64Array;
  private readonly artifactOf: Int32Array;

  constructor(private readonly prepared: PreparedReplay) {
    this.prefixNon = prepared.prefixNon;
    this.itemPos = prepared.clearables.pos;
    this.itemTokens = prepared.clearables.tokens;
    this.artifactOf = prepared.artifactOf;
    this.replaced = new Uint8Array(this.itemPos.length);
    this.replacementOf = new Float64Array(this.itemPos.length);
  }

  isReplaced(item: number): boolean {
    return this.replaced[item] === 1;
  }

  /** What replacing item `i` saves: its attributed tokens less its replacement's. */
  private savedOf(i: number): TokenCount {
    return Math.max(0, this.itemTokens[i]! - this.replacementOf[i]!);
  }

  /** Tokens of positions [from, to) as they are in the history, truncation ignored. */
  private rangeTokens(from: number, to: number): TokenCount {
    const { prefixNon, itemPos, artifactOf, replaced } = this;
    if (to <= from) return 0;
    let t = prefixNon[to]! - prefixNon[from]!;
    for (let i = lowerBound(itemPos, from); i < itemPos.length && itemPos[i]! < to; i++) {
      if (replaced[i] && artifactOf[itemPos[i]!] === 0) t -= this.savedOf(i);
    }
    return t;
  }

  /**
   * Tokens of live positions [from, to): replaced results at their replacement, truncated ranges
   * out, less the falls of the recorded usage in the range (`PreparedReplay.usageFalls`).
   */
  liveTokens(from: number, to: number): TokenCount {
    let t = this.rangeTokens(from, to) - getUsageFallTokens(this.prepared, from, to);
    for (let r = 0; r < this.truncated.length; r++) {
      const [a, b] = this.truncated[r]!;
      if (b <= from || a >= to) continue;
      t -= this.rangeTokens(Math.max(a, from), Math.min(b, to));
    }
    return t;
  }

  /** The context when the next call starts at `pos`: system prompt and tools, synthetic head, live messages. */
  contextBefore(pos: number): TokenCount {
    const { prefixNon } = this;
    const { baseTokens } = this.prepared;
    // Summed in this order so that a history equal to the log's gives the log's figure exactly.
    const t =
      baseTokens +
      this.syntheticTokens +
      prefixNon[pos]! -
      prefixNon[this.liveFrom]! -
      this.savedTokens -
      this.droppedByUsage(pos);
    const u = this.carriedTokens === 0 ? t : t + this.carriedTokens;
    return this.truncatedTokens === 0 ? u : u - this.truncatedTokens;
  }

  /** The falls of the recorded usage this history has undergone at `pos` (`PreparedReplay.usageFalls`). */
  droppedByUsage(pos: number): TokenCount {
    return getUsageFallTokens(this.prepared, this.liveFrom, pos);
  }

  /** Tokens the truncated ranges held (for provenance: messages not in the history). */
  get droppedTokens(): TokenCount {
    return this.truncatedTokens;
  }

  /** Continue from the log's own history after real compaction `r`: its summary and re-attachments. */
  adopt(r: number): void {
    const info = this.prepared.real[r]!;
    this.liveFrom = info.boundaryPos;
    this.syntheticTokens = info.artifactTokens;
    const summary = info.summaryTokens ?? 0;
    this.parts = {
      summaryTokens: summary,
      summarySource: 'recorded',
      restoredTokens: info.artifactTokens - summary,
      keptTokens: 0,
    };
    this.savedTokens = 0;
    this.truncated = [];
    this.truncatedTokens = 0;
    this.carriedFiles = [];
    this.previousSummaryTokens = undefined;
    this.adoptedReal = r;
    this.carriedTokens = 0;
    this.clearableFrom = lowerBound(this.prepared.clearables.pos, this.liveFrom);
  }

  /** Carries the log's drift at a log event this history did not make (`carriedTokens`). */
  carry(tokens: TokenCount): void {
    this.carriedTokens += tokens;
  }

  /**
   * Replaces results by a text of `replacementTokens` each (already replaced ones are skipped).
   * Returns the items newly replaced and the tokens the live history saves.
   */
  replace(
    items: readonly number[],
    replacementTokens: TokenCount,
  ): { items: number[]; savedTokens: TokenCount } {
    const pos = this.prepared.clearables.pos;
    const done: number[] = [];
    let live = 0;
    let saved = 0;
    for (const i of items) {
      if (this.replaced[i]) continue;
      this.replaced[i] = 1;
      this.replacedOrder.push(i);
      this.replacementOf[i] = replacementTokens;
      done.push(i);
      if (pos[i]! < this.liveFrom) continue;
      // `savedTokens` counts every live replacement; a truncated range is priced net of those in
      // it (`repriceTruncated`), so the two stay consistent and nothing is removed twice.
      live += this.savedOf(i);
      if (!this.isTruncated(pos[i]!)) saved += this.savedOf(i);
    }
    this.savedTokens += live;
    if (this.truncated.length > 0) this.repriceTruncated();
    return { items: done, savedTokens: saved };
  }

  /** Clears results to Claude Code's placeholder, or the log's own when `asLogged` (same figures as the log). */
  clear(items: readonly number[], placeholderTokens: TokenCount, asLogged = false) {
    return this.replace(items, asLogged ? PLACEHOLDER_TOKENS : placeholderTokens);
  }

  private isTruncated(pos: number): boolean {
    for (let r = 0; r < this.truncated.length; r++) {
      const range = this.truncated[r]!;
      if (pos >= range[0] && pos < range[1]) return true;
    }
    return false;
  }

  /**
   * Drops live positions [from, to) (both safe cuts: no tool_use without its result, no half
   * response; `boundaryPos` bounds the check). Returns the tokens dropped. A bad cut is a bug
   * in the strategy: RangeError.
   */
  truncate(from: number, to: number, boundaryPos: number): TokenCount {
    if (from < this.liveFrom || to > boundaryPos || from >= to)
      throw new RangeError(
        `truncate [${from}, ${to}) is not inside the live history [${this.liveFrom}, ${boundaryPos})`,
      );
    if (!isSafeCut(this.prepared, from, boundaryPos) || !isSafeCut(this.prepared, to, boundaryPos))
      throw new RangeError(`truncate [${from}, ${to}) would split a tool pair or a response`);
    // Merge with the ranges already dropped, then price the new part once.
    const merged: [number, number][] = [];
    let [a, b] = [from, to];
    for (const [x, y] of this.truncated) {
      if (y < a || x > b) merged.push([x, y]);
      else [a, b] = [Math.min(a, x), Math.max(b, y)];
    }
    merged.push([a, b]);
    merged.sort((p, q) => p[0] - q[0]);
    const before = this.truncatedTokens;
    this.truncated = merged;
    this.repriceTruncated();
    return this.truncatedTokens - before;
  }

  /**
   * The truncated ranges' tokens net of the replacements in them: those replacements' savings are
   * in `savedTokens`, so `contextBefore` removes each dropped token exactly once.
   */
  private repriceTruncated(): void {
    let t = 0;
    for (const [a, b] of this.truncated) t += this.rangeTokens(a, b);
    this.truncatedTokens = t;
  }

  /** A notice the history gains (Cline's truncation notice): priced with the synthetic head. */
  addNotice(tokens: TokenCount): void {
    this.syntheticTokens += tokens;
    this.parts = { ...this.parts, restoredTokens: this.parts.restoredTokens + tokens };
  }

  /** Truncated ranges (for the event's note and tests). */
  get truncatedRanges(): readonly (readonly [number, number])[] {
    return this.truncated;
  }

  /** Replaces the history up to the boundary by a summary (see `SummarizeOperation`). */
  summarize(op: SummarizeOperation): { frozenTokens: TokenCount } {
    let frozen = 0;
    if (op.keepFromPos !== undefined && op.keepDirection === 'from')
      frozen = this.syntheticTokens + this.liveTokens(this.liveFrom, op.keepFromPos);
    frozen += op.keptMessageTokens ?? 0;
    this.syntheticTokens = frozen + op.summaryTokens + op.overheadTokens + op.restoredTokens;
    this.parts = {
      summaryTokens: op.summaryTokens + op.overheadTokens,
      summarySource: op.summarySource,
      restoredTokens: op.restoredTokens,
      keptTokens: frozen,
    };
    this.liveFrom =
      op.keepFromPos !== undefined && op.keepDirection === 'up-to' ? op.keepFromPos : op.boundaryPos;
    this.clearableFrom = lowerBound(this.prepared.clearables.pos, this.liveFrom);
    this.truncated = this.truncated
      .filter(([, b]) => b > this.liveFrom)
      .map(([a, b]): [number, number] => [Math.max(a, this.liveFrom), b]);
    this.recomputeSaved();
    this.repriceTruncated();
    this.carriedFiles = op.restoredFiles;
    this.previousSummaryTokens = op.summaryTokens;
    this.adoptedReal = -1;
    this.carriedTokens = 0;
    return { frozenTokens: frozen };
  }

  private recomputeSaved(): void {
    const { pos } = this.prepared.clearables;
    let saved = 0;
    for (let i = lowerBound(pos, this.liveFrom); i < pos.length; i++)
      if (this.replaced[i]) saved += this.savedOf(i);
    this.savedTokens = saved;
  }
}

/** The log's own history, to price the difference: positions [from, …) less what real microcompacts cleared. */
export class LoggedHistory {
  from = 0;
  savedTokens = 0;
  /** Ranges [from, to) the log's truncations dropped (Cline's deleted range, cumulative). */
  truncated: [number, number][] = [];
  private truncatedTokens = 0;
  /** What the log's context holds that no record does (`RealCompactionInfo.unloggedTokens`). */
  private unloggedTokens = 0;

  constructor(private readonly prepared: PreparedReplay) {}

  /** The log's context when the next call starts at `pos` (its system prompt and tools included). */
  contextBefore(pos: number): TokenCount {
    const { prefixAll, baseTokens } = this.prepared;
    const t =
      baseTokens +
      prefixAll[pos]! -
      prefixAll[this.from]! -
      this.savedTokens -
      this.truncatedTokens -
      getUsageFallTokens(this.prepared, this.from, pos);
    return this.unloggedTokens === 0 ? t : t + this.unloggedTokens;
  }

  /** A real compaction: the log's history restarts at its boundary, with what it holds unlogged. */
  compact(boundaryPos: number, unloggedTokens = 0): void {
    this.from = boundaryPos;
    this.savedTokens = 0;
    this.truncated = [];
    this.truncatedTokens = 0;
    this.unloggedTokens = unloggedTokens;
  }

  /** What a real event left in the context that no record holds (added from then on). */
  addUnlogged(tokens: TokenCount): void {
    this.unloggedTokens += tokens;
  }

  /** A real truncation dropping [from, to) (merged with the ranges already dropped), and what it left unlogged. */
  truncate(from: number, to: number, unloggedTokens = 0): void {
    this.unloggedTokens += unloggedTokens;
    const { prefixAll } = this.prepared;
    let [a, b] = [Math.max(from, this.from), to];
    if (b <= a) return;
    const merged: [number, number][] = [];
    for (const [x, y] of this.truncated) {
      if (y < a || x > b) merged.push([x, y]);
      else [a, b] = [Math.min(a, x), Math.max(b, y)];
    }
    merged.push([a, b]);
    merged.sort((p, q) => p[0] - q[0]);
    this.truncated = merged;
    this.truncatedTokens = 0;
    for (const [x, y] of merged) this.truncatedTokens += prefixAll[y]! - prefixAll[x]!;
  }

  /** A real microcompact clearing these items. */
  clear(items: readonly number[]): void {
    const { clearables } = this.prepared;
    for (const i of items)
      if (clearables.pos[i]! >= this.from)
        this.savedTokens += Math.max(0, clearables.tokens[i]! - PLACEHOLDER_TOKENS);
  }
}
