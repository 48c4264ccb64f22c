import type { UsageSession } from './usage';

// The listed sessions' buckets as the page sends them to the engine worker: numbers in one
// Float64Array and the strings in tables, not an object per bucket. A structured clone of 91,000
// bucket objects (10,000 sessions) took ~250 ms of the page's thread (bench/usage.ts); the packed
// form is a copy of one buffer.

/** Numbers per bucket: slot (NaN: none), model index, calls, input, output, cache read, cache write, cost, unpriced calls. */
const FIELDS = 9;

export interface PackedUsage {
  keys: string[];
  cwds: string[];
  models: string[];
  /** Buckets per session, in `keys`' order. */
  counts: Uint32Array;
  data: Float64Array;
}

export function packUsage(sessions: readonly UsageSession[]): PackedUsage {
  let total = 0;
  for (const s of sessions) total += s.buckets.length;
  const data = new Float64Array(total * FIELDS);
  const counts = new Uint32Array(sessions.length);
  const modelIndex = new Map<string, number>();
  let at = 0;
  sessions.forEach((s, i) => {
    counts[i] = s.buckets.length;
    for (const b of s.buckets) {
      let m = modelIndex.get(b.model);
      if (m === undefined) {
        m = modelIndex.size;
        modelIndex.set(b.model, m);
      }
      data[at] = b.slot ?? Number.NaN;
      data[at + 1] = m;
      data[at + 2] = b.calls;
      data[at + 3] = b.input;
      data[at + 4] = b.output;
      data[at + 5] = b.cacheRead;
      data[at + 6] = b.cacheWrite;
      data[at + 7] = b.costUsd;
      data[at + 8] = b.unpricedCalls;
      at += FIELDS;
    }
  });
  return {
    keys: sessions.map((s) => s.key),
    cwds: sessions.map((s) => s.cwd),
    models: [...modelIndex.keys()],
    counts,
    data,
  };
}

export function unpackUsage(p: PackedUsage): UsageSession[] {
  let at = 0;
  return p.keys.map((key, i) => {
    const buckets: UsageSession['buckets'][number][] = [];
    for (let j = 0; j < (p.counts[i] ?? 0); j++, at += FIELDS) {
      const slot = p.data[at]!;
      buckets.push({
        slot: Number.isNaN(slot) ? undefined : slot,
        model: p.models[p.data[at + 1]!] ?? '',
        calls: p.data[at + 2]!,
        input: p.data[at + 3]!,
        output: p.data[at + 4]!,
        cacheRead: p.data[at + 5]!,
        cacheWrite: p.data[at + 6]!,
        costUsd: p.data[at + 7]!,
        unpricedCalls: p.data[at + 8]!,
      });
    }
    return { key, cwd: p.cwds[i] ?? '', buckets };
  });
}
