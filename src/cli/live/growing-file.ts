import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { GrowingSource } from '../../engine/parse/incremental-reader';

/**
 * A GrowingSource over a path: the file is opened at each size check, so a file replaced under
 * the same name (a new inode) is seen as it is now, not as the descriptor first opened.
 */
export function createGrowingFileSource(path: string): GrowingSource & { close(): void } {
  let fd: number | undefined;
  const reopen = () => {
    if (fd !== undefined) closeSync(fd);
    fd = openSync(path, 'r');
    return fd;
  };
  return {
    async getSizeBytes() {
      return fstatSync(reopen()).size;
    },
    async read(offsetBytes, lengthBytes) {
      const handle = fd ?? reopen();
      const buffer = new Uint8Array(lengthBytes);
      let done = 0;
      while (done < lengthBytes) {
        const n = readSync(handle, buffer, done, lengthBytes - done, offsetBytes + done);
        if (n === 0) break;
        done += n;
      }
      return done === lengthBytes ? buffer : buffer.subarray(0, done);
    },
    close() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}
