import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { STATS_USAGE } from '../command-usage';
import { formatCsvRecord } from './csv';
import { findSessions } from './find-sessions';
import { STATS_COLUMNS, type StatsRow } from './stats-row';
import type { StatsAnswer, StatsJob } from './stats-worker';

// `compactlab stats <folder>…`: one row per session, parsed in a pool of worker threads and
// written as each finishes (completion order), as NDJSON (default) or CSV with a header row.

/** The worker's entry: the built chunk next to this one, or the TypeScript through tsx. */
function createStatsWorker(): Worker {
  const built = import.meta.url.endsWith('.mjs');
  return new Worker(
    new URL(built ? './stats-worker.mjs' : './stats-worker-from-source.mjs', import.meta.url),
  );
}

/** Runs the jobs over `workers` threads (or here, when 0), calling `onRow` as each finishes. */
async function runJobs(jobs: StatsJob[], workers: number, onRow: (row: StatsRow) => void): Promise<void> {
  if (workers === 0 || jobs.length === 0) {
    const { runStatsJob } = await import('./stats-worker');
    for (const job of jobs) onRow((await runStatsJob(job)).row);
    return;
  }
  let next = 0;
  const pool = Array.from({ length: Math.min(workers, jobs.length) }, createStatsWorker);
  await Promise.all(
    pool.map(
      (worker) =>
        new Promise<void>((resolve, reject) => {
          const feed = () => {
            const job = jobs[next++];
            if (job) worker.postMessage(job);
            else worker.terminate().then(() => resolve(), reject);
          };
          worker.on('message', (answer: StatsAnswer) => {
            onRow(answer.row);
            feed();
          });
          worker.on('error', reject);
          feed();
        }),
    ),
  );
}

export async function statsCommand(args: string[], out: (text: string) => void): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { json: { type: 'boolean' }, csv: { type: 'boolean' }, jobs: { type: 'string' } },
  });
  if (positionals.length === 0) {
    out(`Usage:\n${STATS_USAGE}`);
    return 2;
  }
  const workers = values.jobs === undefined ? availableParallelism() : Number(values.jobs);
  if (!Number.isInteger(workers) || workers < 0) {
    process.stderr.write(`compactlab stats: --jobs expects a whole number, got "${values.jobs}"\n`);
    return 2;
  }
  const groups = await findSessions(positionals);
  const jobs: StatsJob[] = groups.map((g, id) => ({ id, file: g.file, paths: g.paths }));
  if (values.csv) out(formatCsvRecord(STATS_COLUMNS));
  let failed = 0;
  await runJobs(jobs, workers, (row) => {
    if (row.error !== undefined) failed++;
    const cells = STATS_COLUMNS.map((c) => row[c]);
    out(
      values.csv
        ? formatCsvRecord(cells)
        : // Keys in column order, absent ones left out, so NDJSON and CSV read alike.
          JSON.stringify(
            Object.fromEntries(
              STATS_COLUMNS.flatMap((c, i) => (cells[i] === undefined ? [] : [[c, cells[i]]])),
            ),
          ),
    );
  });
  if (failed > 0)
    process.stderr.write(`compactlab stats: ${failed} of ${jobs.length} sessions could not be read\n`);
  if (jobs.length > 0) return 0;
  process.stderr.write(
    `compactlab stats: no session file found in ${positionals.join(', ')} (none of its files is an agent's transcript, grouped as the page's session library groups a folder)\n`,
  );
  return 1;
}
