import type { DialectInfo } from '../parse/dialects/descriptor';
import { parseSession } from '../parse/parse-session';
import { isPlausibleTimeMs } from '../parse/dialects/record';
import type { ByteSource } from '../parse/source';
import type { PriceOverrides } from '../cost/prices';
import { FIRST_PROMPT_CHARS, getLibraryRow, type LibraryRow } from './library-row';

// The scan a session list is made of: the full parse's own pipeline (detection, normalizers, the
// session builder, copy folding), but once the first user turn is known a line is `JSON.parse`d
// only when it holds one of its dialect's `listNeedles` (API calls, compactions, models); the
// others are looked at for a timestamp and skipped. A dialect without needles is parsed whole.

interface ScanOptions {
  signal?: AbortSignal;
  chunkBytes?: number;
  onProgress?: (bytesRead: number, totalBytes: number) => void;
  prices?: PriceOverrides;
}

const TIMESTAMP_KEY = '"timestamp":"';
/**
 * Where a line's needles are looked for: its first bytes. Claude Code writes `message.role` and a
 * system record's `subtype` before the content, Codex its `payload.type` first (docs/sources.md#fmt-envelope, #fmt-codex), so a 100 kB tool result is never searched, let alone decoded.
 */
const LIST_NEEDLE_WINDOW_BYTES = 1024;
/**
 * Of a record's first nested object (Claude Code's `message`, Codex's `payload`), the bytes the
 * window holds however far the record's top-level strings push it, so a 1 kB `cwd` cannot push
 * `message.role` out of it (the full parse, `stats`, reads the line whole). Ours: Claude Code's
 * `message` names its model, id and type before its role, about 150 bytes; its envelope takes
 * about 300 before `message`, so a usual line's 1 kB holds these 512 and nothing more is read.
 */
const NESTED_WINDOW_BYTES = 512;
/**
 * A line's last bytes, where its needles are looked for when neither window held one: Claude Code
 * writes the record's own `type` after its `message` (docs/sources.md#fmt-envelope), so a message
 * whose `role` sits past the window (a 1 kB `id` or `model` before it, `content` first) still
 * names its record there, as the full parse reads it. Ours: the `type` ends 100 to 300 bytes
 * before the line's end in the corpus (v2.1.92 writes `userType`, `entrypoint`, `cwd`,
 * `sessionId`, `version`, `gitBranch` after it); 512 leaves a usual `cwd` room, and a longer one is
 * walked back over (`getTrailingScalarsAt`): a line past its windows reads these bytes, or its
 * trailing scalar fields, more.
 */
const TAIL_WINDOW_BYTES = 512;
/** Codex's `{"timestamp":"…"` opens the line; Claude Code's ends it, before a few short fields. */
const HEAD_TIMESTAMP_BYTES = 160;
/** Lines whose timestamp was not found at either end, kept to be read whole at the end. */
const UNREAD_KEPT = 8;
const TAIL_TIMESTAMP_BYTES = 256;

/** ISO 8601 with milliseconds and a zone: `2026-01-02T03:04:05.678Z` is 24 characters. */
const TIMESTAMP_MAX_CHARS = 40;

/** The change in nesting depth over `text[from, to)`, strings skipped; `from` is outside a string. */
function depthAcross(text: string, from: number, to: number): number {
  let depth = 0;
  let inString = false;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) depth--;
  }
  return depth;
}

function timestampAt(text: string, at: number): number | undefined {
  const start = at + TIMESTAMP_KEY.length;
  const end = text.indexOf('"', start);
  if (end < 0 || end - start > TIMESTAMP_MAX_CHARS) return undefined;
  const ms = Date.parse(text.slice(start, end));
  // An implausible time does not set the row's span (the full parse says so as an issue).
  return isPlausibleTimeMs(ms) ? ms : undefined;
}

