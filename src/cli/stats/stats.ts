import { escapeTerminalText } from '../terminal-text';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from '../cli-args';
import { Worker } from 'node:worker_threads';
import { PRICES_SEEN } from '../../engine/cost/prices-seen';
import { getSweepValues } from '../../engine/replay/sweep';
import { getStrategy, STRATEGIES } from '../../engine/strategies/registry';
import { loadStrategyFile } from '../strategy-file';
import type { KnobValue } from '../../engine/strategies/types';
import { STATS_USAGE } from '../command-usage';
import { readPriceFile } from '../price-file';
import { parseSweepArg } from '../replay-args';
import { getKnobFlagOptions, getKnobOverrides } from '../replay-knobs';
import { formatCsvRecord, formatRecord, SETTING_COLUMNS, type SettingRow } from '../../engine/stats/records';
import { findSessions } from './find-sessions';
import { findSessionNamesFiles, nameStatsRow } from './session-names';
import {
  describeOutOfMemory,
  parseStrategyMemory,
  STRATEGY_MEMORY_OPTION,
  strategyResourceLimits,
} from '../strategy-thread';
import { type SettingsModel, SettingTotals, type SettingsSpec } from '../../engine/stats/setting-rows';
import {
  createPlanModel,
  createRunModel,
  describePlan,
  type ModelPlan,
  parseModelRetention,
} from './model-retention';
import { STATS_COLUMNS } from './stats-row';
import type { PriceOverrides } from '../../engine/cost/prices';
import { createSlotDater, getLocalTimeZone, groupUsage, type UsageSession } from '../../engine/stats/usage';
import { formatUsageRows } from './usage-rows';
import { createProgress } from '../progress';
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
  model?: SettingsModel,
  memory?: { mb: number; file: string; id: string },
): Promise<void> {
  if (workers === 0 || jobs.length === 0 || model) {
    const { runStatsJob } = await import('./stats-worker');
    for (const job of jobs) onAnswer(await runStatsJob(job, model));
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

/** The strategy, overrides and sweep of `stats --strategy`; a string is the error. */
function parseSettings(
  args: string[],
  strategyId: string,
  strategyFile?: string,
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
    parsed = parseArgs(
      {
        args,
        allowPositionals: true,
        options: {
          ...STATS_OPTIONS,
          ...getKnobFlagOptions(strategy),
        },
      },
      OUTPUTS,
    );
  } catch (error) {
    // A file's strategy is named by its file: its id means nothing to another run.
    const named =
      strategyFile === undefined ? `--strategy ${strategy.id}` : `--strategy-file ${strategyFile}`;
    return `${(error as Error).message} (compactlab replay ${named} --help lists its knobs)`;
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
  by: { type: 'string' },
  tz: { type: 'string' },
  table: { type: 'boolean' },
  'retention-summarizer': { type: 'string' },
  'retention-model': { type: 'string' },
  'base-url': { type: 'string' },
  'summary-cache': { type: 'string' },
  yes: { type: 'boolean' },
} as const;

/** One output format: NDJSON (`--json`, the default), CSV, or `--by`'s table. */
const OUTPUTS = { exclusive: [['json', 'csv', 'table']] } as const;

/**
 * `stats --by day|project`: every session scanned as the page's library scans it, its calls
 * grouped by local day (in `--tz`, default this machine's zone) or by working directory
 * (engine/stats/usage.ts), then printed with a total.
 */
async function statsByCommand(
  parsed: ReturnType<typeof parseArgs>,
  out: (text: string) => void,
): Promise<number> {
  const values = parsed.values as {
    by?: string;
    tz?: string;
    csv?: boolean;
    table?: boolean;
    jobs?: string;
    prices?: string;
  };
  const by = values.by;
  if (by !== 'day' && by !== 'project') {
    process.stderr.write(`compactlab stats: --by expects day or project, got "${by}"\n`);
    return 2;
  }
  const timeZone = values.tz ?? getLocalTimeZone();
  try {
    createSlotDater(timeZone);
  } catch (error) {
    process.stderr.write(`compactlab stats: --tz: ${(error as Error).message}\n`);
    return 2;
  }
  let prices: PriceOverrides | undefined;
  if (typeof values.prices === 'string') {
    const read = readPriceFile(values.prices);
    if (typeof read === 'string') {
      process.stderr.write(`compactlab stats: ${read}\n`);
      return 2;
    }
    prices = read;
  }
  let workers = values.jobs === undefined ? availableParallelism() : Number(values.jobs);
  if (!Number.isInteger(workers) || workers < 0) {
    process.stderr.write(`compactlab stats: --jobs expects a whole number, got "${values.jobs}"\n`);
    return 2;
  }
  const groups = await findSessions(parsed.positionals);
  if (values.jobs === undefined && groups.length < MIN_SESSIONS_FOR_WORKERS) workers = 0;
  const sessions: UsageSession[] = [];
  const progress = createProgress('stats', groups.length, { plainLines: true });
  let failed = 0;
  await runJobs(
    groups.map((g, id) => ({ id, file: g.file, paths: g.paths, usage: { prices } })),
    workers,
    (answer) => {
      if (answer.usage) sessions.push(answer.usage);
      else {
        failed++;
        progress.clear();
        process.stderr.write(
          `compactlab stats: ${escapeTerminalText(`${answer.row.file}: ${answer.row.error}`)}\n`,
        );
      }
      progress.tick();
    },
  );
  progress.end();
  // Completion order varies with the pool: a session's place in a group's keys does not.
  sessions.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const format = values.csv ? 'csv' : values.table ? 'table' : 'ndjson';
  for (const line of formatUsageRows(groupUsage(sessions, by, timeZone), by, timeZone, format)) out(line);
  if (failed > 0)
    process.stderr.write(`compactlab stats: ${failed} of ${groups.length} sessions could not be read\n`);
  // Every session unread: the command could not do it (exit 1), as one unread session's inspect.
  if (groups.length > 0) return failed === groups.length ? 1 : 0;
  process.stderr.write(`compactlab stats: no session file found in ${parsed.positionals.join(', ')}\n`);
  return 1;
}

export async function statsCommand(args: string[], out: (text: string) => void): Promise<number> {
  const loose = parseArgs({ args, allowPositionals: true, strict: false, options: STATS_OPTIONS });
  let settings: SettingsSpec | undefined;
  let parsed: ReturnType<typeof parseArgs>;
  // A strategy file (docs/custom-strategies.md): loaded here to check it and read its knobs, and
  // by each worker thread from the same path.
  if (
    loose.values.by !== undefined &&
    loose.values.strategy === undefined &&
    loose.values['strategy-file'] === undefined
  ) {
    let parsed: ReturnType<typeof parseArgs>;
    try {
      parsed = parseArgs({ args, allowPositionals: true, options: STATS_OPTIONS }, OUTPUTS);
    } catch (error) {
      process.stderr.write(`compactlab stats: ${(error as Error).message}\n`);
      return 2;
    }
    if (parsed.positionals.length === 0) {
      out(`Usage:\n${STATS_USAGE}`);
      return 2;
    }
    if (parsed.values.sweep !== undefined || parsed.values.sessions || parsed.values.retention) {
      process.stderr.write(
        'compactlab stats: --sweep, --sessions and --retention need --strategy, not --by\n',
      );
      return 2;
    }
    return statsByCommand(parsed, out);
  }
  if (loose.values.by !== undefined || loose.values.tz !== undefined || loose.values.table !== undefined) {
    process.stderr.write(
      loose.values.by === undefined
        ? 'compactlab stats: --tz and --table go with --by day|project\n'
        : `compactlab stats: --by and ${loose.values.strategy === undefined ? '--strategy-file' : '--strategy'}: give one\n`,
    );
    return 2;
  }
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
    const s = parseSettings(args, strategyArg, typeof file === 'string' ? file : undefined);
    if (typeof s === 'string') {
      process.stderr.write(`compactlab stats: ${s}\n`);
      return 2;
    }
    settings = typeof file === 'string' ? { ...s.spec, strategyFile: resolve(file) } : s.spec;
    parsed = s.parsed;
  } else {
    try {
      parsed = parseArgs({ args, allowPositionals: true, options: STATS_OPTIONS }, OUTPUTS);
    } catch (error) {
      process.stderr.write(`compactlab stats: ${(error as Error).message}\n`);
      return 2;
    }
    if (
      parsed.values.sweep !== undefined ||
      parsed.values.sessions ||
      parsed.values.retention ||
      parsed.values.prices ||
      parsed.values['retention-summarizer']
    ) {
      process.stderr.write(
        'compactlab stats: --sweep, --sessions, --retention, --retention-summarizer and --prices need --strategy <id> or --strategy-file <file>\n',
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
  const modelOptions = settings ? parseModelRetention(parsed.values) : undefined;
  if (typeof modelOptions === 'string') {
    process.stderr.write(`compactlab stats: ${modelOptions}\n`);
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
  // The names the agent lists its sessions under (Codex's session_index.jsonl), over the logs' own.
  const namesFiles = settings ? undefined : findSessionNamesFiles(groups.map((g) => g.file));
  const progress = createProgress('stats', jobs.length, { plainLines: true });
  let model: (SettingsModel & { failed: number }) | undefined;
  if (modelOptions) {
    // The calls cost: counted first (nothing sent), made only with --yes.
    const plan: ModelPlan = { calls: 0, cached: 0, inputTokens: 0 };
    await runJobs(jobs, 0, () => {}, createPlanModel(modelOptions, plan));
    process.stderr.write(`compactlab stats: ${describePlan(modelOptions, plan)}\n`);
    if (!modelOptions.yes && plan.calls > 0) {
      process.stderr.write('compactlab stats: nothing was sent; add --yes to make these calls\n');
      return 2;
    }
    // A failure's line quotes what the server said: printed inert.
    model = createRunModel(modelOptions, plan.calls, (line) => {
      progress.clear();
      process.stderr.write(`compactlab stats: ${escapeTerminalText(line)}\n`);
    });
  }
  const columns: readonly string[] = settings ? SETTING_COLUMNS : STATS_COLUMNS;
  if (csv) out(formatCsvRecord(columns));
  const totals = settings && new SettingTotals(settings, PRICES_SEEN, model?.model);
  let failed = 0;
  let leftOut = 0;
  /** Sessions with no API call: nothing to replay, no row; said, as the page's what-if says them. */
  const noCalls: string[] = [];
  const memory =
    typeof file === 'string' && fileStrategyId !== undefined
      ? { mb: memoryMb, file: resolve(file), id: fileStrategyId }
      : undefined;
  await runJobs(
    jobs,
    workers,
    (answer) => {
      // The row (or the line saying why there is none), then the count: on a terminal the count's
      // line is erased first, so nothing is written after it on its line.
      progress.clear();
      answerSession(answer);
      progress.tick();
    },
    model,
    memory,
  );
  function answerSession(answer: StatsAnswer): void {
    if (answer.notSession !== undefined) {
      leftOut++;
      process.stderr.write(
        `compactlab stats: ${escapeTerminalText(`${answer.row.file} left out: not a session: it is ${answer.notSession}`)}\n`,
      );
      return;
    }
    if (answer.row.error !== undefined) {
      failed++;
      process.stderr.write(
        `compactlab stats: ${escapeTerminalText(`${answer.row.file}: ${answer.row.error}`)}\n`,
      );
    }
    if (!totals) {
      out(formatRecord(columns, nameStatsRow(answer.row, namesFiles?.get(answer.row.file as string)), csv));
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
    if (rows.length === 0) noCalls.push(String(answer.row.file));
    totals.add(rows);
    if (values.sessions) for (const row of rows) out(formatRecord(columns, row, csv));
  }
  progress.end();
  if (model && model.failed > 0)
    process.stderr.write(
      `compactlab stats: ${model.failed} summary calls failed; those compactions are not scored\n`,
    );
  if (totals) for (const row of totals.rows()) out(formatRecord(columns, row, csv));
  if (noCalls.length > 0)
    process.stderr.write(
      `compactlab stats: ${noCalls.length} ${noCalls.length === 1 ? 'session has' : 'sessions have'} no API call, nothing to replay (no row, not in the totals): ${noCalls.map((f) => escapeTerminalText(f)).join(', ')}\n`,
    );
  if (failed > 0)
    process.stderr.write(`compactlab stats: ${failed} of ${jobs.length} sessions could not be read\n`);
  if (jobs.length > leftOut) return failed === jobs.length - leftOut ? 1 : 0;
  process.stderr.write(
    `compactlab stats: no session file found in ${positionals.join(', ')} (none of its files is an agent's transcript, grouped as the page's session library groups a folder)\n`,
  );
  return 1;
}
