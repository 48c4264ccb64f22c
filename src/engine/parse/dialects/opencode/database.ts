import { isOpenCodeDatabaseName, splitDatabaseName, walNameOf } from './database-name';
import { mergeWal } from './sqlite-wal';

// OpenCode's newer storage: one SQLite database, `~/.local/share/opencode/opencode.db` (with its
// `-wal`), in place of the JSON files (storage.ts). Its tables hold the same records: `session`
// (one row per session, its fields as columns: id, project_id, parent_id, directory, title,
// version, time_created, time_updated), `message` (id, session_id, time_created, data: the
// message's JSON without its id and sessionID) and `part` (id, message_id, session_id, data: the
// part's JSON without its ids); checked on a real database of OpenCode 1.17.3 (its schema:
// tests/fixtures/opencode/README.md). Each session becomes the files the JSON storage would hold,
// read by the same dialect. The SQL engine is given (sql.js in the worker and the command line):
// the engine stays free of WebAssembly and of how it is loaded.

/** A file's bytes (parse/source.ts `ByteSource`, restated: a dialect imports only dialect code). */
export interface ByteSource {
  readonly name: string;
  readonly sizeBytes: number;
  read(offsetBytes: number, lengthBytes: number): Promise<Uint8Array>;
}

const encoder = new TextEncoder();
/** One record as the storage's file would hold it. */
function createMemorySource(name: string, text: string): ByteSource {
  const bytes = encoder.encode(text);
  return {
    name,
    sizeBytes: bytes.byteLength,
    read: async (offsetBytes, lengthBytes) => bytes.subarray(offsetBytes, offsetBytes + lengthBytes),
  };
}

/** A database opened by the caller's SQL engine: rows of one query as objects. */
export interface SqlDatabase {
  rows(sql: string, params?: readonly (string | number)[]): Record<string, unknown>[];
  close(): void;
}

/** Opens database bytes (sql.js: `new SQL.Database(bytes)`). */
export type SqlOpener = (bytes: Uint8Array) => Promise<SqlDatabase>;

export { isOpenCodeDatabaseName, splitDatabaseName, walNameOf } from './database-name';

/** One session of a database: its storage files, ready for `parseSession`. */
export interface DatabaseSession {
  id: string;
  title: string;
  parentId?: string;
  createdMs?: number;
  updatedMs?: number;
  sources: ByteSource[];
}

