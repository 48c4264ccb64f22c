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
// opened (picked, dropped) and kept with the root's listing, so the rows restored after a reload
// and those live mode replaces take them too. The cache keeps each row as its log gave it: a
// rename changes the names file, not the session's files, so the name is put on as a row is
// listed, never cached.

type FolderNames = ReadonlyMap<string, SessionNamesFile>;

const NO_NAMES: FolderNames = new Map();

/** Each listed root's names files, by root id. */
const rootNames = new Map<string, FolderNames>();

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
function nameRow<R extends LibraryRow | undefined>(key: string, row: R, names: FolderNames): R {
  if (!row || names.size === 0) return row;
  return withListedName(row, findSessionNamesFile(key, names)) as R;
}

/** Keeps a root's names files (a folder opened, or its saved listing restored); none: forgets them. */
export function setRootNames(root: string, files: readonly SessionNamesFile[] | undefined): FolderNames {
  const names = new Map((files ?? []).map((f) => [f.path, f]));
  if (names.size > 0) rootNames.set(root, names);
  else rootNames.delete(root);
  return names;
}

/** A listed session's row under its name, from the names kept for its root. */
export function nameListedRow<R extends LibraryRow | undefined>(root: string, key: string, row: R): R {
  return nameRow(key, row, rootNames.get(root) ?? NO_NAMES);
}
