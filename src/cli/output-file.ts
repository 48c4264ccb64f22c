import { closeSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';

// An output file (`export -o`, `report -o`) written whole or not at all: into
// `<target>.<pid>.part` beside it, renamed onto the target once complete. A run stopped on the way
// (Ctrl-C, a full disk, an error) removes the part: a file already at the target stays as it was,
// and no half-written file is left.

/** Characters gathered before a write (ours: few system calls, a buffer of about a megabyte). */
const BATCH_CHARS = 1 << 20;

/** A file error said of the target, not of its part (cli-args.ts words it: "x.jsonl: no such file or folder"). */
function ofTarget(error: unknown, target: string): unknown {
  if (error instanceof Error && 'path' in error) (error as NodeJS.ErrnoException).path = target;
  return error;
}

/** Writes `chunks` to `target` (each as it comes), then renames it into place; the characters written. */
export async function writeOutputFile(
  target: string,
  chunks: AsyncIterable<string> | Iterable<string>,
): Promise<number> {
  if (statSync(target, { throwIfNoEntry: false })?.isDirectory())
    throw Object.assign(new Error(`EISDIR: ${target}`), { code: 'EISDIR', path: target });
  const part = `${target}.${process.pid}.part`;
  let fd: number | undefined;
  const removePart = () => {
    if (fd !== undefined) closeSync(fd);
    fd = undefined;
    rmSync(part, { force: true });
  };
  // Ctrl-C while the file is written: the part goes, and the run ends as Ctrl-C ends it (130).
  // Heard before the part exists: a Ctrl-C between its creation and the listener killed the run
  // with the part left behind (a CI run's test sent it there, on a busy machine).
  const stop = () => {
    removePart();
    process.exit(130);
  };
  process.once('SIGINT', stop);
  try {
    fd = openSync(part, 'w');
  } catch (error) {
    process.off('SIGINT', stop);
    throw ofTarget(error, target);
  }
  let written = 0;
  try {
    let batch: string[] = [];
    let batchChars = 0;
    for await (const chunk of chunks) {
      batch.push(chunk);
      batchChars += chunk.length;
      written += chunk.length;
      if (batchChars < BATCH_CHARS) continue;
      writeSync(fd, batch.join(''));
      batch = [];
      batchChars = 0;
      // The chunks' reads settle as microtasks: a turn of the event loop lets a Ctrl-C be heard.
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (batch.length > 0) writeSync(fd, batch.join(''));
    closeSync(fd);
    fd = undefined;
    renameSync(part, target);
  } catch (error) {
    removePart();
    throw ofTarget(error, target);
  } finally {
    process.off('SIGINT', stop);
  }
  return written;
}
