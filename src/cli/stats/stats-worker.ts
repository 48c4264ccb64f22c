import { parentPort } from 'node:worker_threads';
import { describeNothingRead, openPathSources } from '../session-files';
import { parseSession } from '../../engine/parse/parse-session';
import { loadStrategyFile } from '../strategy-file';
import type { PriceOverrides } from '../../engine/cost/prices';
import { scanSession } from '../../engine/library/scan-session';
import type { SettingRow } from '../../engine/stats/records';
import type { UsageSession } from '../../engine/stats/usage';
import { computeSettingRows, type SettingsModel, type SettingsSpec } from '../../engine/stats/setting-rows';
import { computeStatsRow, NotSessionError, type StatsRow } from './stats-row';

// A `compactlab stats` worker: receives one session's paths at a time, answers with its row (or,
// with `--strategy`, its rows per setting).

export interface StatsJob {
  id: number;
  file: string;
  paths: string[];
  /** Replay the session under this strategy and these settings (`stats --strategy`). */
  settings?: SettingsSpec;
  /** Scan the session as the library does, for its usage by day or project (`stats --by`). */
  usage?: { prices?: PriceOverrides };
}

export interface StatsAnswer {
  id: number;
  row: StatsRow;
  /** With `settings`: one row per setting (none for a session without API calls). */
  settingRows?: SettingRow[];
  /** With `usage`: the session's calls in buckets (engine/stats/usage.ts). */
  usage?: UsageSession;
  /** The file is an agent's but no session (LibraryRow.notSession): no row, said on stderr. */
  notSession?: string;
}

/**
 * The row of one job; a session that cannot be read becomes a row with its error. `model`: the
 * retention on a model's summaries (in this thread only: it holds the calls).
 */
export async function runStatsJob(job: StatsJob, model?: SettingsModel): Promise<StatsAnswer> {
  try {
    // A strategy file is compiled once per thread (loadStrategyFile keeps it by path).
    if (job.settings?.strategyFile !== undefined) await loadStrategyFile(job.settings.strategyFile);
    if (job.usage) {
      const row = await scanSession(await openPathSources(job.paths), { prices: job.usage.prices });
      return {
        id: job.id,
        row: { file: job.file },
        usage: { key: job.file, cwd: row.cwd ?? '', buckets: row.usage },
      };
    }
    if (job.settings) {
      const settingRows = await computeSettingRows(
        job.file,
        await openPathSources(job.paths),
        job.settings,
        undefined,
        model,
      );
      // No row: a session without API calls, or a file read as no transcript at all (binary data,
      // an empty file), which is an error as plain `stats` and `inspect` say it. Parsed again
      // only then, and such a file holds nothing to parse.
      if (settingRows.length === 0) {
        const session = await parseSession(await openPathSources(job.paths));
        if (session.entries.length === 0)
          return { id: job.id, row: { file: job.file, error: describeNothingRead(session) } };
      }
      return { id: job.id, row: { file: job.file }, settingRows };
    }
    return {
      id: job.id,
      row: await computeStatsRow(
        job.file,
        // An OpenCode database's session (`opencode.db#ses_…`) read from the database.
        await openPathSources(job.paths),
      ),
    };
  } catch (error) {
    if (error instanceof NotSessionError)
      return { id: job.id, row: { file: job.file }, notSession: error.what };
    return {
      id: job.id,
      row: { file: job.file, error: error instanceof Error ? error.message : String(error) },
    };
  }
}

parentPort?.on('message', async (job: StatsJob) => {
  parentPort?.postMessage(await runStatsJob(job));
});
