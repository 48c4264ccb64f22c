// Small text helpers shared by the query functions (pure; no Intl options beyond en-US grouping).

/** 12345 → "12,345". */
export function formatCount(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** Terminal colour codes (CSI … m) that command output carries. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching ESC is the point
const ANSI_ESCAPES = /\u001b\[[0-9;]*[A-Za-z]/g;

/** Removes ANSI escapes, collapses whitespace and cuts to `maxChars` (adding "…"). */
export function toOneLine(text: string, maxChars: number): string {
  const line = text.replace(ANSI_ESCAPES, '').replace(/\s+/g, ' ').trim();
  return line.length > maxChars ? `${line.slice(0, maxChars - 1)}…` : line;
}
