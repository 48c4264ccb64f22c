import type { LibraryRow } from '../engine/library/library-row';
import type { PriceOverrides } from '../engine/cost/prices';
import { createBlobSource } from './blob-source';
import { PING_INTERVAL_MS, SILENCE_DEADLINE_MS } from './engine-client';
import { createSilenceWatch } from './liveness';
import { expandDatabases, listDatabaseSessions } from './sqlite';
import type { ScanFile, ScanReply, ScanRequest } from './scan-protocol';

// A pool of scan workers sized to the machine: each takes the next session from the queue, so a
// big session does not hold up the small ones behind it. Rows come back one by one as they are
// ready. Cancel ends the workers (a scan holds nothing worth keeping). Where no worker can start,
// the same scan runs on the page, one session at a time.

/** Enough to keep a laptop's cores busy without starving the page's own thread. */
const MAX_WORKERS = 8;

interface ScanJob {
  key: string;
  files: ScanFile[];
}

interface ScanCallbacks {
  onRow: (key: string, row: LibraryRow) => void;
  onFailed: (key: string, message: string) => void;
  /** Bytes read so far over all jobs. */
  onProgress: (bytesRead: number) => void;
  prices?: PriceOverrides;
  signal: AbortSignal;
}

function getPoolSize(): number {
  const cores = typeof navigator === 'undefined' ? 2 : (navigator.hardwareConcurrency ?? 2);
  // One core stays with the page (scrolling the list while it fills).
  return Math.max(1, Math.min(MAX_WORKERS, cores - 1));
}

function startWorker(): Worker | undefined {
  try {
    return new Worker(new URL('./scan.worker.ts', import.meta.url), { type: 'module', name: 'scan' });
  } catch {
    return undefined;
  }
}

/** Scans every job; resolves when all are done, or when `signal` aborts (workers ended). */
export async function scanInPool(jobs: readonly ScanJob[], callbacks: ScanCallbacks): Promise<void> {
  const queue = [...jobs];
  let doneBytes = 0;
  const inFlightBytes = new Map<number, number>();
  const report = () => {
    let sum = doneBytes;
    for (const b of inFlightBytes.values()) sum += b;
    callbacks.onProgress(sum);
  };
  const sizeOf = (job: ScanJob) => job.files.reduce((s, f) => s + f.blob.size, 0);
  const workers: Worker[] = [];
  const size = Math.min(getPoolSize(), jobs.length);
  for (let i = 0; i < size; i++) {
    const w = startWorker();
    if (!w) break;
    workers.push(w);
  }
  if (workers.length === 0) return scanOnPage(queue, callbacks);

  let nextJobId = 1;
  /**
   * Each worker scans job after job; one that stops answering (killed, out of memory, stuck: no
   * error event then) is ended, its session listed as failed saying so, and a fresh worker takes
   * the rest of its queue. Liveness as the engine's (liveness.ts): a ping unanswered for the
   * deadline of the page's own running time, any message counting as an answer.
   */
  const runOn = (first: Worker): Promise<void> =>
    new Promise((resolve) => {
      let worker = first;
      const silence = createSilenceWatch(PING_INTERVAL_MS, SILENCE_DEADLINE_MS);
      let running: { jobId: number; job: ScanJob } | undefined;
      const timer = setInterval(() => {
        if (!running) return silence.reset();
        const verdict = silence.check();
        if (verdict === 'ping') worker.postMessage({ kind: 'ping' } satisfies ScanRequest);
        else if (verdict === 'dead') {
          const { jobId, job } = running;
          worker.terminate();
          const fresh = startWorker();
          finish(
            jobId,
            job,
            `the scan worker stopped answering (no sign of life for ${Math.round(SILENCE_DEADLINE_MS / 1000)} s: killed, out of memory or stuck)`,
          );
          if (!fresh) return stop();
          workers.push(fresh);
          worker = fresh;
          next();
        }
      }, PING_INTERVAL_MS);
      const stop = () => {
        clearInterval(timer);
        running = undefined;
        resolve();
      };
      const finish = (jobId: number, job: ScanJob, failed?: string) => {
        running = undefined;
        inFlightBytes.delete(jobId);
        doneBytes += sizeOf(job);
        if (failed !== undefined) callbacks.onFailed(job.key, failed);
        report();
      };
      const next = () => {
        silence.reset();
        const job = queue.shift();
        if (!job || callbacks.signal.aborted) return stop();
        const jobId = nextJobId++;
        running = { jobId, job };
        const request: ScanRequest = { kind: 'scan', jobId, files: job.files, prices: callbacks.prices };
        worker.onmessage = (event: MessageEvent<ScanReply>) => {
          silence.heard();
          const reply = event.data;
          if (reply.kind === 'pong' || reply.jobId !== jobId) return;
          if (reply.kind === 'progress') {
            inFlightBytes.set(jobId, reply.bytesRead);
            report();
            return;
          }
          if (reply.kind === 'row') callbacks.onRow(job.key, reply.row);
          finish(jobId, job, reply.kind === 'failed' ? reply.message : undefined);
          next();
        };
        worker.onerror = (event) => {
          event.preventDefault();
          finish(jobId, job, event.message || 'the scan worker stopped');
          next();
        };
        worker.postMessage(request);
      };
      callbacks.signal.addEventListener('abort', stop, { once: true });
      next();
    });

  try {
    await Promise.all(workers.map(runOn));
  } finally {
    for (const w of workers) w.terminate();
  }
}

async function scanOnPage(queue: ScanJob[], callbacks: ScanCallbacks): Promise<void> {
  // Loaded only here: the scan (the parser, every dialect) is the workers' code, not the page's.
  const { scanSession } = await import('../engine/library/scan-session');
  let doneBytes = 0;
  for (const job of queue) {
    if (callbacks.signal.aborted) return;
    try {
      const row = await scanSession(
        await expandDatabases(job.files.map((f) => createBlobSource(f.name, f.blob))),
        {
          signal: callbacks.signal,
          prices: callbacks.prices,
          onProgress: (read) => callbacks.onProgress(doneBytes + read),
        },
      );
      callbacks.onRow(job.key, row);
    } catch (error) {
      if (callbacks.signal.aborted) return;
      callbacks.onFailed(job.key, error instanceof Error ? error.message : String(error));
    }
    doneBytes += job.files.reduce((s, f) => s + f.blob.size, 0);
  }
}

/**
 * The sessions of an OpenCode database (with its log, when given) for the library's list: SQLite
 * and the reader load here, on the first database only.
 */
export function listDatabaseFileSessions(
  db: { name: string; blob: Blob },
  wal: { name: string; blob: Blob } | undefined,
): Promise<{ id: string; title: string; sizeBytes: number }[]> {
  return listDatabaseSessions(
    createBlobSource(db.name, db.blob),
    wal && createBlobSource(wal.name, wal.blob),
  );
}
