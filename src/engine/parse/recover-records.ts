/** What a line that failed to parse still holds: its whole records, in line order. */
interface RecoveredRecords {
  records: unknown[];
  /** True when the line starts with a record cut off mid-write, which is lost. */
  headLost: boolean;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

function isJsonSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/** Index of the last non-space character at or before `end - 1`, or -1. */
function skipSpaceBack(text: string, end: number): number {
  let i = end - 1;
  while (i >= 0 && isJsonSpace(text.charCodeAt(i))) i--;
  return i;
}

/**
 * Walks backwards from the `}` at `close` to the `{` that opens it, tracking strings and depth;
 * returns that index, or -1 when the start of the text comes first. Reading valid JSON backwards
 * is unambiguous: outside strings there are no quotes or backslashes, and a quote ends (going
 * backwards: opens) a string exactly when an even number of backslashes precede it. Each
 * backslash run is counted once, by the one quote that follows it, so the walk is O(close).
 */
function findObjectStart(text: string, close: number): number {
  let depth = 0;
  let inString = false;
  for (let i = close; i >= 0; i--) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      let slashes = 0;
      while (i - slashes - 1 >= 0 && text.charCodeAt(i - slashes - 1) === BACKSLASH) slashes++;
      if (slashes % 2 === 0) inString = !inString;
      i -= slashes;
    } else if (!inString) {
      if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth++;
      else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        depth--;
        if (depth === 0) return c === OPEN_BRACE ? i : -1;
        if (depth < 0) return -1;
      }
    }
  }
  return -1;
}

function tryParse(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    // Deep nesting can throw RangeError in some engines; either way the text is not a record.
    return undefined;
  }
}

/**
 * Recovers the whole records of a line that failed to parse: two writers appending at once
 * leave a record cut off mid-write (or a whole one) followed by whole records, with no newline
 * between them (docs/sources.md#fmt-tolerate). Returns undefined when the line does not end with a whole record.
 *
 * Linear in the line's length: one backwards walk from the end peels off whole `{…}` objects
 * (see `findObjectStart`), each glued to the next with at most whitespace between; the walks
 * cover disjoint spans, so together they read each character at most once. `JSON.parse` then
 * runs once per peeled span and once on what precedes them, again over disjoint text. The old
 * recovery retried every `{"` suffix recursively and took time exponential in the nesting.
 */
export function recoverRecords(text: string): RecoveredRecords | undefined {
  const records: unknown[] = [];
  let headEnd = text.length;
  let close = skipSpaceBack(text, headEnd);
  while (close >= 0 && text.charCodeAt(close) === CLOSE_BRACE) {
    const open = findObjectStart(text, close);
    if (open < 0) break;
    const parsed = tryParse(text.slice(open, close + 1));
    if (!parsed) break;
    records.push(parsed.value);
    headEnd = open;
    close = skipSpaceBack(text, open);
  }
  if (records.length === 0 || headEnd === 0) {
    // headEnd 0 means one whole record, which would have parsed: not a recovery.
    return records.length > 1 ? { records: records.reverse(), headLost: false } : undefined;
  }
  records.reverse();
  const head = text.slice(0, headEnd);
  if (head.trim() === '') return records.length > 1 ? { records, headLost: false } : undefined;
  const parsedHead = tryParse(head);
  if (parsedHead) return { records: [parsedHead.value, ...records], headLost: false };
  return { records, headLost: true };
}
