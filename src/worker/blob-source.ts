import type { ByteSource } from '../engine/parse/source';

/** A ByteSource over a Blob/File: reads only the requested slice, so big files stay on disk. */
export function createBlobSource(name: string, blob: Blob): ByteSource {
  return {
    name,
    sizeBytes: blob.size,
    read: async (offsetBytes, lengthBytes) =>
      new Uint8Array(await blob.slice(offsetBytes, offsetBytes + lengthBytes).arrayBuffer()),
  };
}
