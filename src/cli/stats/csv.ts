/** One RFC 4180 field: quoted when it holds a comma, a quote, CR or LF; quotes doubled. */
function formatCsvField(value: string | number | undefined): string {
  const text = value === undefined ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV record (no line ending). */
export function formatCsvRecord(values: readonly (string | number | undefined)[]): string {
  return values.map(formatCsvField).join(',');
}
