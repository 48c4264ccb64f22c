import { detectUtf16, ENCODING_SNIFF_BYTES, isValidUtf8, type Utf16ByteOrder } from './encoding';
import type { ByteSource } from './source';

/** Bytes read per step: large enough to amortise the async read, small enough to report progress. */
export const DEFAULT_CHUNK_BYTES = 4 * 1024 * 1024;

const NEWLINE = 0x0a;
const REPLACEMENT_CHARACTER = '\uFFFD';

/**
 * Called once per line, in order. `terminated` is false only for a last line that has no
 * trailing newline (a write that may have been cut off). Returning `false` stops the scan.
 */
export type LineSink = (
  text: string,
  lineNumber: number,
  offsetBytes: number,
  lengthBytes: number,
  terminated: boolean,
) => boolean | undefined;

export interface ScanOptions {
  chunkBytes?: number;
  signal?: AbortSignal;
  /** Called after each chunk with the bytes consumed so far in this source. */
  onBytes?: (bytesRead: number) => void;
  /** Called before the sink for a line whose bytes are not valid UTF-8 (decoded with U+FFFD). */
  onInvalidUtf8?: (lineNumber: number) => void;
  /** Called instead of reading any line when the source is UTF-16 text. */
  onUtf16?: (byteOrder: Utf16ByteOrder) => void;
  /**
   * Reads a line's bytes (`[start, end)` of `bytes`, newline excluded; at `offsetBytes` in the
   * source) before they are decoded: `null` counts the line without giving it to the sink, a string
   * is given to the sink instead of the line's text, undefined decodes it as usual. Lines are then
   * decoded one by one.
   */
  readLine?: (
    bytes: Uint8Array,
    start: number,
    end: number,
    offsetBytes: number,
  ) => string | null | undefined;
}

/**
 * Streams a source line by line. Each chunk is cut at its last newline and decoded in one call
 * (0x0A never occurs inside a UTF-8 multi-byte sequence, so the cut is always safe); the byte
 * offsets come from scanning the bytes for newlines, so they stay exact with non-ASCII text.
 * Invalid UTF-8 is checked only where the decoded chunk holds a U+FFFD (one native search per
 * chunk), so clean text keeps the fast path.
 */
export async function scanLines(
  source: ByteSource,
  sink: LineSink,
  options: ScanOptions = {},
): Promise<number> {
  const chunkBytes = Math.max(1, options.chunkBytes ?? DEFAULT_CHUNK_BYTES);
  const decoder = new TextDecoder('utf-8');
  let carry: Uint8Array = new Uint8Array(0);
  let carryOffset = 0; // file offset of carry[0]
  let lineNumber = 0;
  let position = 0;

  if (options.onUtf16 && source.sizeBytes > 0) {
    const head = await source.read(0, Math.min(ENCODING_SNIFF_BYTES, source.sizeBytes));
    const byteOrder = detectUtf16(head);
    if (byteOrder) {
      options.onUtf16(byteOrder);
      return 0;
    }
  }

  const checkUtf8 = (line: string, bytes: Uint8Array): void => {
    if (options.onInvalidUtf8 && line.includes(REPLACEMENT_CHARACTER) && !isValidUtf8(bytes)) {
      options.onInvalidUtf8(lineNumber);
    }
  };

  let stopped = false;
  const readLine = options.readLine;
  const emitSomeLines = (bytes: Uint8Array, baseOffset: number, end: number): void => {
    let start = 0;
    while (start < end) {
      const nl = bytes.indexOf(NEWLINE, start);
      const contentEnd = nl > start && bytes[nl - 1] === 13 ? nl - 1 : nl;
      lineNumber++;
      const read = readLine!(bytes, start, contentEnd, baseOffset + start);
      if (read !== null) {
        const line = read ?? decoder.decode(bytes.subarray(start, contentEnd));
        if (options.onInvalidUtf8 && line.includes(REPLACEMENT_CHARACTER))
          checkUtf8(line, bytes.subarray(start, nl));
        if (sink(line, lineNumber, baseOffset + start, nl - start, true) === false) {
          stopped = true;
          return;
        }
      }
      start = nl + 1;
    }
  };
  const emitLines = (bytes: Uint8Array, baseOffset: number, end: number): void => {
    if (readLine) {
      emitSomeLines(bytes, baseOffset, end);
      return;
    }
    // `end` is the index just past the last newline in `bytes`.
    const text = decoder.decode(bytes.subarray(0, end));
    const suspect = options.onInvalidUtf8 !== undefined && text.includes(REPLACEMENT_CHARACTER);
    let start = 0;
    let textStart = 0;
    while (start < end) {
      const nl = bytes.indexOf(NEWLINE, start);
      const textEnd = text.indexOf('\n', textStart);
      let line = text.slice(textStart, textEnd);
      if (line.length > 0 && line.charCodeAt(line.length - 1) === 13) line = line.slice(0, -1);
      lineNumber++;
      if (suspect) checkUtf8(line, bytes.subarray(start, nl));
      if (sink(line, lineNumber, baseOffset + start, nl - start, true) === false) {
        stopped = true;
        return;
      }
      start = nl + 1;
      textStart = textEnd + 1;
    }
  };

  // The next chunk is read while this one is split and parsed, so the parse does not wait for
  // the disk between chunks (the whole read used to be idle time on the main thread).
  const readAt = (at: number): Promise<Uint8Array> => {
    const read = source.read(at, Math.min(chunkBytes, source.sizeBytes - at));
    // A read nobody awaits (the scan stopped or threw first) must not fail as unhandled; an
    // awaited one still throws where it is awaited.
    read.catch(() => undefined);
    return read;
  };
  let next = position < source.sizeBytes ? readAt(position) : undefined;
  while (next) {
    options.signal?.throwIfAborted();
    const chunk = await next;
    position += Math.min(chunkBytes, source.sizeBytes - position);
    next = position < source.sizeBytes ? readAt(position) : undefined;
    options.signal?.throwIfAborted();

    let bytes: Uint8Array;
    if (carry.byteLength === 0) {
      bytes = chunk;
    } else {
      bytes = new Uint8Array(carry.byteLength + chunk.byteLength);
      bytes.set(carry, 0);
      bytes.set(chunk, carry.byteLength);
    }
    const lastNewline = bytes.lastIndexOf(NEWLINE);
    if (lastNewline < 0) {
      carry = bytes.slice();
    } else {
      emitLines(bytes, carryOffset, lastNewline + 1);
      carryOffset += lastNewline + 1;
      carry = bytes.slice(lastNewline + 1);
    }
    options.onBytes?.(position);
    if (stopped) return lineNumber;
  }

  if (carry.byteLength > 0) {
    let text = decoder.decode(carry);
    if (text.length > 0 && text.charCodeAt(text.length - 1) === 13) text = text.slice(0, -1);
    lineNumber++;
    checkUtf8(text, carry);
    sink(text, lineNumber, carryOffset, carry.byteLength, false);
  }
  return lineNumber;
}
