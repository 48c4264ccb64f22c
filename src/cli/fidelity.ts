import { parseArgs } from './cli-args';
import {
  computeFidelityTotals,
  computeSessionFidelity,
  type FidelityRow,
  type FidelityTotals,
} from '../engine/fidelity/fidelity';
import { openPathSources } from './session-files';
import { findSessions } from './stats/find-sessions';
import { escapeJsonText, escapeTerminalText } from './terminal-text';
import { createProgress } from './progress';

// `compactlab fidelity <folder or file>…`: every session under the folders (grouped as `stats`
// groups them), each transcript replayed with its agent's strategy at the log's own knobs, its
// real compactions against the replay's (engine/fidelity/fidelity.ts); a table per agent and
// version, or JSON.

export const FIDELITY_USAGE = `  compactlab fidelity <folder or file>… [--json] [--sessions]
      How well each log's own strategy, at the log's own knobs, reproduces the compactions that
      really happened: per agent and version, the real automatic compactions (and truncations)
      reproduced at the same API call, within ±1 call, farther, missing, and the replay's extra
      ones; manual ones; those on a branch the log did not go on with (off branch: not replayed);
      microcompactions (µ) apart; API calls replayed. Subagent transcripts count as their own.
      --sessions adds a row per transcript; --json prints rows, totals per agent and per version.
      The count of sessions read on a terminal's stderr.`;

type Out = (text: string) => void;

const COLUMNS = [
  ['agent', 'agent'],
  ['version', 'version'],
  ['sessions', 'sessions'],
  ['transcripts', 'transcripts'],
  ['apiCalls', 'API calls'],
  ['real', 'real'],
  ['exact', 'exact'],
  ['within1', '±1'],
  ['farther', 'farther'],
  ['missing', 'missing'],
  ['extra', 'extra'],
  ['manual', 'manual'],
  ['offBranch', 'off branch'],
  ['micro', 'micro'],
  ['microExact', 'µ exact'],
  ['microWithin1', 'µ ±1'],
] as const;

type Cells = Partial<Record<(typeof COLUMNS)[number][0], string | number>>;

/** A plain-text table, numbers right-aligned. */
function renderTable(rows: Cells[]): string {
  const text = rows.map((r) => COLUMNS.map(([k]) => escapeTerminalText(String(r[k] ?? ''))));
  const header = COLUMNS.map(([, label]) => label);
  const widths = header.map((h, i) => Math.max(h.length, ...text.map((r) => r[i]!.length)));
  const line = (cells: string[], numeric: boolean[]) =>
    cells
      .map((c, i) => (numeric[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  const numeric = COLUMNS.map(([k]) => k !== 'agent' && k !== 'version');
  return [line(header, numeric), ...text.map((r) => line(r, numeric))].join('\n');
}

/** Per agent: its versions' rows, then its total ('all'). */
function renderFidelity(rows: readonly FidelityRow[]): string {
  const perAgent = computeFidelityTotals(rows);
  const perVersion = computeFidelityTotals(rows, true);
  const table: Cells[] = [];
  for (const total of perAgent) {
    const versions = perVersion.filter((v) => v.agent === total.agent);
    if (versions.length > 1) for (const v of versions) table.push({ ...v, version: v.version || '?' });
    table.push({ ...total, version: versions.length > 1 ? 'all' : versions[0]?.version || '?' });
  }
  return renderTable(table);
}

function renderRows(rows: readonly FidelityRow[]): string {
  return rows
    .map(
      (r) =>
        `${escapeTerminalText(r.file)} [${r.role}, ${escapeTerminalText(r.agent)} ${escapeTerminalText(r.version) || '?'}, ${r.strategyId}] calls ${r.apiCalls} · real ${r.real}: exact ${r.exact}, ±1 ${r.within1}, farther ${r.farther}, missing ${r.missing} · extra ${r.extra} · manual ${r.manual} · off branch ${r.offBranch} · micro ${r.micro}: exact ${r.microExact}, ±1 ${r.microWithin1}`,
    )
    .join('\n');
}

export interface FidelityReport {
  rows: FidelityRow[];
  perAgent: FidelityTotals[];
  perVersion: FidelityTotals[];
  /** Sessions that could not be read, with the reason. */
  errors: { session: string; error: string }[];
}

/**
 * The fidelity of every session under `roots`, one session at a time; `onSession` hears the count
 * of sessions found, then each one done.
 */
export async function computeFidelityReport(
  roots: string[],
  onSession?: (done: number, total: number) => void,
): Promise<FidelityReport> {
  const rows: FidelityRow[] = [];
  const errors: FidelityReport['errors'] = [];
  const groups = await findSessions(roots);
  for (const [i, group] of groups.entries()) {
    try {
      rows.push(...(await computeSessionFidelity(group.file, await openPathSources(group.paths))));
    } catch (error) {
      errors.push({ session: group.file, error: error instanceof Error ? error.message : String(error) });
    }
    onSession?.(i + 1, groups.length);
  }
  return {
    rows,
    perAgent: computeFidelityTotals(rows),
    perVersion: computeFidelityTotals(rows, true),
    errors,
  };
}

export async function fidelityCommand(args: string[], out: Out): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { json: { type: 'boolean' }, sessions: { type: 'boolean' } },
  });
  if (positionals.length === 0) {
    out(`Usage:\n${FIDELITY_USAGE}`);
    return 2;
  }
  // Its count on a terminal (a team's folder takes a while), erased before the table; nothing elsewhere.
  let progress: ReturnType<typeof createProgress> | undefined;
  const report = await computeFidelityReport(positionals, (_done, total) => {
    progress ??= createProgress('fidelity', total);
    progress.tick();
  });
  progress?.clear();
  if (values.json) out(escapeJsonText(JSON.stringify(report, null, 2)));
  else {
    if (values.sessions) out(`${renderRows(report.rows)}\n`);
    out(renderFidelity(report.rows));
  }
  for (const e of report.errors)
    process.stderr.write(
      `compactlab fidelity: ${escapeTerminalText(e.session)}: ${escapeTerminalText(e.error)}\n`,
    );
  if (report.rows.length > 0) return 0;
  // Exit 1 with an empty table: said why, as stats says it (an empty folder printed the header alone).
  if (report.errors.length === 0)
    process.stderr.write(
      `compactlab fidelity: no session file found in ${escapeTerminalText(positionals.join(', '))}\n`,
    );
  return 1;
}
