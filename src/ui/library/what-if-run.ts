import { create } from 'zustand';
import type { SweepRange } from '../../engine/replay/sweep';
import { formatCsvRecord, formatRecord, SETTING_COLUMNS, type SettingRow } from '../../engine/stats/records';
import type { SettingsSpec } from '../../engine/stats/setting-rows';
import { ABORT_ERROR, type WhatIfSession } from '../../worker/protocol';
import { getStrategyClient } from '../custom/custom-registry';
import { getSessionFiles } from './open-folder';
import {
  createPlanAnswerer,
  createRunAnswerer,
  type WhatIfCalls,
  type WhatIfModelConfig,
  type WhatIfPlan,
} from './what-if-model';

// The library's what-if run: the listed sessions sent to the engine worker (a custom strategy's
// sandbox for one the user ran: custom-registry.ts) with one strategy and its settings (`library-whatif`, the code of `compactlab stats --strategy`), each session's rows
// and the running totals kept as they come, a cancel that stops the worker's loop, and the result
// as the CLI writes it (NDJSON or CSV: session rows, then the totals).

interface WhatIfSessionRows {
  file: string;
  rows: SettingRow[];
  error?: string;
}

export interface WhatIfState {
  /** `planning`/`planned`: counting a model run's calls before it is made (`plan`). */
  status: 'idle' | 'planning' | 'planned' | 'running' | 'done' | 'cancelled' | 'failed';
  /** Sessions replayed so far, of `total`. */
  done: number;
  total: number;
  /** One row per setting (`row: 'total'`), over the sessions done. */
  totals: SettingRow[];
  sessions: WhatIfSessionRows[];
  error?: string;
  /** The run's spec, for the export's file name and the charts' labels. */
  strategyId?: string;
  /** The sessions it was computed over (the listed ones then): its figures are theirs. */
  keys?: readonly string[];
  /** A model's retention: what the plan counted, and the run's calls. */
  plan?: WhatIfPlan;
  calls?: WhatIfCalls;
}

const IDLE: WhatIfState = { status: 'idle', done: 0, total: 0, totals: [], sessions: [] };

export const useWhatIfStore = create<WhatIfState>()(() => IDLE);

let running: AbortController | undefined;
/** Least time between two renders of a run's progress (ms). */
const FLUSH_MS = 100;

/** The listed sessions whose files are at hand, as the worker takes them. */
function toWhatIfSessions(keys: readonly string[]): WhatIfSession[] {
  return keys.flatMap((key) => {
    const files = getSessionFiles(key);
    return files ? [{ file: key, files: files.map((f) => ({ name: f.path, blob: f.file })) }] : [];
  });
}

/** The files each session of the last run was read from: another folder opened has other files. */
let runFiles = new Map<string, unknown>();

/**
 * True when the last run's results are not the listed sessions': none of them is listed, or a
 * folder opened since holds them (the same names, other files).
 */
export function isWhatIfOfOtherSessions(listed: readonly string[]): boolean {
  const keys = useWhatIfStore.getState().keys;
  if (!keys) return false;
  const now = new Set(listed);
  return !keys.some((k) => now.has(k)) || keys.some((k) => runFiles.get(k) !== getSessionFiles(k));
}

/** Forgets the results (the listed sessions changed): a run going is cancelled. */
export function clearWhatIf(): void {
  running?.abort();
  running = undefined;
  useWhatIfStore.setState(IDLE, true);
}

/** Retention by a model: `plan` counts the calls without making them; `run` makes them. */
interface WhatIfModelRun {
  config: WhatIfModelConfig;
  mode: 'plan' | 'run';
}

let runIds = 0;

