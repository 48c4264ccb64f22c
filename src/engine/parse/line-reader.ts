import {
  BINARY_SNIFF_BYTES,
  detectUtf16,
  ENCODING_SNIFF_BYTES,
  isValidUtf8,
  type Utf16ByteOrder,
} from './encoding';
import type { ByteSource } from './source';

/** Bytes read per step: large enough to amortise the async read, small enough to report progress. */
const DEFAULT_CHUNK_BYTES = 4 * 1024 * 1024;
/**
 * A whole file's first read (ours; `ScanOptions.firstChunkBytes`): the parse starts on it while
 * the next chunk is read, where a whole first chunk left the page's worker idle for it (48 ms of
 * a 1,383 ms parse on the 105 MB bench file, a Chrome trace of bench/browser-load.ts).
 */
export const FIRST_CHUNK_BYTES = 256 * 1024;

const NEWLINE = 0x0a;
const REPLACEMENT_CHARACTER = '\uFFFD';

/**
 * Called once per line, in order. `terminated` is false only for a last line that has no
 * trailing newline (a write that may have been cut off). Returning `false` stops the scan.
 */
type LineSink = (
  text: string,
  lineNumber: number,
  offsetBytes: number,
  lengthBytes: number,
  terminated: boolean,
) => boolean | undefined;

export interface ScanOptions {
  chunkBytes?: number;
  /** The first read's size, when smaller than a chunk (the next reads are chunks). */
  firstChunkBytes?: number;
  signal?: AbortSignal;
  /** Ends the scan before the next chunk (the lines before it kept); `onStop` gets where. */
  stop?: AbortSignal;
  onStop?: (position: number) => void;
  /** Called after each chunk with the bytes consumed so far in this source. */
  onBytes?: (bytesRead: number) => void;
  /** Called before the sink for a line whose bytes are not valid UTF-8 (decoded with U+FFFD). */
  onInvalidUtf8?: (lineNumber: number) => void;
  /** Called instead of reading any line when the source is UTF-16 text. */
  onUtf16?: (byteOrder: Utf16ByteOrder) => void;
  /** Called with the source's first bytes (up to `BINARY_SNIFF_BYTES`) before any line, when it is not UTF-16. */
  onHead?: (head: Uint8Array) => void;
  /**
   * Called when a read ends before the size the source had when it was opened (the file was
   * truncated while it was read), with the bytes there were: the scan ends there.
   */
  onShrunk?: (sizeBytes: number) => void;
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
 * Streams a source line by line. Each line is decoded on its own: a line of ASCII becomes a
 * one-byte string (half the memory, and `JSON.parse` reads it faster) even where its neighbours
 * hold other text, which decoding a whole chunk at once would make two-byte throughout. The byte
 * offsets come from scanning the bytes for newlines (0x0A never occurs inside a UTF-8 multi-byte
 * sequence), so they stay exact with non-ASCII text. A chunk ends at its last newline and the next
 * read starts just after it: the partial line is read again rather than copied onto the next
 * chunk, and a line longer than a chunk doubles the read until its newline is in (linear in the
 * line's length). Invalid UTF-8 is checked only for a line whose text holds a U+FFFD (a search that
 * a one-byte string answers at once), so clean text keeps the fast path.
 */
export async function scanLines(
  source: ByteSource,
  sink: LineSink,
  options: ScanOptions = {},
): Promise<number> {
  const chunkBytes = Math.max(1, options.chunkBytes ?? DEFAULT_CHUNK_BYTES);
  const decoder = new TextDecoder('utf-8');
  const size = source.sizeBytes;
  let lineNumber = 0;

  if ((options.onUtf16 || options.onHead) && size > 0) {
    const head = await source.read(
      0,
      Math.min(options.onHead ? BINARY_SNIFF_BYTES : ENCODING_SNIFF_BYTES, size),
    );
    const byteOrder = options.onUtf16 && detectUtf16(head.subarray(0, ENCODING_SNIFF_BYTES));
    if (byteOrder) {
      options.onUtf16!(byteOrder);
      return 0;
    }
    options.onHead?.(head);
  }

  const readLine = options.readLine;
  const onInvalidUtf8 = options.onInvalidUtf8;
  /** Gives the sink one line, `[start, end)` of `bytes` with its newline (if any) at `end`. */
  const emit = (
    bytes: Uint8Array,
    start: number,
    end: number,
    offset: number,
    terminated: boolean,
  ): boolean => {
    const contentEnd = end > start && bytes[end - 1] === 13 ? end - 1 : end;
    lineNumber++;
    const read = readLine?.(bytes, start, contentEnd, offset);
    if (read === null) return true;
    const text = read ?? decoder.decode(bytes.subarray(start, contentEnd));
    if (onInvalidUtf8 && text.includes(REPLACEMENT_CHARACTER) && !isValidUtf8(bytes.subarray(start, end)))
      onInvalidUtf8(lineNumber);
    return sink(text, lineNumber, offset, end - start, terminated) !== false;
  };

  // The next chunk is read while this one is split and parsed, so the parse does not wait for
  // the disk between chunks (the whole read used to be idle time on the main thread).
  const readAt = (at: number, length: number): Promise<Uint8Array> => {
    const read = source.read(at, length);
    // A read nobody awaits (the scan stopped or threw first) must not fail as unhandled; an
    // awaited one still throws where it is awaited.
    read.catch(() => undefined);
    return read;
  };
  /** File offset of the first byte not yet given to the sink. */
  let position = 0;
  let length = Math.min(chunkBytes, Math.max(1, options.firstChunkBytes ?? chunkBytes), size);
  let next = size > 0 ? readAt(0, length) : undefined;
  while (next) {
    options.signal?.throwIfAborted();
    if (options.stop?.aborted) {
      options.onStop?.(position);
      return lineNumber;
    }
    const bytes = await next;
    options.signal?.throwIfAborted();
    const atEnd = position + bytes.byteLength >= size || bytes.byteLength < length;
    if (bytes.byteLength < length) options.onShrunk?.(position + bytes.byteLength);
    const lastNewline = bytes.lastIndexOf(NEWLINE);
    if (lastNewline < 0 && !atEnd) {
      // One line longer than the read: read it again, twice as long.
      length = Math.min(2 * length, size - position);
      next = readAt(position, length);
      continue;
    }
    const consumed = lastNewline + 1;
    const from = position;
    position += consumed;
    length = Math.min(chunkBytes, size - position);
    next = !atEnd && length > 0 ? readAt(position, length) : undefined;

    let start = 0;
    while (start < consumed) {
      const nl = bytes.indexOf(NEWLINE, start);
      if (!emit(bytes, start, nl, from + start, true)) return lineNumber;
      start = nl + 1;
    }
    if (atEnd && consumed < bytes.byteLength) {
      // The last line, without a newline (a write that may have been cut off).
      emit(bytes, consumed, bytes.byteLength, from + consumed, false);
      position = from + bytes.byteLength;
    }
    options.onBytes?.(position);
  }
  return lineNumber;
}
