import { parentPort } from 'node:worker_threads';
import { openPathSources } from '../session-files';
import { computeStatsRow, type StatsRow } from './stats-row';

// A `compactlab stats` worker: receives one session's paths at a time, answers with its row.

export interface StatsJob {
  id: number;
  file: string;
  paths: string[];
}

export interface StatsAnswer {
  id: number;
  row: StatsRow;
}

/** The row of one job; a session that cannot be read becomes a row with its error. */
export async function runStatsJob(job: StatsJob): Promise<StatsAnswer> {
  try {
    return {
      id: job.id,
      row: await computeStatsRow(
        job.file,
        // An OpenCode database's session (`opencode.db#ses_…`) read from the database.
        await openPathSources(job.paths),
      ),
    };
  } catch (error) {
    return {
      id: job.id,
      row: { file: job.file, error: error instanceof Error ? error.message : String(error) },
    };
  }
}

parentPort?.on('message', async (job: StatsJob) => {
  parentPort?.postMessage(await runStatsJob(job));
});
