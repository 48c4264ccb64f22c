import { closeSync, openSync, readSync, statSync } from 'node:fs';
import type { ByteSource } from '../engine/parse/source';

/**
 * A ByteSource over a file on disk: positional reads, the file opened per read so a source needs
 * no closing. The reads are synchronous: the command line and the stats workers have nothing else
 * to do meanwhile, and a read from the page cache is a copy, where an asynchronous one is three
 * thread-pool round trips (open, read, close) that left the parser idle between chunks. The
 * buffer is not zero-filled first (every byte of it is read into, or cut off).
 */
export function createNodeFileSource(path: string): ByteSource {
  const { size } = statSync(path);
  return {
    name: path,
    sizeBytes: size,
    async read(offsetBytes, lengthBytes) {
      const fd = openSync(path, 'r');
      try {
        const buffer = Buffer.allocUnsafeSlow(lengthBytes);
        let done = 0;
        while (done < lengthBytes) {
          const bytesRead = readSync(fd, buffer, done, lengthBytes - done, offsetBytes + done);
          if (bytesRead === 0) break;
          done += bytesRead;
        }
        // A plain Uint8Array over the same memory: a Buffer's `slice` is a view, not the copy
        // the engine expects of `Uint8Array.prototype.slice`.
        return new Uint8Array(buffer.buffer, buffer.byteOffset, done);
      } finally {
        closeSync(fd);
      }
    },
  };
}
