import { describe, expect, it } from 'vitest';
import { breakCycles } from '../../src/engine/parse/branches';
import { cpuMs } from '../helpers/cpu-time';

/** The former check: walk up from every node with a budget; a node that reaches itself loses its link. */
function breakCyclesByWalking(parent: Int32Array): void {
  for (let i = 0; i < parent.length; i++) {
    let x = parent[i]!;
    let steps = 0;
    while (x >= 0 && steps <= parent.length) {
      if (x === i) {
        parent[i] = -1;
        break;
      }
      x = parent[x]!;
      steps++;
    }
  }
}

/** Deterministic pseudo-random parents (−1 for a root), so a failure reproduces. */
function randomParents(n: number, seed: number): Int32Array {
  let state = seed;
  const next = (): number => {
    state = (state * 1103515245 + 12345) >>> 0;
    return state / 2 ** 32;
  };
  const parent = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const r = next();
    // Mostly backward links (a tree), some roots, some forward links that can close cycles.
    parent[i] = r < 0.1 ? -1 : r < 0.8 ? Math.floor(next() * Math.max(1, i)) : Math.floor(next() * n);
  }
  return parent;
}

describe('breakCycles', () => {
  it('cuts a cycle at its lowest-index node and leaves chains into it alone', () => {
    // 0 → 3 → 2 → 1 → 3 (cycle 1-2-3), 4 → 0, 5 → -1
    const parent = Int32Array.from([3, 3, 1, 2, 0, -1]);
    breakCycles(parent);
    expect([...parent]).toEqual([3, -1, 1, 2, 0, -1]);
  });

  it('cuts a self-loop', () => {
    const parent = Int32Array.from([-1, 1, 1]);
    breakCycles(parent);
    expect([...parent]).toEqual([-1, -1, 1]);
  });

  it('agrees with walking up from every node on random graphs', () => {
    let cut = 0;
    for (let seed = 1; seed <= 200; seed++) {
      const n = 1 + (seed % 40);
      const expected = randomParents(n, seed);
      const before = expected.slice();
      breakCyclesByWalking(expected);
      const actual = before.slice();
      breakCycles(actual);
      expect([...actual], `seed ${seed}`).toEqual([...expected]);
      cut += expected.filter((p, i) => p !== before[i]).length;
    }
    // The generator must produce cycles for the comparison to mean anything.
    expect(cut).toBeGreaterThan(20);
  });

  it('is linear on a 200k-entry chain', () => {
    const n = 200_000;
    const parent = Int32Array.from({ length: n }, (_, i) => i - 1);
    parent[0] = n - 1; // one cycle through every node
    // The quadratic walk takes minutes here; 2 s of CPU time is generous.
    expect(cpuMs(() => breakCycles(parent), 1)).toBeLessThan(2000);
    expect(parent[0]).toBe(-1);
    expect(parent[n - 1]).toBe(n - 2);
  });
});
