// One linear pass over a whole JSON file whose top level is an array, finding where each
// element sits (byte offset, byte length, line) without parsing it: each element is then parsed
// alone, so one bad element costs only itself, and any element can be re-read by offset like a
// JSONL line. Works on bytes: `"`, `\`, brackets, braces and commas are ASCII and never occur
// inside a UTF-8 multi-byte sequence.

interface DocumentElement {
  offsetBytes: number;
  lengthBytes: number;
  /** 1-based line of the element's first byte. */
  line: number;
  /** False for an element cut off by the end of the file. */
  complete: boolean;
  /** An element whose brackets never close: the line of the next element read after it. */
  unclosedBefore?: number;
}

interface DocumentScan {
  /** False when the first value is not an array (the caller says what it is instead). */
  isArray: boolean;
  elements: DocumentElement[];
  /** Lines in the file, counted as the line reader counts them. */
  lines: number;
  /** The file ends before the array's closing bracket. */
  truncated: boolean;
  /** Non-whitespace found after the array's closing bracket, at this 1-based line. */
  trailingLine?: number;
  /** With a key: where the array sits in its object, `[start, end)` (`readDocument` reads the rest). */
  keyed?: { start: number; end: number };
}

/**
 * A record's place in its document as a person reads it: its 1-based ordinal in the array (a
 * document written on one line, as Cline writes its histories, has every record at line 1), and
 * the key of an array held by an object (`{"messages": [...]}`). The parse's issues and the text
 * search's hits name it alike.
 */
export const describeElement = (ordinal: number, key?: string): string =>
  key === undefined ? `element ${ordinal} of the array` : `element ${ordinal} of "${key}"`;

const NL = 0x0a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN = new Set([0x5b, 0x7b]);
const CLOSE = new Set([0x5d, 0x7d]);

const isSpace = (b: number): boolean => b === 0x20 || b === NL || b === 0x0d || b === 0x09;

/**
 * The elements of the file's top-level array or, with `key`, of the array at that key of a
 * top-level object (`{"messages": [...]}`): then text after the array belongs to the object and
 * is not checked.
 */
export function scanJsonArray(bytes: Uint8Array, key?: string): DocumentScan {
  let line = 1;
  let i = 0;
  // A UTF-8 byte order mark before the JSON.
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) i = 3;
  for (; i < bytes.length && isSpace(bytes[i]!); i++) if (bytes[i] === NL) line++;
  const lines = countLines(bytes);
  if (key !== undefined) {
    const found = bytes[i] === 0x7b ? findKey(bytes, i, line, key) : undefined;
    if (!found) return { isArray: false, elements: [], lines, truncated: false };
    i = found.at;
    line = found.line;
  }
  if (bytes[i] !== 0x5b) return { isArray: false, elements: [], lines, truncated: false };
  const arrayStart = i;

  const elements: DocumentElement[] = [];
  let depth = 0;
  let inString = false;
  let start = -1;
  let startLine = 0;
  let end = -1; // just past the last non-whitespace byte of the current element
  for (; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (inString) {
      if (b === BACKSLASH) {
        i++;
        if (bytes[i] === NL) line++;
      } else if (b === QUOTE) inString = false;
      else if (b === NL) line++;
      end = i + 1;
      continue;
    }
    if (isSpace(b)) {
      if (b === NL) line++;
      continue;
    }
    const atTop = depth === 1;
    if (CLOSE.has(b)) {
      depth--;
      if (depth === 0) {
        if (start >= 0)
          elements.push({ offsetBytes: start, lengthBytes: end - start, line: startLine, complete: true });
        if (key !== undefined)
          return {
            isArray: true,
            elements,
            lines,
            truncated: false,
            keyed: { start: arrayStart, end: i + 1 },
          };
        for (i++; i < bytes.length; i++) {
          if (bytes[i] === NL) line++;
          else if (!isSpace(bytes[i]!))
            return { isArray: true, elements, lines, truncated: false, trailingLine: line };
        }
        return { isArray: true, elements, lines, truncated: false };
      }
      end = i + 1;
      continue;
    }
    if (atTop && b === COMMA) {
      if (start >= 0)
        elements.push({ offsetBytes: start, lengthBytes: end - start, line: startLine, complete: true });
      start = -1;
      continue;
    }
    if (atTop && start < 0 && depth === 1) {
      start = i;
      startLine = line;
    }
    if (OPEN.has(b)) depth++;
    else if (b === QUOTE) inString = true;
    end = i + 1;
  }
  if (start >= 0)
    elements.push({ offsetBytes: start, lengthBytes: end - start, line: startLine, complete: false });
  return { isArray: true, elements, lines, truncated: true };
}

/** Index just past the string opening at `i`, and the newlines inside it. */
function skipString(bytes: Uint8Array, i: number): { end: number; newlines: number } {
  let newlines = 0;
  for (let j = i + 1; j < bytes.length; j++) {
    const b = bytes[j]!;
    if (b === BACKSLASH) j++;
    else if (b === QUOTE) return { end: j + 1, newlines };
    if (bytes[j] === NL) newlines++;
  }
  return { end: bytes.length, newlines };
}

