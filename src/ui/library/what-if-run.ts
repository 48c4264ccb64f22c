import { create } from 'zustand';
import type { SweepRange } from '../../engine/replay/sweep';
import { formatCsvRecord, formatRecord, SETTING_COLUMNS, type SettingRow } from '../../engine/stats/records';
import type { SettingsSpec } from '../../engine/stats/setting-rows';
import { getEngineClient } from '../../worker/engine-client';
import { ABORT_ERROR, type WhatIfSession } from '../../worker/protocol';
import { getSessionFiles } from './open-folder';

// The library's what-if run: the listed sessions sent to the engine worker with one strategy and
// its settings (`library-whatif`, the code of `compactlab stats --strategy`), each session's rows
// and the running totals kept as they come, a cancel that stops the worker's loop, and the result
// as the CLI writes it (NDJSON or CSV: session rows, then the totals).

interface WhatIfSessionRows {
  file: string;
  rows: SettingRow[];
  error?: string;
}

export interface WhatIfState {
  status: 'idle' | 'running' | 'done' | 'cancelled' | 'failed';
  /** Sessions replayed so far, of `total`. */
  done: number;
  total: number;
  /** One row per setting (`row: 'total'`), over the sessions done. */
  totals: SettingRow[];
  sessions: WhatIfSessionRows[];
  error?: string;
  /** The run's spec, for the export's file name and the charts' labels. */
  strategyId?: string;
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

/** Replays `keys` under `spec` (a sweep as `range`); a run already going is cancelled first. */
export async function runWhatIf(
  keys: readonly string[],
  spec: SettingsSpec,
  range?: SweepRange,
): Promise<void> {
  running?.abort();
  const controller = new AbortController();
  running = controller;
  const sessions = toWhatIfSessions(keys);
  const rows: WhatIfSessionRows[] = [];
  // Progress reaches the page at most every FLUSH_MS: hundreds of small sessions do not render the
  // results hundreds of times.
  let latest: Pick<WhatIfState, 'done' | 'total' | 'totals'> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    timer = undefined;
    if (latest && running === controller) useWhatIfStore.setState({ ...latest, sessions: [...rows] });
  };
  const flushSoon = () => {
    timer ??= setTimeout(flush, FLUSH_MS);
  };
  useWhatIfStore.setState({
    ...IDLE,
    status: 'running',
    total: sessions.length,
    strategyId: spec.strategyId,
  });
  try {
    const result = await getEngineClient().request(
      { kind: 'library-whatif', sessions, spec, range },
      {
        signal: controller.signal,
        onProgress: (p) => {
          if (running !== controller) return;
          rows.push({ file: p.file, rows: p.rows, error: p.error });
          latest = { done: p.done, total: p.total, totals: p.totals };
          flushSoon();
        },
      },
    );
    if (timer !== undefined) clearTimeout(timer);
    flush();
    if (running === controller) useWhatIfStore.setState({ status: 'done', totals: result.totals });
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
