// Small text helpers shared by the query functions (pure; no Intl options beyond en-US grouping).

/** 12345 → "12,345". */
export function formatCount(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** Collapses whitespace and cuts to `maxChars` (adding "…"). */
export function toOneLine(text: string, maxChars: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > maxChars ? `${line.slice(0, maxChars - 1)}…` : line;
}