/** Where the value of `key` of the object opening at `i` starts, and its line. */
function findKey(
  bytes: Uint8Array,
  i: number,
  line: number,
  key: string,
): { at: number; line: number } | undefined {
  let depth = 0;
  let expectKey = false;
  const decoder = new TextDecoder();
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b === QUOTE) {
      const keyStart = i;
      const { end, newlines } = skipString(bytes, i);
      line += newlines;
      i = end;
      if (depth !== 1 || !expectKey) continue;
      expectKey = false;
      let name: unknown;
      try {
        name = JSON.parse(decoder.decode(bytes.subarray(keyStart, end)));
      } catch {
        return undefined;
      }
      for (; i < bytes.length && (isSpace(bytes[i]!) || bytes[i] === COLON); i++) if (bytes[i] === NL) line++;
      if (name === key) return { at: i, line };
      continue;
    }
    if (b === NL) line++;
    else if (OPEN.has(b)) {
      depth++;
      expectKey = depth === 1;
    } else if (CLOSE.has(b)) {
      depth--;
      if (depth === 0) return undefined;
    } else if (b === COMMA && depth === 1) expectKey = true;
    i++;
  }
  return undefined;
}

function countLines(bytes: Uint8Array): number {
  let n = 0;
  for (let at = bytes.indexOf(NL); at >= 0; at = bytes.indexOf(NL, at + 1)) n++;
  return bytes.length > 0 && bytes[bytes.length - 1] !== NL ? n + 1 : n;
}

/**
 * The elements after a damaged one (a record whose brackets never close, or a garbage line put
 * between two records): the forward scan counts every later element inside it, or glues the next
 * one to it, and lost them. Read backwards from the array's closing bracket, the elements after
 * it are whole `{…}` objects, each after a comma: they are peeled one by one, back to the first
 * that does not parse or has no comma before it, and kept unless a `[` stands before the first
 * one kept (a file truly cut off after an inner `]` peels that array's own items, which a `[`
 * precedes; garbage before a record leaves no comma, and the record is kept). One backwards walk
 * over disjoint spans: linear in the file. `from` is the damaged element's offset; the result is
 * in file order, empty when nothing after it can be read.
 */
export function recoverAfterUnclosed(bytes: Uint8Array, from: number, key?: string): DocumentElement[] {
  let i = skipBack(bytes, bytes.length - 1, from);
  // A keyed array (`{"messages": [...]}`) is read back only when it is the object's last value.
  if (key !== undefined) {
    if (bytes[i] !== CLOSE_BRACE) return [];
    i = skipBack(bytes, i - 1, from);
  }
  if (bytes[i] !== CLOSE_BRACKET) return [];
  i = skipBack(bytes, i - 1, from);
  const peeled: { offsetBytes: number; end: number }[] = [];
  let before = -1;
  while (i > from && bytes[i] === CLOSE_BRACE) {
    const open = findOpenBrace(bytes, i, from);
    if (open <= from || !parses(bytes, open, i + 1)) break;
    peeled.push({ offsetBytes: open, end: i + 1 });
    before = skipBack(bytes, open - 1, from);
    if (bytes[before] !== COMMA) break;
    i = skipBack(bytes, before - 1, from);
  }
  if (peeled.length === 0 || bytes[before] === OPEN_BRACKET) return [];
  peeled.reverse();
  // Lines: one forward count from the unclosed element over the bytes before the last one kept.
  let line = 1;
  for (let k = 0; k < from; k++) if (bytes[k] === NL) line++;
  const out: DocumentElement[] = [];
  let at = from;
  for (const p of peeled) {
    for (; at < p.offsetBytes; at++) if (bytes[at] === NL) line++;
    out.push({ offsetBytes: p.offsetBytes, lengthBytes: p.end - p.offsetBytes, line, complete: true });
  }
  return out;
}

const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;

/** The last index at or before `i` (and after `floor`) that is not whitespace or NUL. */
function skipBack(bytes: Uint8Array, i: number, floor: number): number {
  while (i > floor && (isSpace(bytes[i]!) || bytes[i] === 0)) i--;
  return i;
}

/**
 * The `{` that opens the `}` at `close`, walking back no further than `floor` (−1 when the walk
 * reaches it or an unmatched `[`). Valid JSON read backwards: a quote opens a string (going
 * back) exactly when an even number of backslashes precede it (recover-records.ts).
 */
function findOpenBrace(bytes: Uint8Array, close: number, floor: number): number {
  let depth = 0;
  let inString = false;
  for (let i = close; i > floor; i--) {
    const b = bytes[i]!;
    if (b === QUOTE) {
      let slashes = 0;
      while (i - slashes - 1 > floor && bytes[i - slashes - 1] === BACKSLASH) slashes++;
      if (slashes % 2 === 0) inString = !inString;
      i -= slashes;
    } else if (!inString) {
      if (b === CLOSE_BRACE || b === CLOSE_BRACKET) depth++;
      else if (b === OPEN_BRACE || b === OPEN_BRACKET) {
        depth--;
        if (depth === 0) return b === OPEN_BRACE ? i : -1;
      }
    }
  }
  return -1;
}

const decoder = new TextDecoder();

function parses(bytes: Uint8Array, start: number, end: number): boolean {
  try {
    JSON.parse(decoder.decode(bytes.subarray(start, end)));
    return true;
  } catch {
    return false;
  }
}
