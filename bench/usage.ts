// The library's usage grouping (engine/stats/usage.ts) over a big library, as the Usage panel
// asks the engine worker for it: the buckets of generated real-shaped sessions (their rows, as
// the scan makes them) repeated to N sessions spread over a year, grouped by day and by project,
// and the structured clone the request costs the page:
//   node bin/run-ts.mjs bench/usage.ts [sessions, default 10000]
// CPU time, best of 3. Goal (ours): the page's part (pack and clone) under 50 ms for 10,000
// sessions (a long task), the worker's under 200 ms, so no progress is needed.

import { scanSession } from '../src/engine/library/scan-session';
import { createMemorySource } from '../src/engine/parse/source';
import { groupUsage, type UsageSession } from '../src/engine/stats/usage';
import { packUsage, unpackUsage } from '../src/engine/stats/usage-pack';
import { generateSession } from '../sample/generate-session';

const N = Number(process.argv[2] ?? 10_000);
const DISTINCT = 8;
const SLOTS_PER_DAY = 96;

const seeds: UsageSession[] = [];
for (let i = 0; i < DISTINCT; i++) {
  const g = generateSession({ seed: 700 + i, apiCalls: 100 + 60 * i });
  const row = await scanSession(g.files.map((f) => createMemorySource(f.name, f.text)));
  seeds.push({ key: `seed${i}`, cwd: row.cwd ?? '', buckets: row.usage });
}
const sessions: UsageSession[] = Array.from({ length: N }, (_, i) => {
  const seed = seeds[i % DISTINCT]!;
  const shift = (i % 365) * SLOTS_PER_DAY + (i % 7);
  return {
    key: `s${i}`,
    cwd: `/home/ada/p${i % 40}`,
    buckets: seed.buckets.map((b) => ({ ...b, slot: b.slot === undefined ? undefined : b.slot + shift })),
  };
});
const buckets = sessions.reduce((s, x) => s + x.buckets.length, 0);

const cpuMs = (f: () => void): number => {
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < 3; r++) {
    const t0 = process.cpuUsage();
    f();
    const d = process.cpuUsage(t0);
    best = Math.min(best, (d.user + d.system) / 1000);
  }
  return best;
};
const clone = cpuMs(() => structuredClone(sessions));
const packed = cpuMs(() => structuredClone(packUsage(sessions)));
const unpack = cpuMs(() => unpackUsage(packUsage(sessions)));
const byDay = cpuMs(() => groupUsage(sessions, 'day', 'Europe/Paris'));
const byProject = cpuMs(() => groupUsage(sessions, 'project', 'Europe/Paris'));
console.log(
  JSON.stringify({
    sessions: N,
    buckets,
    cloneMs: Math.round(clone),
    packAndCloneMs: Math.round(packed),
    packAndUnpackMs: Math.round(unpack),
    byDayMs: Math.round(byDay),
    byProjectMs: Math.round(byProject),
  }),
);
