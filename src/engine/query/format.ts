// Small text helpers shared by the query functions (pure; no Intl options beyond en-US grouping).

/** 12345 → "12,345". */
export function formatCount(n: number): string {
  return groupDigits(Math.round(n));
}

/**
 * `n.toLocaleString('en-US')` ("1,234,567"), written out for safe integers: the first
 * `toLocaleString` of a process loads ICU's number formatting, 20-100 ms of a CLI command's start.
 * Other numbers (fractions, -0, beyond 2^53) still go through it.
 */
export function groupDigits(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString('en-US');
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}

/** Terminal colour codes (CSI … m) that command output carries. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching ESC is the point
const ANSI_ESCAPES = /\u001b\[[0-9;]*[A-Za-z]/g;

/** Removes ANSI escapes, collapses whitespace and cuts to `maxChars` (adding "…"). */
export function toOneLine(text: string, maxChars: number): string {
  const line = text.replace(ANSI_ESCAPES, '').replace(/\s+/g, ' ').trim();
  return line.length > maxChars ? `${line.slice(0, maxChars - 1)}…` : line;
}
