import type { ParseProgress } from '../engine/parse/parse-options';

/**
 * A load's progress to the page: ours, at most one report per `PROGRESS_INTERVAL_MS` (the first at
 * once). The parse reports at each 4 MiB chunk, 26 times on the 105 MB bench file; each report
 * re-renders the load's preview and progress bar, and on a 2-core machine that work on the main
 * thread takes CPU from the parsing worker (bench/browser-load.ts: the main thread busy about
 * 560 ms of a 1.26 s parse, mostly handling those reports). Five a second still draw a growing
 * timeline and a moving bar.
 */
const PROGRESS_INTERVAL_MS = 200;

/** Two reports as one: the later's figures, the calls' contexts of both. */
export function mergeProgress(earlier: ParseProgress, later: ParseProgress): ParseProgress {
  const a = earlier.contexts;
  const b = later.contexts;
  if (!a || !b || b.from < a.from) return later;
  return {
    ...later,
    contexts: { from: a.from, tokens: a.tokens.slice(0, b.from - a.from).concat(b.tokens) },
  };
}

/**
 * `send`, throttled: a report within the interval of the last one sent waits, merged with any
 * later one, and is sent when the interval is up (or by `flush`; `drop` forgets it). `now` and
 * `schedule` are the clock and timer (tests give their own).
 */
export function throttleProgress(
  send: (progress: ParseProgress) => void,
  intervalMs = PROGRESS_INTERVAL_MS,
  now: () => number = () => performance.now(),
  schedule: (run: () => void, ms: number) => unknown = (run, ms) => setTimeout(run, ms),
): { report: (progress: ParseProgress) => void; flush: () => void; drop: () => void } {
  let lastSent = Number.NEGATIVE_INFINITY;
  let pending: ParseProgress | undefined;
  let timer = false;
  const flush = () => {
    timer = false;
    if (!pending) return;
    const progress = pending;
    pending = undefined;
    lastSent = now();
    send(progress);
  };
  const report = (progress: ParseProgress) => {
    pending = pending ? mergeProgress(pending, progress) : progress;
    const wait = lastSent + intervalMs - now();
    if (wait <= 0) flush();
    else if (!timer) {
      timer = true;
      schedule(flush, wait);
    }
  };
  // The load answered: a report still waiting would only arrive after its answer.
  const drop = () => {
    pending = undefined;
  };
  return { report, flush, drop };
}
