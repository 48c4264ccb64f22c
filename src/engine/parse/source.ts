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
