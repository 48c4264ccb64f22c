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
