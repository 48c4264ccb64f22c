// The names of OpenCode's SQLite storage (database.ts), apart from its reader: detection and
// grouping need only these, and the page loads the reader (and SQLite) only for a database.

/**
 * `opencode.db` (and a copy's `opencode-….db`), optionally naming one of its sessions after `#`
 * (`opencode.db#ses_…`: how a library row and the command line pick one); its log `-wal`.
 */
export const OPENCODE_DB_NAME = /(?:^|\/)(opencode[^/#]*\.db)(?:#(ses_[0-9A-Za-z]+))?$/;
export const OPENCODE_WAL_NAME = /(?:^|\/)opencode[^/#]*\.db-wal$/;
export const isOpenCodeDatabaseName = (path: string): boolean => OPENCODE_DB_NAME.test(path);
/** The database's own path (without `#session`) and the session it names, if any. */
export function splitDatabaseName(path: string): { dbPath: string; sessionId?: string } {
  const hash = path.indexOf('#');
  return hash < 0 ? { dbPath: path } : { dbPath: path.slice(0, hash), sessionId: path.slice(hash + 1) };
}
export const walNameOf = (dbPath: string): string => `${dbPath}-wal`;
