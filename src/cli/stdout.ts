import { writeSync } from 'node:fs';

// A command's output, written straight to file descriptor 1. Not `process.stdout`: its first use
// loads Node's stream modules (~4% of a 1 MB `inspect`, docs/benchmarks.md#cli-start), and a reader
// that stops early (`compactlab inspect big.jsonl --json | head -c 100`) made it throw EPIPE as an
// unhandled 'error' event, a Node stack trace on stderr and exit 1.

/** One wait, in ms, before writing again to a descriptor that is full and non-blocking (ours). */
const FULL_WAIT_MS = 1;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

/**
 * Writes `text` and a newline to standard output, all of it, before it returns. A reader that has
 * closed the pipe ends the run quietly, as `cat` and `rg` do: nothing more can reach it. A
 * non-blocking descriptor that is full (EAGAIN, one a parent left non-blocking) is waited for.
 */
export function writeOutLine(text: string): void {
  const bytes = Buffer.from(`${text}\n`);
  let at = 0;
  while (at < bytes.length) {
    try {
      at += writeSync(1, bytes, at, bytes.length - at);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') Atomics.wait(sleeper, 0, 0, FULL_WAIT_MS);
      else if (code === 'EPIPE') process.exit(process.exitCode ?? 0);
      else throw error;
    }
  }
}
