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
