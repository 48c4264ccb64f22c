import type { Entry, SessionFile } from '../types';

// Claude Code's side-question agents (`agent-aside_question-*`) and compaction calls
// (`agent-acompact-*`, 2.1.72) write the main thread's records again into their own logs, with
// the same uuids, compaction boundaries included (docs/sources.md#fmt-around-compaction, #fmt-tolerate). Opened with the main
// file, those copies would count every boundary, turn and call twice. Files are read main first,
// so the first file to hold a uuid owns it and later copies in other files are folded. A second main file that
// copies the first's records (a session resumed or forked into a new file writes the history again,
// docs/sources.md#fmt-tolerate) folds them the same way, so the two read as one conversation.

/**
 * True when `entry` repeats a record another file already holds; counts it on
 * `file.foldedCopies`. `uuidsByFile` is the uuids seen so far, by file index.
 */
export function foldCopiedRecord(
  uuidsByFile: ReadonlyMap<number, ReadonlySet<string>>,
  entry: Entry,
  file: SessionFile,
): boolean {
  if (entry.uuid === undefined) return false;
  for (const [fileIndex, uuids] of uuidsByFile) {
    if (fileIndex !== entry.fileIndex && uuids.has(entry.uuid)) {
      file.foldedCopies = (file.foldedCopies ?? 0) + 1;
      return true;
    }
  }
  return false;
}

/** Copies folded over all files of a session. */
export function countFoldedCopies(files: readonly SessionFile[]): number {
  let total = 0;
  for (const file of files) total += file?.foldedCopies ?? 0;
  return total;
}
