// Time checks measure CPU time (this process's user + system), not wall time: other jobs on a
// shared 2-core machine stretch the wall clock, not the CPU a run uses (each test file runs in a
// process of its own pool, one file at a time). Linearity checks compare two sizes' best of a
// few runs; a bound is a hang detector, far above what the work takes.

/** CPU time (ms) `run` used, the best of `runs`. */
export function cpuMs(run: () => unknown, runs = 3): number {
  let best = Number.POSITIVE_INFINITY;
  for (let k = 0; k < runs; k++) {
    const start = process.cpuUsage();
    run();
    const used = process.cpuUsage(start);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return best;
}

/** CPU time (ms) an asynchronous `run` used, the best of `runs`. */
export async function cpuMsAsync(run: () => Promise<unknown>, runs = 3): Promise<number> {
  let best = Number.POSITIVE_INFINITY;
  for (let k = 0; k < runs; k++) {
    const start = process.cpuUsage();
    await run();
    const used = process.cpuUsage(start);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return best;
}