/** The first `timestamp` of a line's head, when it is the record's own (Codex writes it first). */
function getHeadTimestampMs(head: string): number | undefined {
  const first = head.indexOf(TIMESTAMP_KEY);
  return first >= 0 && depthAcross(head, 0, first) === 1 ? timestampAt(head, first) : undefined;
}

/** The last `timestamp` of a line's tail, when it is the record's own (Claude Code writes it late). */
function getTailTimestampMs(tail: string): number | undefined {
  const last = tail.lastIndexOf(TIMESTAMP_KEY);
  if (last < 0) return undefined;
  const afterValue = tail.indexOf('"', last + TIMESTAMP_KEY.length) + 1;
  return afterValue > 0 && depthAcross(tail, afterValue, tail.length) === -1
    ? timestampAt(tail, last)
    : undefined;
}

/** The record's own `timestamp` of a whole raw line, without parsing it. */
function getRawTimestampMs(text: string): number | undefined {
  return getTailTimestampMs(text) ?? getHeadTimestampMs(text);
}

/**
 * Where `needle` first occurs in `bytes[from, to)`, or -1. Jumps on the needle's last byte (`[`
 * of `"content":[` is rare in a line's head, where quotes are everywhere).
 */
function indexOfBytes(bytes: Uint8Array, needle: Uint8Array, from: number, to: number): number {
  const tail = needle.length - 1;
  const lastByte = needle[tail]!;
  for (let i = bytes.indexOf(lastByte, from + tail); i >= 0 && i < to; i = bytes.indexOf(lastByte, i + 1)) {
    let j = 0;
    const at = i - tail;
    while (j < tail && bytes[at + j] === needle[j]) j++;
    if (j === tail) return at;
  }
  return -1;
}

/** Whether the quote at `at` is escaped: an odd run of backslashes before it. */
function isEscapedQuote(line: Uint8Array, at: number): boolean {
  let i = at - 1;
  while (i >= 0 && line[i] === 92) i--;
  return (at - 1 - i) % 2 === 1;
}

/**
 * Where the line's first nested object opens: its first `":{` whose quote is not escaped (inside
 * a JSON string every quote is), bounded by the line; the line's end when it has none. Compact
 * JSON assumed: a space before the brace only moves the answer later, so the window grows (never shrinks).
 */
function getFirstObjectAt(bytes: Uint8Array, start: number, end: number): number {
  const line = bytes.subarray(start, end);
  for (let i = line.indexOf(123, 1); i >= 0; i = line.indexOf(123, i + 1)) {
    if (line[i - 1] === 58 && line[i - 2] === 34 && !isEscapedQuote(line, i - 2)) return start + i;
  }
  return end;
}

