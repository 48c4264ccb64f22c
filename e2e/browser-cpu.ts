import fs from 'node:fs';

// The browser's CPU time, read from /proc (Linux): what tells a Cancel that stopped the work from
// one that only changed the words (cancel-stops.spec.ts, custom-strategy.spec.ts).

/** CPU time (ms) of this test worker's descendant processes: the browser it launched. */
export function browserCpuMs(): number {
  const children = new Map<number, number[]>();
  const cpu = new Map<number, number>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const parent = Number(fields[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
      // utime + stime, in clock ticks (100 a second on Linux).
      cpu.set(Number(name), (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      // A process that ended while the table was read.
    }
  }
  let total = 0;
  const stack = [process.pid];
  while (stack.length > 0) {
    for (const child of children.get(stack.pop()!) ?? []) {
      total += cpu.get(child) ?? 0;
      stack.push(child);
    }
  }
  return total;
}

/** Ours: a third of one core over the window; a busy worker uses all of one. */
export const QUIET_CPU_MS = 1000;

/**
 * Waits 3 s and until the browser has used `QUIET_CPU_MS` of CPU, as a busy worker does in 3 s on
 * an idle machine; on a loaded one (a CI run beside other jobs) it takes longer. Returns the wall time it
 * took (3 s at least): `cpuOver` that long tells a stopped worker from one still spinning under
 * the same load.
 */
export async function waitBusy(wait: (ms: number) => Promise<void>): Promise<number> {
  const start = Date.now();
  const c0 = browserCpuMs();
  while (Date.now() - start < 3_000 || browserCpuMs() - c0 <= QUIET_CPU_MS) {
    if (Date.now() - start > 30_000) throw new Error('the browser never kept a core busy (30 s)');
    await wait(250);
  }
  return Date.now() - start;
}

/** The browser's CPU time over `ms` of wall time. */
export async function cpuOver(ms: number, wait: (ms: number) => Promise<void>): Promise<number> {
  const c0 = browserCpuMs();
  await wait(ms);
  return browserCpuMs() - c0;
}
