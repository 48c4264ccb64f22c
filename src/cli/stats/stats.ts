import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { PRICES_SEEN } from '../../engine/cost/prices-seen';
import { getSweepValues } from '../../engine/replay/sweep';
import { getStrategy, STRATEGIES } from '../../engine/strategies/registry';
import { loadStrategyFile } from '../strategy-file';
import type { KnobValue } from '../../engine/strategies/types';
import { STATS_USAGE } from '../command-usage';
import { readPriceFile } from '../price-file';
import { parseSweepArg } from '../replay';
import { getKnobFlagOptions, getKnobOverrides } from '../replay-knobs';
import { formatCsvRecord, formatRecord, SETTING_COLUMNS, type SettingRow } from '../../engine/stats/records';
import { findSessions } from './find-sessions';
import {
  describeOutOfMemory,
  parseStrategyMemory,
  STRATEGY_MEMORY_OPTION,
  strategyResourceLimits,
} from '../strategy-thread';
import { SettingTotals, type SettingsSpec } from '../../engine/stats/setting-rows';
import { STATS_COLUMNS } from './stats-row';
import type { StatsAnswer, StatsJob } from './stats-worker';

// `compactlab stats <folder>…`: one row per session, parsed in a pool of worker threads and
// written as each finishes (completion order), as NDJSON (default) or CSV with a header row.
// With `--strategy`, every session replayed under that strategy at each setting, and the totals
// per setting (setting-rows.ts).

/** Below this many sessions the work stays in this thread (starting workers costs more). */
const MIN_SESSIONS_FOR_WORKERS = 4;

/** The worker's entry: the built chunk next to this one, or the TypeScript through tsx. */
function createStatsWorker(memoryMb?: number): Worker {
  const built = import.meta.url.endsWith('.mjs');
  return new Worker(
    new URL(built ? './stats-worker.mjs' : './stats-worker-from-source.mjs', import.meta.url),
    // A strategy file's code: under a heap limit (strategy-thread.ts).
    memoryMb !== undefined ? { resourceLimits: strategyResourceLimits(memoryMb) } : undefined,
  );
}

/** Runs the jobs over `workers` threads (or here, when 0), calling `onAnswer` as each finishes. */
async function runJobs(
  jobs: StatsJob[],
  workers: number,
  onAnswer: (answer: StatsAnswer) => void,
  memory?: { mb: number; file: string; id: string },
): Promise<void> {
  if (workers === 0 || jobs.length === 0) {
    const { runStatsJob } = await import('./stats-worker');
    for (const job of jobs) onAnswer(await runStatsJob(job));
    return;
  }
  let next = 0;
  const threads = Math.min(workers, jobs.length);
  await Promise.all(
    Array.from(
      { length: threads },
      () =>
        new Promise<void>((resolve, reject) => {
          // A thread stopped by its heap limit fails its session (named) and a fresh one goes on.
          const start = () => {
            const worker = createStatsWorker(memory?.mb);
            let job: StatsJob | undefined;
            const feed = () => {
              job = jobs[next++];
              if (job) worker.postMessage(job);
              else worker.terminate().then(() => resolve(), reject);
            };
            worker.on('message', (answer: StatsAnswer) => {
              job = undefined;
              onAnswer(answer);
              feed();
            });
            worker.on('error', (error: Error & { code?: string }) => {
              if (error.code !== 'ERR_WORKER_OUT_OF_MEMORY' || !memory || !job) return reject(error);
              const why = describeOutOfMemory([{ path: memory.file, id: memory.id }], memory.mb);
              onAnswer({ id: job.id, row: { file: job.file, error: why } });
              start();
            });
            feed();
          };
          start();
        }),
    ),
  );
}

/** Sessions done, on stderr: one updating line on a terminal, a line per tenth otherwise. */
function createProgress(total: number): { tick: () => void; end: () => void } {
  const tty = process.stderr.isTTY === true;
  let done = 0;
  let shownTenth = 0;
  return {
    tick() {
      done++;
      if (tty) process.stderr.write(`\rcompactlab stats: ${done}/${total} sessions`);
      else if (Math.floor((done * 10) / total) > shownTenth || done === total) {
        shownTenth = Math.floor((done * 10) / total);
        process.stderr.write(`compactlab stats: ${done}/${total} sessions\n`);
      }
    },
    end() {
      if (tty && total > 0) process.stderr.write('\n');
    },
  };
}

/** The strategy, overrides and sweep of `stats --strategy`; a string is the error. */
function parseSettings(
  args: string[],
  strategyId: string,
): { spec: SettingsSpec; parsed: ReturnType<typeof parseArgs> } | string {
  const strategy = (() => {
    try {
      return getStrategy(strategyId);
    } catch {
      return undefined;
    }
  })();
  if (!strategy) return `unknown strategy "${strategyId}" (known: ${STRATEGIES.map((s) => s.id).join(', ')})`;
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        ...STATS_OPTIONS,
        ...getKnobFlagOptions(strategy),
      },
    });
  } catch (error) {
    return `${(error as Error).message} (compactlab replay --strategy ${strategy.id} --help lists its knobs)`;
  }
  const knobs = getKnobOverrides(strategy, parsed.values as Record<string, unknown>);
  if ('error' in knobs) return knobs.error;
  const spec: SettingsSpec = {
    strategyId: strategy.id,
    overrides: knobs.overrides as Record<string, KnobValue>,
    retention: parsed.values.retention === true,
  };
  if (typeof parsed.values.prices === 'string') {
    const prices = readPriceFile(parsed.values.prices);
    if (typeof prices === 'string') return prices;
    spec.prices = prices;
  }
  const sweepArg = parsed.values.sweep;
  if (typeof sweepArg === 'string') {
    const range = parseSweepArg(sweepArg, strategy);
    if (typeof range === 'string') return `--sweep ${range}`;
    const knobSpec = strategy.knobSpecs.find((k) => k.key === range.knob)!;
    spec.sweep = { knob: range.knob, values: getSweepValues(knobSpec, range) };
  }
  return { spec, parsed };
}

