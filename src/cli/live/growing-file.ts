import { type FileHandle, open, stat } from 'node:fs/promises';
import type { GrowingSource } from '../../engine/parse/incremental-reader';

/** No file at the path (deleted, not yet written): thrown by a source made with `missing: 'throw'`. */
export class FileMissingError extends Error {}

/**
 * A GrowingSource over a path: the file is opened at each size check, so a file replaced under
 * the same name (a new inode) is seen as it is now, not as the descriptor first opened. A file
 * that is gone (deleted, not yet written) reads as empty, waited for until it is back, or (`missing:
 * 'throw'`, `watch`: a gone file is said, its last figures kept, not read as an empty session)
 * throws `FileMissingError`; anything but a regular file (a FIFO would block the open, a folder
 * cannot be read) is an error that says so.
 * Every call is asynchronous: a slow or stuck disk holds this read, never the thread, so a caller
 * with a time budget (the status line) still answers on time.
 */
export function createGrowingFileSource(
  path: string,
  { missing = 'empty' }: { missing?: 'empty' | 'throw' } = {},
): GrowingSource & { close(): void } {
  let handle: FileHandle | undefined;
  const drop = () => {
    void handle?.close().catch(() => {});
    handle = undefined;
  };
  const reopen = async () => {
    drop();
    handle = await open(path, 'r');
    return handle;
  };
  return {
    async getSizeBytes() {
      let isFile: boolean;
      try {
        isFile = (await stat(path)).isFile();
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        drop();
        if (missing === 'throw') throw new FileMissingError(`no file at ${path}`);
        return 0;
      }
      if (!isFile)
        throw new Error(`${path} is not a regular file (a folder, a FIFO, a device): it cannot be followed`);
      return (await (await reopen()).stat()).size;
    },
    async read(offsetBytes, lengthBytes) {
      const file = handle ?? (await reopen());
      const buffer = new Uint8Array(lengthBytes);
      let done = 0;
      while (done < lengthBytes) {
        const { bytesRead } = await file.read(buffer, done, lengthBytes - done, offsetBytes + done);
        if (bytesRead === 0) break;
        done += bytesRead;
      }
      return done === lengthBytes ? buffer : buffer.subarray(0, done);
    },
    close: drop,
  };
}
