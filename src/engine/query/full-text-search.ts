import { at } from '../assert';
import type { ByteSource } from '../parse/source';
import type { Session } from '../types';

/** Bytes read per step: amortises the async read, keeps progress and cancel responsive. */
const FULL_TEXT_CHUNK_BYTES = 4 * 1024 * 1024;

export interface FullTextProgress {
  bytesRead: number;
  totalBytes: number;
}

interface FullTextOptions {
  signal?: AbortSignal;
  onProgress?: (progress: FullTextProgress) => void;
  /** Bytes read per step (default 4 MiB); tests use tiny chunks. A longer line is read whole. */
  chunkBytes?: number;
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * The forms of `query` to look for in a raw JSONL line, lower-cased: the query itself and, when
 * JSON escapes some of its characters (quotes, backslashes, newlines, control characters), its
 * escaped form as JSON.stringify writes it.
 */
export function getFullTextNeedles(query: string): string[] {
  const needle = query.trim().toLowerCase();
  if (needle === '') return [];
  const escaped = JSON.stringify(needle).slice(1, -1);
  return escaped === needle ? [needle] : [needle, escaped];
}

/** Any character past ASCII (a UTF-16 unit: an astral character's surrogates are in the range). */
const NON_ASCII = /[\u0080-\uffff]/;
/** An escape of a JSON string: `\uXXXX`, or a backslash and the character it escapes (`\\` whole). */
export const JSON_ESCAPE = /\\(u[0-9a-fA-F]{4}|[\s\S])/g;

/**
 * `line` with its `\uXXXX` escapes of characters past ASCII written as the characters (the
 * halves of an astral character's surrogate pair each one unit, which joined make it); every other
 * escape is left as it is, so the line keeps the shape the escaped needle is looked for in.
 */
function decodeNonAsciiEscapes(line: string): string {
  return line.replace(JSON_ESCAPE, (written, body: string) => {
    if (body.length !== 5) return written;
    const code = Number.parseInt(body.slice(1), 16);
    return code < 0x80 ? written : String.fromCharCode(code);
  });
}

/**
 * How a line that escapes characters past ASCII writes the needle's first such character, as the
 * lower-cased line shows it: `\u` and the hex of each UTF-16 unit (a surrogate pair for an astral
 * one), for the character and its upper case (the needle is lower-cased; the line's may not be).
 * Empty for an ASCII needle.
 */
function getEscapedProbes(needle: string): string[] {
  const first = needle.match(/[\u0080-\uffff][\udc00-\udfff]?/)?.[0];
  if (first === undefined) return [];
  const escaped = (char: string) =>
    Array.from(
      { length: char.length },
      (_, i) => `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`,
    ).join('');
  const upper = first.toUpperCase();
  return NON_ASCII.test(upper) && upper !== first ? [escaped(first), escaped(upper)] : [escaped(first)];
}

/**
 * Whether a raw JSON line holds `query` (ignoring case, as plain text), for each line of a
 * search; undefined for an empty query. JSON may write a character past ASCII as `\u00e9` (Python's
 * `json.dumps` does by default, `ensure_ascii`), in either case of hex (JSON allows both; the line
 * is lower-cased), an astral one as a surrogate pair (`\ud83d\ude00`): for a query holding such
 * characters, a line the first test misses is tested again with those escapes decoded, when it
 * holds the escape of the query's first such character. An ASCII query costs nothing more, nor does
 * a line with no such escape beyond one more `includes` (Claude Code writes raw UTF-8:
 * JSON.stringify escapes only controls and lone surrogates).
 */
export function createLineTest(query: string): ((line: string) => boolean) | undefined {
  const needles = getFullTextNeedles(query);
  if (needles.length === 0) return undefined;
  const probes = getEscapedProbes(needles[0]!);
  return (line) => {
    const lower = line.toLowerCase();
    if (needles.some((n) => lower.includes(n))) return true;
    if (!probes.some((p) => lower.includes(p))) return false;
    const decoded = decodeNonAsciiEscapes(line).toLowerCase();
    return needles.some((n) => decoded.includes(n));
  };
}

/**
 * Per entry, 1 when its raw line (the whole record, not the 2,000-character previews) contains
 * the query, ignoring case (Unicode `toLowerCase` on the decoded line; `createLineTest`). Reads the bytes of each
 * file's entry lines once, in chunks, yielding to the event loop between chunks so that a worker
 * sees its cancel messages; throws `AbortError` when the signal aborts. An empty query matches all.
 */
export async function computeFullTextMatches(
  session: Session,
  sources: ByteSource[],
  query: string,
  options: FullTextOptions = {},
): Promise<Uint8Array> {
  const { signal, onProgress } = options;
  const chunkBytes = Math.max(1, options.chunkBytes ?? FULL_TEXT_CHUNK_BYTES);
  const matches = new Uint8Array(session.entries.length);
  const holdsQuery = createLineTest(query);
  if (holdsQuery === undefined) return matches.fill(1);

  // Entries are in line order within each file; entries recovered from one concatenated line
  // share its byte range, so each distinct range is read and tested once.
  const byFile = new Map<number, number[]>();
  for (const entry of session.entries) {
    const list = byFile.get(entry.fileIndex);
    if (list) list.push(entry.index);
    else byFile.set(entry.fileIndex, [entry.index]);
  }
  let totalBytes = 0;
  for (const [fileIndex] of byFile) totalBytes += sources[fileIndex]?.sizeBytes ?? 0;

  const decoder = new TextDecoder('utf-8');
  let bytesRead = 0;
  onProgress?.({ bytesRead, totalBytes });
  for (const [fileIndex, entryIndices] of byFile) {
    const source = sources[fileIndex];
    if (!source) continue;
    let i = 0;
    while (i < entryIndices.length) {
      signal?.throwIfAborted();
      const first = session.entries[at(entryIndices, i)]!;
      const startBytes = first.offsetBytes;
      let endBytes = startBytes + first.lengthBytes;
      let j = i + 1;
      while (j < entryIndices.length) {
        const next = session.entries[at(entryIndices, j)]!;
        const nextEnd = Math.max(endBytes, next.offsetBytes + next.lengthBytes);
        if (next.offsetBytes < startBytes || nextEnd - startBytes > chunkBytes) break;
        endBytes = nextEnd;
        j++;
      }
      const bytes = await source.read(startBytes, endBytes - startBytes);
      let lastOffset = -1;
      let lastMatch = false;
      for (let k = i; k < j; k++) {
        const entry = session.entries[at(entryIndices, k)]!;
        if (entry.offsetBytes !== lastOffset) {
          const from = entry.offsetBytes - startBytes;
          lastMatch = holdsQuery(decoder.decode(bytes.subarray(from, from + entry.lengthBytes)));
          lastOffset = entry.offsetBytes;
        }
        if (lastMatch) matches[entry.index] = 1;
      }
      bytesRead += endBytes - startBytes;
      onProgress?.({ bytesRead: Math.min(bytesRead, totalBytes), totalBytes });
      i = j;
      await yieldToEventLoop();
    }
  }
  signal?.throwIfAborted();
  onProgress?.({ bytesRead: totalBytes, totalBytes });
  return matches;
}