/** Replays `keys` under `spec` (a sweep as `range`); a run already going is cancelled first. */
export async function runWhatIf(
  keys: readonly string[],
  spec: SettingsSpec,
  range?: SweepRange,
  model?: WhatIfModelRun,
): Promise<void> {
  running?.abort();
  const controller = new AbortController();
  running = controller;
  const sessions = toWhatIfSessions(keys);
  runFiles = new Map(keys.map((k) => [k, getSessionFiles(k)]));
  const plan: WhatIfPlan | undefined =
    model?.mode === 'plan' ? { calls: 0, cached: 0, inputTokens: 0, maxOutputTokens: 0 } : undefined;
  const calls: WhatIfCalls | undefined =
    model?.mode === 'run' ? { model: model.config.model, made: 0, cached: 0, failed: [] } : undefined;
  const answerCall = !model
    ? undefined
    : plan
      ? createPlanAnswerer(model.config, plan)
      : createRunAnswerer(model.config, calls!, controller.signal, () => flushSoon());
  const rows: WhatIfSessionRows[] = [];
  // Progress reaches the page at most every FLUSH_MS: hundreds of small sessions do not render the
  // results hundreds of times.
  let latest: Pick<WhatIfState, 'done' | 'total' | 'totals'> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    timer = undefined;
    if (running !== controller) return;
    if (plan) useWhatIfStore.setState({ done: latest?.done ?? 0, plan: { ...plan } });
    else if (latest || calls)
      useWhatIfStore.setState({
        ...latest,
        sessions: [...rows],
        ...(calls ? { calls: { ...calls, failed: [...calls.failed] } } : {}),
      });
  };
  const flushSoon = () => {
    timer ??= setTimeout(flush, FLUSH_MS);
  };
  useWhatIfStore.setState({
    ...IDLE,
    status: plan ? 'planning' : 'running',
    total: sessions.length,
    strategyId: spec.strategyId,
    keys: [...keys],
    plan,
    calls,
  });
  const runId = `whatif-${++runIds}`;
  try {
    // A custom strategy's what-if runs in its sandbox (which has the built-ins' code and its own,
    // and no network): the listed sessions' files go there, the user's code never to the engine.
    const result = await getStrategyClient(spec.strategyId).request(
      {
        kind: 'library-whatif',
        sessions,
        spec,
        range,
        ...(model ? { model: { model: model.config.model, runId } } : {}),
      },
      {
        signal: controller.signal,
        onProgress: (p) => {
          if (running !== controller) return;
          if ('call' in p) {
            answerCall?.(p.call);
            return;
          }
          rows.push({ file: p.file, rows: p.rows, error: p.error });
          latest = { done: p.done, total: p.total, totals: p.totals };
          flushSoon();
        },
      },
    );
    if (timer !== undefined) clearTimeout(timer);
    flush();
    // A plan's figures are scored on stand-in summaries: only its count is shown.
    if (running === controller)
      useWhatIfStore.setState(
        plan
          ? { status: 'planned', totals: [], sessions: [], plan: { ...plan } }
          : { status: 'done', totals: result.totals },
      );
  } catch (error) {
    if (running !== controller) return;
    if (timer !== undefined) clearTimeout(timer);
    flush();
    const e = error instanceof Error ? error : new Error(String(error));
    useWhatIfStore.setState(
      e.name === ABORT_ERROR ? { status: 'cancelled' } : { status: 'failed', error: e.message },
    );
  } finally {
    if (running === controller) running = undefined;
  }
}

/** Stops the run: the worker's loop ends at its next session or setting; what was done stays shown. */
export function cancelWhatIf(): void {
  running?.abort();
}

/** The run as `compactlab stats --strategy … --sessions` writes it: session rows, then the totals. */
export function formatWhatIfRecords(state: WhatIfState, csv: boolean): string {
  const records: SettingRow[] = [
    ...state.sessions.flatMap((s) =>
      s.error === undefined ? s.rows : [{ row: 'session', file: s.file, errors: 1, error: s.error }],
    ),
    ...state.totals,
  ];
  const lines = records.map((r) => formatRecord(SETTING_COLUMNS, r, csv));
  if (csv) lines.unshift(formatCsvRecord(SETTING_COLUMNS));
  return `${lines.join('\n')}\n`;
}
