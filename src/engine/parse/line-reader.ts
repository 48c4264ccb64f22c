import type { ByteSource } from './source';

/** Bytes read per step: large enough to amortise the async read, small enough to report progress. */
export const DEFAULT_CHUNK_BYTES = 4 * 1024 * 1024;

const NEWLINE = 0x0a;

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
}

/**
 * Streams a source line by line. Each chunk is cut at its last newline and decoded in one call
 * (0x0A never occurs inside a UTF-8 multi-byte sequence, so the cut is always safe); the byte
 * offsets come from scanning the bytes for newlines, so they stay exact with non-ASCII text.
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

  let stopped = false;
  const emitLines = (bytes: Uint8Array, baseOffset: number, end: number): void => {
    // `end` is the index just past the last newline in `bytes`.
    const text = decoder.decode(bytes.subarray(0, end));
    let start = 0;
    let textStart = 0;
    while (start < end) {
      const nl = bytes.indexOf(NEWLINE, start);
      const textEnd = text.indexOf('\n', textStart);
      let line = text.slice(textStart, textEnd);
      if (line.length > 0 && line.charCodeAt(line.length - 1) === 13) line = line.slice(0, -1);
      lineNumber++;
      if (sink(line, lineNumber, baseOffset + start, nl - start, true) === false) {
        stopped = true;
        return;
      }
      start = nl + 1;
      textStart = textEnd + 1;
    }
  };

  while (position < source.sizeBytes) {
    options.signal?.throwIfAborted();
    const length = Math.min(chunkBytes, source.sizeBytes - position);
    const chunk = await source.read(position, length);
    position += length;
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
    sink(text, lineNumber, carryOffset, carry.byteLength, false);
  }
  return lineNumber;
}
