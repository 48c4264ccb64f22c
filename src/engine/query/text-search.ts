import { scanJsonArray } from '../parse/json-document';
import { scanLines } from '../parse/line-reader';
import type { ByteSource } from '../parse/source';
import { createLineTest, getFullTextNeedles, JSON_ESCAPE } from './full-text-search';

// Search across sessions (the library's "Find in transcripts", `compactlab search`): a session's
// files streamed line by line (never a whole file held), each line tested as the transcript's
// full-text search tests it (full-text-search.ts: the lower-cased raw line holds the query, or its
// JSON-escaped form); a line that does is then read for its text: the string values of the record
// (not its keys, identifiers or opaque blobs: thinking signatures, encrypted reasoning, base64
// images), where the query's occurrences are counted and the first one's excerpt is cut. Linear in
// the bytes read. A line that is a whole JSON array (a document written on one line: Cline's
// ui_messages.json and api_conversation_history.json) is read element by element, as the parse
// reads it (parse/read-document, `readDocument`): each element is a record, and a hit names its element.
// A line that is an object holding its conversation in a `messages` array (a Messages API request
// dumped on one line, one of the raw-traffic inputs) is read the same way: each message a record,
// named by its place in "messages", and the request's other fields (system, tools…) one more.

/** Characters of an excerpt before the match and after it (ours: one line of the library's panel). */
const EXCERPT_BEFORE_CHARS = 60;
const EXCERPT_AFTER_CHARS = 120;
/**
 * A string value this long with no space, dot or colon in it is an encoded blob (a base64 image,
 * an id list), not text (ours: a sentence or a path has them long before 256 characters).
 */
const BLOB_MIN_CHARS = 256;
const BLOB = /^[A-Za-z0-9+/=_-]+$/;
/** Keys whose values are opaque by definition: a thinking block's signature, Codex's encrypted reasoning. */
const OPAQUE_KEYS = new Set(['signature', 'encrypted_content']);
/**
 * Keys of identifiers (`uuid`, `parentUuid`, `sessionId`, `tool_use_id`, `call_id`, `id`…): a
 * search for a word found it in every hex id (ours: ids are not what a person reads).
 */
const ID_KEY = /(?:^id|_id|Id|ID|[uU]uid)$/;
/** The key of a request's conversation (the Messages API's `messages`; Gemini CLI's chat documents too). */
const MESSAGES_KEY = 'messages';

interface TextSearchHit {
  /** The file (a source's name) and 1-based line of the first occurrence. */
  file: string;
  line: number;
  /** In a line that is a JSON array, the 1-based ordinal of the element holding it. */
  element?: number;
  /** With `element`, the key of the array when an object holds it (`messages`); absent for a top-level array. */
  arrayKey?: string;
  /** The text around it: plain, one line, control and direction characters removed. */
  excerpt: string;
}

export interface SessionTextMatches {
  /** Occurrences of the query in the session's text (not overlapping). */
  matches: number;
  /**
   * Records holding at least one: lines, the elements of a line that is a JSON array, the messages
   * of a line that is a request (and its other fields, as one).
   */
  records: number;
  /** Bytes read (every file of the session). */
  bytesRead: number;
  first?: TextSearchHit;
}

interface TextSearchOptions {
  signal?: AbortSignal;
  /** Bytes of this session read so far, of its total. */
  onProgress?: (bytesRead: number, totalBytes: number) => void;
  /** Bytes read per step (the line reader's default: 4 MiB); tests use tiny chunks. */
  chunkBytes?: number;
}

const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13;

/** A JSON string literal's content decoded; as it is when it has no escape or is malformed. */
function decodeLiteral(raw: string, escaped: boolean): string {
  if (!escaped) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}

const isOpaque = (key: string | undefined, value: string) =>
  (key !== undefined && (OPAQUE_KEYS.has(key) || ID_KEY.test(key))) ||
  (value.length >= BLOB_MIN_CHARS && (value.startsWith('data:') || BLOB.test(value)));

/**
 * Calls `visit` with each text of a raw line: the string values of a JSON record (a key is a
 * literal followed by `:`), whatever the line's shape (a whole record, a line of a pretty-printed
 * document, a record cut short); a line with no string literal (plain text) is one text. Stops
 * when `visit` returns false.
 */