const isSpace = (c: number | undefined) => c === 32 || c === 9 || c === 13 || c === 10;
/** A JSON number's or literal's byte (`-+.0-9eE`, `true`, `false`, `null`). */
const isScalarByte = (c: number) =>
  (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || c === 45 || c === 43 || c === 46 || c === 69;

/** Where the string that ends at the quote `close` opens: its first quote not escaped, or -1. */
function stringOpenAt(bytes: Uint8Array, from: number, close: number): number {
  for (let q = bytes.lastIndexOf(34, close - 1); q >= from; q = bytes.lastIndexOf(34, q - 1)) {
    let i = q - 1;
    while (i >= from && bytes[i] === 92) i--;
    if ((q - 1 - i) % 2 === 0) return q;
  }
  return -1;
}

/**
 * Where the record's last top-level scalar fields begin: read back from the line's end over
 * `,"key":value` pairs whose value is a string, number or literal, stopping at a nested value's
 * close (Claude Code's `message`) or at anything else. Claude Code writes `type` among them, after
 * `message`, and 2.1.92 a `cwd` after `type` (docs/sources.md#fmt-envelope): however long that `cwd`,
 * the `type` is in `[answer, end)`. Linear in the bytes walked back over: each quote's run of
 * backslashes is counted once.
 */
function getTrailingScalarsAt(bytes: Uint8Array, start: number, end: number): number {
  let i = end - 1;
  while (i > start && isSpace(bytes[i])) i--;
  if (bytes[i] !== 125) return end;
  let fieldsAt = i;
  i--;
  for (;;) {
    while (i > start && isSpace(bytes[i])) i--;
    // The value: a string, else a number or literal; a nested value's close ends the walk.
    if (bytes[i] === 34) {
      const open = stringOpenAt(bytes, start, i);
      if (open < 0) return fieldsAt;
      i = open - 1;
    } else if (isScalarByte(bytes[i]!)) {
      while (i > start && isScalarByte(bytes[i]!)) i--;
    } else return fieldsAt;
    while (i > start && isSpace(bytes[i])) i--;
    if (bytes[i] !== 58) return fieldsAt;
    i--;
    while (i > start && isSpace(bytes[i])) i--;
    if (bytes[i] !== 34) return fieldsAt;
    const keyOpen = stringOpenAt(bytes, start, i);
    if (keyOpen < 0) return fieldsAt;
    fieldsAt = keyOpen;
    i = keyOpen - 1;
    while (i > start && isSpace(bytes[i])) i--;
    if (bytes[i] !== 44) return fieldsAt;
    i--;
  }
}

/** Where `needle` last occurs in `bytes[from, to)`, or -1. */
function lastIndexOfBytes(bytes: Uint8Array, needle: Uint8Array, from: number, to: number): number {
  const first = needle[0]!;
  for (let i = bytes.lastIndexOf(first, to - needle.length); i >= from; i = bytes.lastIndexOf(first, i - 1)) {
    let j = 1;
    while (j < needle.length && bytes[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
    if (i === 0) break;
  }
  return -1;
}

const needleRegExps = new WeakMap<readonly string[], RegExp>();
/**
 * A dialect's needles as one pattern: one search of a line's head or tail for any of them, about
 * 2.5 times as fast as a search per needle (six for Claude Code) over the same text.
 */
function getNeedleRegExp(needles: readonly string[]): RegExp {
  let re = needleRegExps.get(needles);
  if (!re) {
    re = new RegExp(needles.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'));
    needleRegExps.set(needles, re);
  }
  return re;
}

const cutDecoder = new TextDecoder();

/** A needed line's text, without its dialect's `listCut` part when the line has it; else undefined. */
function cutLine(
  bytes: Uint8Array,
  start: number,
  windowEnd: number,
  end: number,
  dialect: DialectInfo,
): string | undefined {
  const cut = getCutBytes(dialect.listCut);
  if (!cut) return undefined;
  const from = indexOfBytes(bytes, cut.from, start, windowEnd);
  if (from < 0) return undefined;
  const keepTo = from + cut.from.length;
  const to = lastIndexOfBytes(bytes, cut.to, keepTo, end);
  if (to < 0) return undefined;
  return cutDecoder.decode(bytes.subarray(start, keepTo)) + cutDecoder.decode(bytes.subarray(to, end));
}

const cutCache = new WeakMap<object, { from: Uint8Array; to: Uint8Array }>();
function getCutBytes(cut: DialectInfo['listCut']): { from: Uint8Array; to: Uint8Array } | undefined {
  if (!cut) return undefined;
  let bytes = cutCache.get(cut);
  if (!bytes) {
    const encoder = new TextEncoder();
    bytes = { from: encoder.encode(cut.from), to: encoder.encode(cut.to) };
    cutCache.set(cut, bytes);
  }
  return bytes;
}

/** Scans one session (its main file first, as `parseSession` orders them) into its list row. */
export async function scanSession(sources: ByteSource[], options: ScanOptions = {}): Promise<LibraryRow> {
  const decoder = new TextDecoder();
  let skippedStartMs: number | undefined;
  const unread: { source: ByteSource; offsetBytes: number; lengthBytes: number }[] = [];
  let skippedEndMs: number | undefined;
  const session = await parseSession(sources, {
    signal: options.signal,
    chunkBytes: options.chunkBytes,
    // The list shows the first prompt's start; leading blanks aside, entries need keep no more.
    previewChars: 2 * FIRST_PROMPT_CHARS,
    onProgress: options.onProgress && ((p) => options.onProgress!(p.bytesRead, p.totalBytes)),
    listLine: (bytes, start, end, offsetBytes, file, dialect) => {
      const needles = dialect.listNeedles;
      if (!needles) return undefined;
      // One decode of the head and native string searches: cheaper than byte loops, as a line's
      // head is full of quotes (every key, every escaped quote).
      const headEnd = Math.min(end, start + LIST_NEEDLE_WINDOW_BYTES);
      const head = decoder.decode(bytes.subarray(start, headEnd));
      const anyNeedle = getNeedleRegExp(needles);
      if (anyNeedle.test(head)) return cutLine(bytes, start, headEnd, end, dialect);
      // Long top-level strings (a hostile `cwd`) push the first object's needles past the head.
      const windowEnd =
        headEnd < end ? Math.min(end, getFirstObjectAt(bytes, start, end) + NESTED_WINDOW_BYTES) : headEnd;
      // Far enough back that a needle across a window's end is whole.
      const overlap = needles.reduce((most, needle) => Math.max(most, 3 * needle.length), 0);
      if (windowEnd > headEnd) {
        const rest = decoder.decode(bytes.subarray(Math.max(start, headEnd - overlap), windowEnd));
        if (anyNeedle.test(rest)) return cutLine(bytes, start, windowEnd, end, dialect);
      }
      let tail: string | undefined;
      if (windowEnd < end) {
        // The last 512 bytes, or the record's trailing scalar fields when they are longer.
        const tailAt = Math.min(
          end - TAIL_WINDOW_BYTES,
          getTrailingScalarsAt(bytes, windowEnd, end) - overlap,
        );
        tail = decoder.decode(bytes.subarray(Math.max(windowEnd - overlap, tailAt), end));
        if (anyNeedle.test(tail)) return cutLine(bytes, start, windowEnd, end, dialect);
      }
      if (file.role === 'main') {
        const ms =
          getHeadTimestampMs(head.slice(0, HEAD_TIMESTAMP_BYTES)) ??
          getTailTimestampMs(
            tail ?? decoder.decode(bytes.subarray(Math.max(start, end - TAIL_TIMESTAMP_BYTES), end)),
          );
        if (ms !== undefined) {
          if (skippedStartMs === undefined || ms < skippedStartMs) skippedStartMs = ms;
          if (skippedEndMs === undefined || ms > skippedEndMs) skippedEndMs = ms;
          unread.length = 0;
        } else {
          if (unread.length === UNREAD_KEPT) unread.shift();
          unread.push({ source: sources[file.index]!, offsetBytes, lengthBytes: end - start });
        }
      }
      return null;
    },
  });
  // Records whose timestamp sits mid-line (a user record with a large `toolUseResult` after it)
  // after the last one read: they may hold the end time, so they are read whole.
  for (const { source, offsetBytes, lengthBytes } of unread) {
    const ms = getRawTimestampMs(decoder.decode(await source.read(offsetBytes, lengthBytes)));
    if (ms !== undefined && (skippedEndMs === undefined || ms > skippedEndMs)) skippedEndMs = ms;
  }
  const row = getLibraryRow(session, options.prices);
  if (skippedStartMs !== undefined && (row.startMs === undefined || skippedStartMs < row.startMs))
    row.startMs = skippedStartMs;
  if (skippedEndMs !== undefined && (row.endMs === undefined || skippedEndMs > row.endMs))
    row.endMs = skippedEndMs;
  return row;
}
