import { statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type { ByteSource } from '../engine/parse/source';

/** A ByteSource over a file on disk (positional reads; the file is opened per read). */
export function createNodeFileSource(path: string): ByteSource {
  const { size } = statSync(path);
  return {
    name: path,
    sizeBytes: size,
    async read(offsetBytes, lengthBytes) {
      const handle = await open(path, 'r');
      try {
        const buffer = new Uint8Array(lengthBytes);
        let done = 0;
        while (done < lengthBytes) {
          const { bytesRead } = await handle.read(buffer, done, lengthBytes - done, offsetBytes + done);
          if (bytesRead === 0) break;
          done += bytesRead;
        }
        return done === lengthBytes ? buffer : buffer.subarray(0, done);
      } finally {
        await handle.close();
      }
    },
  };
}
