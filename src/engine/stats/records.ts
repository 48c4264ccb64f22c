// The records `compactlab stats` writes and the page's what-if exports: NDJSON or CSV, one
// record per row, keys in column order. Plain strings; no Node, no DOM, so the CLI and the page
// write the same bytes.

/** Column order of `stats --strategy`'s CSV (and of the page's what-if export); NDJSON rows carry the same keys. */
export const SETTING_COLUMNS = [
  'row',
  'strategy',
  'setting',
  'knob',
  'value',
  'file',
  'agent',
  'model',
  'sessions',
  'pricedSessions',
  'apiCalls',
  'compactions',
  'llmCalls',
  'summarizedTokens',
  'costUsd',
  'realCostUsd',
  'deltaUsd',
  'cacheReadTokens',
  'cacheWriteTokens',
  'uncachedTokens',
  'outputTokens',
  'summaryCalls',
  'summaryUsd',
  'realSummariesEstimated',
  'realSummariesEstimatedUsd',
  'loggedCostUsd',
  'subagentCostUsd',
  'otherBranchCostUsd',
  'unpricedCalls',
  'retention',
  'retainedFacts',
  'heldFacts',
  'factsLost',
  'retentionModel',
  'retentionCalls',
  'retentionCallsFailed',
  'errors',
  'pricesAsOf',
  'error',
] as const;

export type SettingColumn = (typeof SETTING_COLUMNS)[number];
export type SettingRow = Partial<Record<SettingColumn, string | number>>;

/**
 * One RFC 4180 field: quoted when it holds a comma, a quote, CR or LF; quotes doubled. A text that
 * a spreadsheet would run as a formula (it begins with `=`, `+`, `-`, `@`, a tab or CR: a session id
 * `=HYPERLINK(…)` from a transcript) gets a leading `'` and is quoted, as OWASP's CSV Injection
 * page says (owasp.org/www-community/attacks/CSV_Injection); numbers are ours and stay numbers.
 */
function formatCsvField(value: string | number | undefined): string {
  const text = value === undefined ? '' : String(value);
  const formula = typeof value === 'string' && /^[=+\-@\t\r]/.test(text);
  const safe = formula ? `'${text}` : text;
  return formula || /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One CSV record (no line ending). */
export function formatCsvRecord(values: readonly (string | number | undefined)[]): string {
  return values.map(formatCsvField).join(',');
}

/**
 * One record as NDJSON or CSV, with every column in column order: an absent value is `null` in
 * NDJSON as it is an empty cell in CSV, so every record of an output has the same keys (a reader
 * such as DuckDB's read_ndjson_auto, or pandas, gets one schema whatever the first rows hold).
 */
export function formatRecord(
  columns: readonly string[],
  row: Partial<Record<string, string | number>>,
  csv: boolean,
): string {
  const cells = columns.map((c) => row[c]);
  return csv
    ? formatCsvRecord(cells)
    : JSON.stringify(Object.fromEntries(columns.map((c, i) => [c, cells[i] ?? null])));
}