const STATS_OPTIONS = {
  json: { type: 'boolean' },
  csv: { type: 'boolean' },
  jobs: { type: 'string' },
  strategy: { type: 'string' },
  'strategy-file': { type: 'string' },
  ...STRATEGY_MEMORY_OPTION,
  sweep: { type: 'string' },
  sessions: { type: 'boolean' },
  retention: { type: 'boolean' },
  prices: { type: 'string' },
} as const;

export async function statsCommand(args: string[], out: (text: string) => void): Promise<number> {
  const loose = parseArgs({ args, allowPositionals: true, strict: false, options: STATS_OPTIONS });
  let settings: SettingsSpec | undefined;
  let parsed: ReturnType<typeof parseArgs>;
  // A strategy file (docs/custom-strategies.md): loaded here to check it and read its knobs, and
  // by each worker thread from the same path.
  const file = loose.values['strategy-file'];
  let fileStrategyId: string | undefined;
  if (typeof file === 'string') {
    if (typeof loose.values.strategy === 'string') {
      process.stderr.write('compactlab stats: --strategy-file and --strategy: give one\n');
      return 2;
    }
    try {
      fileStrategyId = await loadStrategyFile(file);
    } catch (error) {
      process.stderr.write(`compactlab stats: ${(error as Error).message}\n`);
      return 2;
    }
  }
  const strategyArg = fileStrategyId ?? loose.values.strategy;
  if (typeof strategyArg === 'string') {
    const s = parseSettings(args, strategyArg);
    if (typeof s === 'string') {
      process.stderr.write(`compactlab stats: ${s}\n`);
      return 2;
    }
    settings = typeof file === 'string' ? { ...s.spec, strategyFile: resolve(file) } : s.spec;
    parsed = s.parsed;
  } else {
    try {
      parsed = parseArgs({ args, allowPositionals: true, options: STATS_OPTIONS });
    } catch (error) {
      process.stderr.write(`compactlab stats: ${(error as Error).message}\n`);
      return 2;
    }
    if (
      parsed.values.sweep !== undefined ||
      parsed.values.sessions ||
      parsed.values.retention ||
      parsed.values.prices
    ) {
      process.stderr.write(
        'compactlab stats: --sweep, --sessions, --retention and --prices need --strategy <id> or --strategy-file <file>\n',
      );
      return 2;
    }
  }
  const { positionals } = parsed;
  const values = parsed.values as { csv?: boolean; jobs?: string; sessions?: boolean };
  if (positionals.length === 0) {
    out(`Usage:\n${STATS_USAGE}`);
    return 2;
  }
  const csv = values.csv === true;
  let workers = values.jobs === undefined ? availableParallelism() : Number(values.jobs);
  if (!Number.isInteger(workers) || workers < 0) {
    process.stderr.write(`compactlab stats: --jobs expects a whole number, got "${values.jobs}"\n`);
    return 2;
  }
  const memoryMb = parseStrategyMemory(parsed.values['strategy-memory']);
  if (typeof memoryMb === 'string') {
    process.stderr.write(`compactlab stats: ${memoryMb}\n`);
    return 2;
  }
  const groups = await findSessions(positionals);
  if (values.jobs === undefined && groups.length < MIN_SESSIONS_FOR_WORKERS) workers = 0;
  // A strategy file's code runs in threads with a heap limit, however few the sessions.
  if (typeof file === 'string' && fileStrategyId !== undefined) workers = Math.max(workers, 1);
  const jobs: StatsJob[] = groups.map((g, id) => ({ id, file: g.file, paths: g.paths, settings }));
  const columns: readonly string[] = settings ? SETTING_COLUMNS : STATS_COLUMNS;
  if (csv) out(formatCsvRecord(columns));
  const totals = settings && new SettingTotals(settings, PRICES_SEEN);
  const progress = createProgress(jobs.length);
  let failed = 0;
  const memory =
    typeof file === 'string' && fileStrategyId !== undefined
      ? { mb: memoryMb, file: resolve(file), id: fileStrategyId }
      : undefined;
  await runJobs(
    jobs,
    workers,
    (answer) => {
      progress.tick();
      if (answer.row.error !== undefined) failed++;
      if (!totals) {
        out(formatRecord(columns, answer.row, csv));
        return;
      }
      if (answer.row.error !== undefined) {
        totals.addError();
        if (values.sessions)
          out(
            formatRecord(
              columns,
              { row: 'session', file: answer.row.file, errors: 1, error: answer.row.error },
              csv,
            ),
          );
        return;
      }
      const rows: SettingRow[] = answer.settingRows ?? [];
      totals.add(rows);
      if (values.sessions) for (const row of rows) out(formatRecord(columns, row, csv));
    },
    memory,
  );
  progress.end();
  if (totals) for (const row of totals.rows()) out(formatRecord(columns, row, csv));
  if (failed > 0)
    process.stderr.write(`compactlab stats: ${failed} of ${jobs.length} sessions could not be read\n`);
  if (jobs.length > 0) return 0;
  process.stderr.write(
    `compactlab stats: no session file found in ${positionals.join(', ')} (none of its files is an agent's transcript, grouped as the page's session library groups a folder)\n`,
  );
  return 1;
}
