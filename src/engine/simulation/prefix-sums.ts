// Running sums over a replay's clearable items, for strategies that look at every live item at
// every call: kept up to date as items clear, so a call's question costs O(log n), not O(n).

/**
 * Sums over clearable items (a Fenwick tree): point updates, prefix sums and the prefix a sum
 * reaches, each in O(log n). Values are whole tokens, so the sums are exact in any order.
 */
export class PrefixSums {
  private readonly tree: Float64Array;
  constructor(private readonly n: number) {
    this.tree = new Float64Array(n + 1);
  }
  add(i: number, delta: number): void {
    for (let k = i + 1; k <= this.n; k += k & -k) this.tree[k]! += delta;
  }
  /** Sum of items [0, i). */
  prefix(i: number): number {
    let sum = 0;
    for (let k = i; k > 0; k -= k & -k) sum += this.tree[k]!;
    return sum;
  }
  /** The largest i with `prefix(i) < target` (values are ≥ 0). */
  countBelow(target: number): number {
    let at = 0;
    let rest = target;
    for (let step = 1 << Math.floor(Math.log2(Math.max(1, this.n))); step > 0; step >>= 1) {
      const next = at + step;
      if (next <= this.n && this.tree[next]! < rest) {
        at = next;
        rest -= this.tree[next]!;
      }
    }
    return at;
  }
}
