import type { Database, SqlJsStatic } from 'sql.js';
import type { SqlDatabase, SqlOpener } from '../engine/parse/dialects/opencode/database';

// SQLite for the command line: sql.js (SQLite compiled to WebAssembly), loaded on the first
// OpenCode database only; in Node it finds its .wasm beside its script.

let engine: Promise<SqlJsStatic> | undefined;

function wrapSqlJs(db: Database): SqlDatabase {
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

export const openSqlJsInNode: SqlOpener = async (bytes) => {
  engine ??= import('sql.js').then((m) => m.default());
  const SQL = await engine;
  return wrapSqlJs(new SQL.Database(bytes));
};
