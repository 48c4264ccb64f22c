/**
 * A text cell a spreadsheet would read as a formula starts with one of these (OWASP, "CSV
 * Injection": `=`, `+`, `-`, `@`, tab, carriage return); such a cell gets a leading `'`. Numbers
 * are written as numbers: a negative figure is not a formula, and DuckDB reads it as a number.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One RFC 4180 field: quoted when it holds a comma, a quote, CR or LF; quotes doubled. */
function formatCsvField(value: string | number | undefined): string {
  let text = value === undefined ? '' : String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV record (no line ending). */
export function formatCsvRecord(values: readonly (string | number | undefined)[]): string {
  return values.map(formatCsvField).join(',');
}