export function forEachLineText(line: string, visit: (text: string) => boolean | undefined): void {
  const n = line.length;
  let i = line.indexOf('"');
  if (i < 0) {
    visit(line);
    return;
  }
  let key: string | undefined;
  while (i >= 0) {
    let j = i + 1;
    let escaped = false;
    while (j < n) {
      const c = line.charCodeAt(j);
      if (c === 92) {
        escaped = true;
        j += 2;
      } else if (c === 34) break;
      else j++;
    }
    if (j >= n) {
      // A literal cut off with the line: what there is of it is text.
      const rest = line.slice(i + 1);
      if (!isOpaque(key, rest)) visit(rest);
      return;
    }
    const raw = line.slice(i + 1, j);
    let k = j + 1;
    while (k < n && isSpace(line.charCodeAt(k))) k++;
    if (line.charCodeAt(k) === 58) key = decodeLiteral(raw, escaped);
    else {
      const value = decodeLiteral(raw, escaped);
      if (!isOpaque(key, value) && visit(value) === false) return;
      key = undefined;
    }
    i = line.indexOf('"', j + 1);
  }
}

/** Control characters (C0, DEL, C1) and bidirectional overrides and isolates: never shown as they are. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters removed.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** A lone surrogate half left by a cut. */
const LONE_SURROGATE = /^[\udc00-\udfff]|[\ud800-\udbff]$/g;

/** `text` as one plain line: whitespace runs made one space, unsafe characters removed. */
export function toExcerptText(text: string): string {
  return text.replace(UNSAFE, '').replace(/\s+/g, ' ');
}

/** The excerpt around `[at, at + length)` of `text`, with "…" where it was cut. */
export function cutExcerpt(text: string, at: number, length: number): string {
  const from = Math.max(0, at - EXCERPT_BEFORE_CHARS);
  const to = Math.min(text.length, at + length + EXCERPT_AFTER_CHARS);
  let part = text.slice(from, to);
  if (isJsonDocument(text)) part = decodeJsonEscapes(part);
  part = part.replace(LONE_SURROGATE, '');
  return `${from > 0 ? '…' : ''}${toExcerptText(part).trim()}${to < text.length ? '…' : ''}`;
}

/**
 * A string value that is itself a JSON object or array, as Cline writes the `text` of its
 * ui_messages (`{"tool":"newFileCreated","content":"…\n…"}`): its own escapes are still in it.
 * Parsed only to check, once per session (the first hit's excerpt).
 */
