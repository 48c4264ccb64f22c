import { isMainThread, type ResourceLimits, Worker } from 'node:worker_threads';
import { basename, resolve } from 'node:path';

// A strategy file's code runs in a worker thread with a heap limit (`resourceLimits`), so that a
// strategy that allocates without end stops that thread, not the process: the command says which
// strategy and which limit, and exits (replay) or goes on with the next session (stats). The
// replay calls the strategy synchronously after every API call, with a view whose methods read the
// simulated history; a thread of the strategy's own would need a synchronous round trip per call
// and per view method, and a thread that dies while the caller waits cannot tell it so. So the
// whole replay that names a file runs in the thread (the session's parse and replay share the
// limit with the strategy's code); the time limit (strategy-file.ts) stays, inside the thread.

/**
 * Ours: the heap (V8's old generation) a replay that runs a strategy file may use. Parsing a
 * 105 MB transcript leaves 145 MB of heap (docs/benchmarks.md); 2 GB holds sessions many times
 * that, and stops a runaway strategy before it takes the machine. `--strategy-memory <MB>` sets it.
 */
export const DEFAULT_STRATEGY_MEMORY_MB = 2_048;
/** Ours: below this V8 cannot start the thread's own code reliably. */
const MIN_STRATEGY_MEMORY_MB = 16;

export const STRATEGY_MEMORY_OPTION = { 'strategy-memory': { type: 'string' } } as const;

/** `--strategy-memory <MB>`: the limit, or the error. */
export function parseStrategyMemory(value: unknown): number | string {
  if (value === undefined) return DEFAULT_STRATEGY_MEMORY_MB;
  const mb = Number(value);
  if (typeof value !== 'string' || !Number.isInteger(mb) || mb < MIN_STRATEGY_MEMORY_MB)
    return `--strategy-memory expects a whole number of MB, at least ${MIN_STRATEGY_MEMORY_MB}, got "${String(value)}"`;
  return mb;
}

export function strategyResourceLimits(mb: number): ResourceLimits {
  return { maxOldGenerationSizeMb: mb };
}

/** Whether this thread is the one that starts strategy threads (not one of them). */
export const canStartStrategyThread = (): boolean => isMainThread;

/** What a thread stopped for lack of memory says. */
export function describeOutOfMemory(files: { path: string; id?: string }[], mb: number): string {
  const names = files
    .map((f) => `${basename(f.path)}${f.id !== undefined ? ` (strategy "${f.id}")` : ''}`)
    .join(', ');
  return `${names}: stopped: the replay ran out of its memory limit (${mb.toLocaleString('en-US')} MB of heap; ours, --strategy-memory <MB> sets it). A strategy that keeps what it allocates on every call? A session too large for the limit needs a higher one.`;
}

function createWorker(name: string, data: unknown, mb: number): Worker {
  // The built chunk next to this one, or the TypeScript through tsx (as the stats worker).
  const built = import.meta.url.endsWith('.mjs');
  return new Worker(new URL(built ? `./${name}.mjs` : `./${name}-from-source.mjs`, import.meta.url), {
    workerData: data,
    resourceLimits: strategyResourceLimits(mb),
  });
}

/** Messages of the replay thread (strategy-worker.ts). */
export type StrategyThreadMessage =
  | { out: string }
  | { err: string }
  | { loaded: { path: string; id: string } }
  | { code: number };

/**
 * Runs `compactlab <command> <args>` in a strategy thread at `mb` MB of heap: its output goes to
 * `out`, its errors to stderr; the exit code is the command's, 1 when the thread died.
 */
export function runCommandInStrategyThread(
  command: 'replay',
  args: string[],
  out: (text: string) => void,
  mb: number,
  files: string[],
): Promise<number> {
  const worker = createWorker('strategy-worker', { command, args }, mb);
  files = files.map((f) => resolve(f));
  const loaded = new Map<string, string>();
  let code: number | undefined;
  let failure: string | undefined;
  return new Promise<number>((resolve) => {
    worker.on('message', (m: StrategyThreadMessage) => {
      if ('out' in m) out(m.out);
      else if ('err' in m) process.stderr.write(m.err);
      else if ('loaded' in m) loaded.set(m.loaded.path, m.loaded.id);
      else code = m.code;
    });
    worker.on('error', (error: Error & { code?: string }) => {
      const named = files.map((path) => ({ path, id: loaded.get(path) }));
      failure =
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? describeOutOfMemory(named, mb)
          : `the replay's thread failed: ${error.message}`;
    });
    worker.on('exit', () => {
      if (failure !== undefined) process.stderr.write(`compactlab ${command}: ${failure}\n`);
      resolve(code ?? 1);
    });
  });
}
