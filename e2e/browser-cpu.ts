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