function isJsonDocument(text: string): boolean {
  const head = text.trimStart()[0];
  const tail = text.trimEnd().at(-1);
  if (!((head === '{' && tail === '}') || (head === '[' && tail === ']'))) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

const SHORT_ESCAPES: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/**
 * A piece of JSON text with its string escapes written as the characters (`\n` a newline, `\"` a
 * quote, `\u00e9` é), so an excerpt of a JSON value reads as text; an escape the cut split at the
 * end is dropped. What it yields goes through `toExcerptText`: a decoded control is removed there.
 */
function decodeJsonEscapes(part: string): string {
  return part
    .replace(/\\(?:u[0-9a-fA-F]{0,3})?$/, '')
    .replace(JSON_ESCAPE, (_, body: string) =>
      body.length === 5
        ? String.fromCharCode(Number.parseInt(body.slice(1), 16))
        : (SHORT_ESCAPES[body] ?? body),
    );
}

/**
 * Occurrences of `query` (ignoring case, as plain text; trimmed) in the text of a session's files
 * (`sources`, read one after the other, each streamed line by line). Throws `AbortError` when the
 * signal aborts. An empty query finds nothing.
 */
export async function searchSessionText(
  sources: readonly ByteSource[],
  query: string,
  options: TextSearchOptions = {},
): Promise<SessionTextMatches> {
  const result: SessionTextMatches = { matches: 0, records: 0, bytesRead: 0 };
  const needle = getFullTextNeedles(query)[0];
  const holdsQuery = createLineTest(query);
  if (needle === undefined || holdsQuery === undefined) return result;
  const totalBytes = sources.reduce((s, f) => s + f.sizeBytes, 0);
  const decoder = new TextDecoder('utf-8');
  const encoder = new TextEncoder();
  let doneBytes = 0;
  for (const source of sources) {
    options.signal?.throwIfAborted();
    /** Counts the occurrences in a text (a record, or a part of one), the first one's place kept. */
    const count = (text: string, line: number, element?: number, arrayKey?: string): number => {
      if (!holdsQuery(text)) return 0;
      let found = 0;
      forEachLineText(text, (value) => {
        const folded = value.toLowerCase();
        // Offsets in the folded text are the value's own unless folding changed its length (`İ`).
        const shown = folded.length === value.length ? value : folded;
        for (let at = folded.indexOf(needle); at >= 0; at = folded.indexOf(needle, at + needle.length)) {
          result.first ??= {
            file: source.name,
            line,
            ...(element === undefined ? {} : { element }),
            ...(arrayKey === undefined ? {} : { arrayKey }),
            excerpt: cutExcerpt(shown, at, needle.length),
          };
          found++;
        }
        return undefined;
      });
      result.matches += found;
      return found;
    };
    /** Counts one record's occurrences (a line, or an element of a line that is an array). */
    const searchRecord = (text: string, line: number, element?: number, arrayKey?: string): void => {
      if (count(text, line, element, arrayKey) > 0) result.records++;
    };
    /**
     * A line: a request on one line (an object with a `messages` array) is a record per message
     * and one for the rest of it, in the order they are written; any other line one record.
     * Tested only once the line holds the query, so other lines cost nothing more.
     */
    const searchLine = (text: string, line: number): void => {
      if (!holdsQuery(text)) return;
      if (text.trimStart().startsWith('{') && text.includes(`"${MESSAGES_KEY}"`)) {
        const bytes = encoder.encode(text);
        const scan = scanJsonArray(bytes, MESSAGES_KEY);
        if (scan.keyed && scan.elements.length > 0) {
          let rest = count(decoder.decode(bytes.subarray(0, scan.keyed.start)), line);
          for (const [index, element] of scan.elements.entries()) {
            const at = element.offsetBytes;
            searchRecord(
              decoder.decode(bytes.subarray(at, at + element.lengthBytes)),
              line,
              index + 1,
              MESSAGES_KEY,
            );
          }
          rest += count(decoder.decode(bytes.subarray(scan.keyed.end)), line);
          if (rest > 0) result.records++;
          return;
        }
      }
      searchRecord(text, line);
    };
    let lineNumber = 0;
    await scanLines(source, (text, line) => void searchLine(text, line), {
      signal: options.signal,
      chunkBytes: options.chunkBytes,
      onBytes: (read) => options.onProgress?.(doneBytes + read, totalBytes),
      // UTF-16 text (a log saved by an editor): not read here; the parse says so when opened.
      onUtf16: () => {},
      // Called once per line, before the sink: a line that is a JSON array is searched here, one
      // element at a time (each decoded alone), and not given to the sink (null).
      readLine: (bytes, start, end) => {
        lineNumber++;
        if (!opensArray(bytes, start, end)) return undefined;
        const scan = scanJsonArray(bytes.subarray(start, end));
        if (!scan.isArray || scan.elements.length === 0) return undefined;
        for (const [index, element] of scan.elements.entries()) {
          const from = start + element.offsetBytes;
          searchRecord(
            decoder.decode(bytes.subarray(from, from + element.lengthBytes)),
            lineNumber,
            index + 1,
          );
        }
        return null;
      },
    });
    doneBytes += source.sizeBytes;
    result.bytesRead = doneBytes;
  }
  options.onProgress?.(totalBytes, totalBytes);
  return result;
}

/** Whether `[start, end)` of `bytes` opens with `[` (after a UTF-8 byte order mark and blanks). */
function opensArray(bytes: Uint8Array, start: number, end: number): boolean {
  let i = start;
  if (bytes[i] === 0xef && bytes[i + 1] === 0xbb && bytes[i + 2] === 0xbf) i += 3;
  while (i < end && (bytes[i] === 0x20 || bytes[i] === 0x09)) i++;
  return i < end && bytes[i] === 0x5b;
}
