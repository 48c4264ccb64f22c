import type { Database, SqlJsStatic } from 'sql.js';
import type {
  ListedDatabaseSession,
  SqlDatabase,
  SqlOpener,
} from '../engine/parse/dialects/opencode/database';
import { isOpenCodeDatabaseName } from '../engine/parse/dialects/opencode/database-name';
import type { ByteSource } from '../engine/parse/source';
import { SQL_WASM_URL } from './sql-wasm-url';

// SQLite in the browser (a worker or the page): sql.js, its script and .wasm, and our database
// reader, fetched on the first OpenCode database only (chunks of their own: the entry bundle
// does not carry them). Compiling
// the .wasm needs the page's CSP to allow 'wasm-unsafe-eval' (vite.config.ts).

let engine: Promise<SqlJsStatic> | undefined;

/** A custom strategy's sandbox has no fetch: it keeps this to read the .wasm (ui/custom/sandbox.ts). */
declare const self: { __compactlabSqlWasm?: () => Promise<ArrayBuffer> };

function wrap(db: Database): SqlDatabase {
  return {
    rows(sql, params = []) {
      const statement = db.prepare(sql);
      try {
        statement.bind([...params]);
        const out: Record<string, unknown>[] = [];
        while (statement.step()) out.push(statement.getAsObject());
        return out;
      } finally {
        statement.free();
      }
    },
    close: () => db.close(),
  };
}

const openSqlJsInBrowser: SqlOpener = async (bytes) => {
  engine ??= Promise.all([import('sql.js'), self.__compactlabSqlWasm?.()]).then(([m, wasmBinary]) =>
    m.default(wasmBinary ? { wasmBinary } : { locateFile: () => SQL_WASM_URL }),
  );
  const SQL = await engine;
  return wrap(new SQL.Database(bytes));
};

/** `sources` with an OpenCode database replaced by the session it names (database.ts). */
export async function expandDatabases(sources: ByteSource[]): Promise<ByteSource[]> {
  if (!sources.some((s) => isOpenCodeDatabaseName(s.name))) return sources;
  const { expandOpenCodeDatabases } = await import('../engine/parse/dialects/opencode/database');
  return expandOpenCodeDatabases(sources, openSqlJsInBrowser);
}

/** The sessions of a database (and its log), for the library's list. */
export async function listDatabaseSessions(
  db: ByteSource,
  wal: ByteSource | undefined,
): Promise<ListedDatabaseSession[]> {
  const { listOpenCodeDatabaseSessions } = await import('../engine/parse/dialects/opencode/database');
  return listOpenCodeDatabaseSessions(db, wal, openSqlJsInBrowser);
}
