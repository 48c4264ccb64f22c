import { PRICES_SEEN } from '../../engine/cost/prices-seen';
import { formatCsvRecord, formatRecord } from '../../engine/stats/records';
import { getUsageTotal, type UsageBy, type UsageGroup } from '../../engine/stats/usage';
import { escapeJsonText, escapeTerminalText } from '../terminal-text';

// What `compactlab stats --by day|project` prints: one record per day or project, then a total,
// as NDJSON, CSV or a table for reading.

/** Column order of `stats --by`'s CSV; NDJSON rows carry the same keys (the second is `day` or `project`). */
function getUsageColumns(by: UsageBy): readonly string[] {
  return [
    'row',
    by,
    ...(by === 'project' ? ['name'] : []),
    'sessions',
    'apiCalls',
    'inputTokens',
    'outputTokens',
    'cacheReadInputTokens',
    'cacheCreationInputTokens',
    'costUsd',
    'unpricedCalls',
    'models',
    ...(by === 'day' ? ['timeZone'] : []),
    'pricesAsOf',
  ];
}

type Record_ = Partial<Record<string, string | number>>;

function toRecord(g: Omit<UsageGroup, 'sessionKeys'>, by: UsageBy, row: string, timeZone: string): Record_ {
  return {
    row,
    [by]: g.key,
    name: by === 'project' ? g.label : undefined,
    sessions: g.sessions,
    apiCalls: g.calls,
    inputTokens: g.input,
    outputTokens: g.output,
    cacheReadInputTokens: g.cacheRead,
    cacheCreationInputTokens: g.cacheWrite,
    costUsd: Number(g.costUsd.toFixed(6)),
    unpricedCalls: g.unpricedCalls,
    // `model=usd` by cost, `;` apart: one cell.
    models: g.models.map((m) => `${m.model || '?'}=${Number(m.costUsd.toFixed(6))}`).join(';'),
    timeZone: by === 'day' ? timeZone : undefined,
    pricesAsOf: PRICES_SEEN,
  };
}

const count = (n: number) => n.toLocaleString('en-US');
/** Dollars with cents, thousands grouped as the counts beside them are. */
const usd = (n: number) =>
  `$${(n || 0).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** An aligned text table: a header, one line per group, a rule and the total. */
function formatTable(groups: readonly UsageGroup[], by: UsageBy, timeZone: string): string[] {
  const head = [
    by === 'day' ? `Day (${timeZone})` : 'Project',
    'Sessions',
    'Calls',
    'Input',
    'Output',
    'Cache read',
    'Cache write',
    'Cost',
    ...(by === 'project' ? ['Folder'] : []),
  ];
  const cells = (g: Omit<UsageGroup, 'sessionKeys'>, label: string, folder = '') => [
    escapeTerminalText(label),
    count(g.sessions),
    count(g.calls),
    count(g.input),
    count(g.output),
    count(g.cacheRead),
    count(g.cacheWrite),
    `${usd(g.costUsd)}${g.unpricedCalls > 0 ? ` (+${g.unpricedCalls} unpriced)` : ''}`,
    ...(by === 'project' ? [escapeTerminalText(folder)] : []),
  ];
  const body = groups.map((g) => cells(g, g.label, g.key));
  const total = cells(getUsageTotal(groups), 'Total');
  const widths = head.map((h, i) => Math.max(h.length, ...[...body, total].map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => (i === 0 || i === 8 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(head), ...body.map(line), widths.map((w) => '─'.repeat(w)).join('  '), line(total)];
}

/** The lines `stats --by` prints. */
export function formatUsageRows(
  groups: readonly UsageGroup[],
  by: UsageBy,
  timeZone: string,
  format: 'ndjson' | 'csv' | 'table',
): string[] {
  if (format === 'table') return formatTable(groups, by, timeZone);
  const columns = getUsageColumns(by);
  const records = [
    ...groups.map((g) => toRecord(g, by, by, timeZone)),
    toRecord(getUsageTotal(groups), by, 'total', timeZone),
  ];
  const lines = records.map((r) =>
    format === 'csv'
      ? escapeTerminalText(formatRecord(columns, r, true))
      : escapeJsonText(formatRecord(columns, r, false)),
  );
  return format === 'csv' ? [formatCsvRecord(columns), ...lines] : lines;
}
