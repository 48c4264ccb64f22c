/** Random-access bytes: a dropped File in the worker, a file on disk in Node, a buffer in tests. */
export interface ByteSource {
  readonly name: string;
  readonly sizeBytes: number;
  read(offsetBytes: number, lengthBytes: number): Promise<Uint8Array>;
}

/** A source over bytes (or text) held in memory. */
export function createMemorySource(name: string, content: Uint8Array | string): ByteSource {
  const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
  return {
    name,
    sizeBytes: bytes.byteLength,
    read: async (offsetBytes, lengthBytes) => bytes.subarray(offsetBytes, offsetBytes + lengthBytes),
  };
}

/** Bytes read at once by a read-ahead source once its reads run forward. */
export const READ_AHEAD_BYTES = 1024 * 1024;
/** A read this far past the previous one still counts as running forward (skipped entries). */
const FORWARD_GAP_BYTES = 256 * 1024;

/**
 * A source that reads ahead when its reads run forward through the file: the erosion chain, the
 * compaction request and the secrets scan read every entry of a span in order, one read each, and
 * in the page each read of a `File` is an asynchronous slice (26,000 of them took the Erosion tab
 * 34 s on a 100 MB session). A read in the window last read is served from it; a read just past
 * the previous one reads a window of `READ_AHEAD_BYTES` from there; any other read (the parse's
 * own chunks, an entry opened by a click) goes to the source as it is. One window is kept.
 */
export function createReadAheadSource(source: ByteSource, windowBytes = READ_AHEAD_BYTES): ByteSource {
  let held: { start: number; bytes: Uint8Array } | undefined;
  let lastEnd = -1;
  return {
    name: source.name,
    sizeBytes: source.sizeBytes,
    async read(offsetBytes, lengthBytes) {
      const end = offsetBytes + lengthBytes;
      const forward = lastEnd >= 0 && offsetBytes >= lastEnd && offsetBytes - lastEnd <= FORWARD_GAP_BYTES;
      lastEnd = end;
      if (held && offsetBytes >= held.start && end <= held.start + held.bytes.byteLength)
        return held.bytes.subarray(offsetBytes - held.start, end - held.start);
      if (!forward || lengthBytes >= windowBytes) return source.read(offsetBytes, lengthBytes);
      const bytes = await source.read(offsetBytes, Math.min(windowBytes, source.sizeBytes - offsetBytes));
      held = { start: offsetBytes, bytes };
      return bytes.subarray(0, Math.min(lengthBytes, bytes.byteLength));
    },
  };
}

/** Reads this long or longer (a parse's chunks) start the read of what follows them. */
const PREFETCH_MIN_BYTES = 2 * 1024 * 1024;

/**
 * A source that overlaps reading with parsing: after a forward read of `PREFETCH_MIN_BYTES` or
 * more (the line reader's chunks), it starts reading as many bytes from where that read ended, so
 * the next chunk is in when the parse of this one is done. In the page each read of a `File` is
 * an asynchronous slice, and the parse used to wait for each (issue 20: the worker sat idle for a
 * third of a 105 MB load). The last read and the one read ahead are kept: the line reader's next
 * read starts at its last newline, inside the last read, and is served from both (copied together
 * when it spans them). Smaller or backward reads go to the source and drop what is held.
 */
export function createPrefetchSource(source: ByteSource, minBytes = PREFETCH_MIN_BYTES): ByteSource {
  let last: { start: number; bytes: Uint8Array } | undefined;
  let ahead: { start: number; length: number; bytes: Promise<Uint8Array | undefined> } | undefined;
  const readAhead = (start: number, length: number) => {
    // A failed read ahead is read again when asked for (which then reports the error).
    const bytes = source.read(start, length).then(
      (b) => b,
      () => undefined,
    );
    ahead = { start, length, bytes };
  };
  return {
    name: source.name,
    sizeBytes: source.sizeBytes,
    async read(offsetBytes, lengthBytes) {
      const end = offsetBytes + lengthBytes;
      const forward = last !== undefined && offsetBytes >= last.start;
      if (lengthBytes < minBytes || (last !== undefined && !forward)) {
        last = undefined;
        ahead = undefined;
        return source.read(offsetBytes, lengthBytes);
      }
      const held: { start: number; bytes: Uint8Array }[] = last ? [last] : [];
      if (ahead && ahead.start < end && ahead.start + ahead.length > offsetBytes) {
        const bytes = await ahead.bytes;
        if (bytes) held.push({ start: ahead.start, bytes });
      }
      const parts: Uint8Array[] = [];
      let pos = offsetBytes;
      for (const h of held) {
        const hEnd = h.start + h.bytes.byteLength;
        if (h.start > pos || hEnd <= pos) continue;
        const part = h.bytes.subarray(pos - h.start, Math.min(hEnd, end) - h.start);
        parts.push(part);
        pos += part.byteLength;
        if (pos >= end) break;
      }
      if (pos < end) {
        const rest = await source.read(pos, end - pos);
        parts.push(rest);
        pos += rest.byteLength;
      }
      let bytes: Uint8Array;
      if (parts.length === 1) bytes = parts[0]!;
      else {
        bytes = new Uint8Array(pos - offsetBytes);
        let at = 0;
        for (const part of parts) {
          bytes.set(part, at);
          at += part.byteLength;
        }
      }
      last = { start: offsetBytes, bytes };
      const next = offsetBytes + bytes.byteLength;
      if (next < source.sizeBytes) readAhead(next, Math.min(lengthBytes, source.sizeBytes - next));
      else ahead = undefined;
      return bytes;
    },
  };
}