export interface OpenedDatabase {
  sessions: DatabaseSession[];
  /** What was read from the log, or why not ("no log": the database alone). */
  wal: string;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const int = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function parseData(text: unknown): Record<string, unknown> {
  if (typeof text !== 'string') return {};
  try {
    const v = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? v : {};
  } catch {
    return { _unreadable: text.slice(0, 200) };
  }
}

/**
 * The sessions of an OpenCode database (`db`, with its write-ahead log `wal` when there is one),
 * each as the storage files its rows stand for, named under `<db name>/`.
 */
export async function openOpenCodeDatabase(
  db: ByteSource,
  wal: ByteSource | undefined,
  open: SqlOpener,
): Promise<OpenedDatabase> {
  let bytes = await db.read(0, db.sizeBytes);
  let walNote = 'no log';
  if (wal && wal.sizeBytes > 0) {
    const merged = mergeWal(bytes, await wal.read(0, wal.sizeBytes));
    bytes = merged.bytes;
    walNote =
      merged.skipped ??
      `${merged.framesApplied} committed frames of the log read${merged.framesIgnored > 0 ? `, ${merged.framesIgnored} uncommitted or stale left out` : ''}`;
  }
  const sql = await open(bytes);
  try {
    return { sessions: readSessions(sql, db.name), wal: walNote };
  } finally {
    sql.close();
  }
}

function readSessions(sql: SqlDatabase, dbName: string): DatabaseSession[] {
  const tables = new Set(
    sql.rows("SELECT name FROM sqlite_master WHERE type = 'table'").map((r) => String(r.name)),
  );
  for (const t of ['session', 'message', 'part'])
    if (!tables.has(t)) throw new Error(`${dbName} has no ${t} table: not an OpenCode database`);
  const root = dbName.replace(/\/+$/, '');
  const sessions: DatabaseSession[] = [];
  for (const row of sql.rows('SELECT * FROM session ORDER BY time_created, id')) {
    const id = String(row.id);
    const project = str(row.project_id) ?? 'global';
    const info = {
      id,
      projectID: project,
      ...(str(row.parent_id) ? { parentID: row.parent_id } : {}),
      directory: str(row.directory) ?? '',
      title: str(row.title) ?? '',
      version: str(row.version) ?? '',
      time: { created: int(row.time_created), updated: int(row.time_updated) },
    };
    const sources: ByteSource[] = [
      createMemorySource(`${root}/session/${project}/${id}.json`, JSON.stringify(info)),
    ];
    for (const m of sql.rows('SELECT id, data FROM message WHERE session_id = ? ORDER BY id', [id])) {
      const record = { id: String(m.id), sessionID: id, ...parseData(m.data) };
      sources.push(createMemorySource(`${root}/message/${id}/${record.id}.json`, JSON.stringify(record)));
    }
    for (const p of sql.rows('SELECT id, message_id, data FROM part WHERE session_id = ? ORDER BY id', [
      id,
    ])) {
      const messageId = String(p.message_id);
      const record = { id: String(p.id), sessionID: id, messageID: messageId, ...parseData(p.data) };
      sources.push(createMemorySource(`${root}/part/${messageId}/${record.id}.json`, JSON.stringify(record)));
    }
    sessions.push({
      id,
      title: info.title,
      ...(info.parentID ? { parentId: String(info.parentID) } : {}),
      createdMs: int(row.time_created),
      updatedMs: int(row.time_updated),
      sources,
    });
  }
  return sessions;
}

/** A database named by `name` (its `#session` left out) read as one file: `read` what it needs. */
function dbSource(source: ByteSource, dbPath: string): ByteSource {
  return { name: dbPath, sizeBytes: source.sizeBytes, read: (o, l) => source.read(o, l) };
}

/**
 * `sources` with each OpenCode database (and its `-wal`) replaced by the files of the session it
 * names (`opencode.db#ses_…`), or of its only session; a database of several sessions named
 * without one is an error that lists them. Sources without a database come back as they are, and
 * `open` is not called (the SQL engine loads only for a database).
 */
export async function expandOpenCodeDatabases(sources: ByteSource[], open: SqlOpener): Promise<ByteSource[]> {
  if (!sources.some((s) => isOpenCodeDatabaseName(s.name))) return sources;
  const out: ByteSource[] = [];
  const used = new Set<ByteSource>();
  for (const source of sources) {
    if (!isOpenCodeDatabaseName(source.name)) continue;
    const { dbPath, sessionId } = splitDatabaseName(source.name);
    const wal = sources.find((s) => s.name === walNameOf(dbPath));
    if (wal) used.add(wal);
    used.add(source);
    const { sessions } = await openOpenCodeDatabase(dbSource(source, dbPath), wal, open);
    const chosen =
      sessionId !== undefined
        ? sessions.find((s) => s.id === sessionId)
        : sessions.length === 1
          ? sessions[0]
          : undefined;
    if (!chosen) {
      const listed = sessions.map((s) => `  ${dbPath}#${s.id}  ${JSON.stringify(s.title)}`).join('\n');
      throw new Error(
        sessionId !== undefined
          ? `${dbPath} has no session ${sessionId}; it holds:\n${listed}`
          : `${dbPath} holds ${sessions.length} sessions; name one as ${dbPath}#<session id>:\n${listed}`,
      );
    }
    out.push(...chosen.sources);
  }
  // Files given with the database (a -shm, another log) are left out; any other file stays.
  for (const s of sources) if (!used.has(s) && !/\.db-(?:wal|shm)$/.test(s.name)) out.push(s);
  return out;
}

/** The sessions of a database file (and its log, when given) without their files: for a list. */
export async function listOpenCodeDatabaseSessions(
  db: ByteSource,
  wal: ByteSource | undefined,
  open: SqlOpener,
): Promise<ListedDatabaseSession[]> {
  const { sessions } = await openOpenCodeDatabase(db, wal, open);
  return sessions.map(({ sources, ...rest }) => ({
    ...rest,
    sizeBytes: sources.reduce((sum, source) => sum + source.sizeBytes, 0),
  }));
}

/**
 * A database's session for a list: `sizeBytes` is its own records as the reader reads them (the
 * session, its messages and parts, as JSON), where the file's size is every session's and more.
 */
export type ListedDatabaseSession = Omit<DatabaseSession, 'sources'> & { sizeBytes: number };
