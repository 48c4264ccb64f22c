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
