import type { ByteSource } from '../engine/parse/source';
import { type BlobRead, readBlobDirect, WORKER_READ_MIN_BYTES } from './blob-reader';

/**
 * A ByteSource over a Blob/File: reads only the requested slice, so big files stay on disk.
 * `readLarge` makes the reads of at least `WORKER_READ_MIN_BYTES` (the parse's chunks).
 */
export function createBlobSource(name: string, blob: Blob, readLarge: BlobRead = readBlobDirect): ByteSource {
  return {
    name,
    sizeBytes: blob.size,
    read: (offsetBytes, lengthBytes) =>
      (lengthBytes >= WORKER_READ_MIN_BYTES ? readLarge : readBlobDirect)(blob, offsetBytes, lengthBytes),
  };
}
