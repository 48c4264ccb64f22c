import type { SessionGroup } from '../../engine/library/group-files';
import { isOpenCodeDatabaseName, walNameOf } from '../../engine/parse/dialects/opencode/database-name';
import { listDatabaseFileSessions } from '../../worker/scan-pool';
import type { FolderFile } from './open-folder';

// A folder's OpenCode databases as the library lists them: a row per session a database holds,
// each sized by its own records.

/**
 * `files` with each OpenCode database replaced by one entry per session it holds, named
 * `opencode.db#ses_…` (the same file: the scan and the load read that session from it). SQLite
 * loads here only when there is a database; one that cannot be read stays as it is (its scan
 * says why).
 */
export async function listDatabaseSessions(files: FolderFile[]): Promise<FolderFile[]> {
  if (!files.some((f) => isOpenCodeDatabaseName(f.path) && !f.path.includes('#'))) return files;
  const out: FolderFile[] = [];
  for (const f of files) {
    if (!isOpenCodeDatabaseName(f.path) || f.path.includes('#')) {
      out.push(f);
      continue;
    }
    const wal = files.find((w) => w.path === walNameOf(f.path));
    try {
      const sessions = await listDatabaseFileSessions(
        { name: f.path, blob: f.file },
        wal && { name: wal.path, blob: wal.file },
      );
      for (const s of sessions) out.push({ ...f, path: `${f.path}#${s.id}`, sessionBytes: s.sizeBytes });
    } catch {
      out.push(f);
    }
  }
  return out;
}

export const sizeOf = (g: SessionGroup<FolderFile>) => g.files.reduce((s, f) => s + f.sizeBytes, 0);
/**
 * The size a row shows: a database's session is its own records (its log and the file counted for
 * its scan's progress, not for it: three sessions of a 6 MB database listed 18 MB).
 */
export const shownSizeOf = (g: SessionGroup<FolderFile>) =>
  g.files.some((f) => f.sessionBytes !== undefined)
    ? g.files.reduce((s, f) => s + (f.sessionBytes ?? 0), 0)
    : sizeOf(g);
