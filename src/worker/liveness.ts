// Whether a worker is still alive, told from its answers to pings (engine-client.ts, scan-pool.ts):
// a ping unanswered for the deadline means it is dead, any message counting as an answer. The
// silence is measured from the oldest unanswered ping, over the time the page itself was running:
// a check that runs later than its interval (the page's thread blocked by a long task, throttled in
// a background tab, starved on a loaded machine) may come before the answer queued behind it, so
// the check's own lateness is not counted as the worker's silence. A 100 ms test deadline with
// in-process ports failed once that way on a loaded 2-core machine.

interface SilenceWatch {
  /** A message came from the worker: no ping is out. */
  heard(): void;
  /** Nothing is out (the watch stops): the next check starts afresh. */
  reset(): void;
  /** One tick of the watch's interval: `ping` to send one, `dead` when the silence passed the deadline. */
  check(): 'ping' | 'dead' | undefined;
}

export function createSilenceWatch(intervalMs: number, deadlineMs: number): SilenceWatch {
  /** When the oldest unanswered ping was sent, moved on by the page's own stalls (undefined: none out). */
  let pingSentAt: number | undefined;
  /** When the last check ran. */
  let checkedAt: number | undefined;
  return {
    heard() {
      pingSentAt = undefined;
    },
    reset() {
      pingSentAt = undefined;
      checkedAt = undefined;
    },
    check() {
      const now = performance.now();
      const stalled = checkedAt === undefined ? 0 : Math.max(0, now - checkedAt - intervalMs);
      checkedAt = now;
      if (pingSentAt === undefined) {
        pingSentAt = now;
        return 'ping';
      }
      pingSentAt += stalled;
      return now - pingSentAt > deadlineMs ? 'dead' : undefined;
    },
  };
}
