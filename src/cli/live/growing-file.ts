import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import type { GrowingSource } from '../../engine/parse/incremental-reader';

/**
 * A GrowingSource over a path: the file is opened at each size check, so a file replaced under
 * the same name (a new inode) is seen as it is now, not as the descriptor first opened. A file
 * that is gone (deleted, not yet written) reads as empty, waited for until it is back; anything
 * but a regular file (a FIFO would block the open, a folder cannot be read) is an error that says so.
 */
export function createGrowingFileSource(path: string): GrowingSource & { close(): void } {
  let fd: number | undefined;
  const reopen = () => {
    if (fd !== undefined) closeSync(fd);
    fd = undefined;
    fd = openSync(path, 'r');
    return fd;
  };
  return {
    async getSizeBytes() {
      let isFile: boolean;
      try {
        isFile = statSync(path).isFile();
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        if (fd !== undefined) closeSync(fd);
        fd = undefined;
        return 0;
      }
      if (!isFile)
        throw new Error(`${path} is not a regular file (a folder, a FIFO, a device): it cannot be followed`);
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
