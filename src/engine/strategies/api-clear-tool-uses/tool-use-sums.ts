import { PrefixSums } from '../../simulation/prefix-sums';
import type { PreparedReplay } from '../../simulation/prepared';
import { lowerBound } from '../../simulation/search';
import type { TokenCount } from '../../types';
import type { ReplayView } from '../types';

// `clear_tool_uses`' choice at one call (index.ts `selectToolUses`) kept in sums over the call
// order: the results whose use is in the live history and whose result has arrived (before the
// boundary), all but the newest `keep` of them, their estimates and those not cleared yet. The
// per-call scan of every live result made a 40k-call replay take 24 s (20k calls 2.9 s, 10k
// 0.8 s). A run's calls come in order, so results arrive once, as the boundary passes them.

export class ToolUseSums {
  /** 1 for each eligible result that has arrived, by call-order rank. */
  private readonly arrived: PrefixSums;
  /** Their estimates. */
  private readonly estimates: PrefixSums;
  /** 1 for each of them not cleared yet. */
  private readonly uncleared: PrefixSums;
  private readonly rankOf: Int32Array;
  private readonly counted: Uint8Array;
  /** Items below this index (position order) have been looked at for arrival. */
  private nextArrival = 0;
  private lastBoundary = -1;
  /** How much of `clearedOrder` has been read. */
  private seen = 0;

  constructor(
    private readonly prepared: PreparedReplay,
    private readonly eligible: Uint8Array,
  ) {
    const { order } = prepared.clearables;
    const n = order.length;
    this.arrived = new PrefixSums(n);
    this.estimates = new PrefixSums(n);
    this.uncleared = new PrefixSums(n);
    this.rankOf = new Int32Array(n);
    for (let r = 0; r < n; r++) this.rankOf[order[r]!] = r;
    this.counted = new Uint8Array(n);
  }

  /**
   * The clearable results' total estimate and the ones not cleared yet (in item order), or
   * undefined when the view goes back in the session (a probe's view: the caller scans instead).
   * `want` is asked with the total before the items are listed: listing only what is cleared next
   * keeps the run linear.
   */
  select(
    view: ReplayView,
    keep: number,
    want: (total: TokenCount, uncleared: number) => boolean,
  ): { items: number[]; total: TokenCount } | 'back' {
    if (view.boundaryPos < this.lastBoundary) return 'back';
    this.lastBoundary = view.boundaryPos;
    const { pos, orderKey, estimate } = this.prepared.clearables;
    for (; this.nextArrival < pos.length && pos[this.nextArrival]! < view.boundaryPos; this.nextArrival++) {
      const i = this.nextArrival;
      if (!this.eligible[i]) continue;
      const r = this.rankOf[i]!;
      this.arrived.add(r, 1);
      this.estimates.add(r, estimate[i]!);
      this.uncleared.add(r, view.isCleared(i) ? 0 : 1);
      this.counted[i] = view.isCleared(i) ? 0 : 1;
    }
    const cleared = view.clearedOrder;
    for (; this.seen < cleared.length; this.seen++) {
      const i = cleared[this.seen]!;
      if (!this.counted[i]) continue;
      this.counted[i] = 0;
      this.uncleared.add(this.rankOf[i]!, -1);
    }
    // Results cleared before they arrived were taken as cleared when they arrived.
    const firstRank = lowerBound(orderKey, view.liveFromPos);
    const endRank = lowerBound(orderKey, view.boundaryPos);
    const before = this.arrived.prefix(firstRank);
    const live = this.arrived.prefix(endRank) - before;
    const clearable = Math.max(0, live - keep);
    if (clearable === 0) return { items: [], total: 0 };
    // One past the rank of the last clearable result.
    const end = this.arrived.countBelow(before + clearable) + 1;
    const total = this.estimates.prefix(end) - this.estimates.prefix(firstRank);
    const unclearedBefore = this.uncleared.prefix(firstRank);
    const count = this.uncleared.prefix(end) - unclearedBefore;
    if (!want(total, count)) return { items: [], total };
    const { order } = this.prepared.clearables;
    const items: number[] = [];
    for (let k = 1; k <= count; k++) items.push(order[this.uncleared.countBelow(unclearedBefore + k)]!);
    return { items: items.sort((a, b) => a - b), total };
  }
}
