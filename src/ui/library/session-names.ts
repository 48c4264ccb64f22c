import {
  findSessionNamesFile,
  isSessionNamesPath,
  MAX_SESSION_NAMES_BYTES,
  readSessionNamesFile,
  type SessionNamesFile,
  withListedName,
} from '../../engine/library/session-names';
import type { LibraryRow } from '../../engine/library/library-row';

// A listed folder's sessions under the names their agent lists them by (Codex's
// `session_index.jsonl`, engine/library/session-names.ts), read from the folder's files when it is
// opened. The cache keeps each row as its log gave it: a rename changes the names file, not the
// session's files, so the name is put on as a row is listed, never cached.

type FolderNames = ReadonlyMap<string, SessionNamesFile>;

/** The folder's names files, read (one that is too large or unreadable is left out). */
export async function readFolderNames(
  files: readonly { path: string; sizeBytes: number; file: Blob }[],
): Promise<FolderNames> {
  const out = new Map<string, SessionNamesFile>();
  for (const f of files) {
    if (!isSessionNamesPath(f.path) || f.sizeBytes > MAX_SESSION_NAMES_BYTES) continue;
    try {
      const read = readSessionNamesFile(f.path, await f.file.text());
      if (read) out.set(f.path, read);
    } catch {
      // unreadable: the logs' own names stay
    }
  }
  return out;
}

/** The session's row under the name the nearest names file above `key` gives it. */
export function nameRow<R extends LibraryRow | undefined>(key: string, row: R, names: FolderNames): R {
  if (!row || names.size === 0) return row;
  return withListedName(row, findSessionNamesFile(key, names)) as R;
}
