import type { Database, SqlJsStatic } from 'sql.js';
import type { SqlDatabase, SqlOpener } from '../engine/parse/dialects/opencode/database';

// SQLite in the browser (a worker or the page): sql.js, its script and .wasm fetched on the first
// OpenCode database only (a chunk of their own: the entry bundle does not carry them). Compiling
// the .wasm needs the page's CSP to allow 'wasm-unsafe-eval' (vite.config.ts).

let engine: Promise<SqlJsStatic> | undefined;

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

export const openSqlJsInBrowser: SqlOpener = async (bytes) => {
  engine ??= Promise.all([
    import('sql.js'),
    import('sql.js/dist/sql-wasm-browser.wasm?url').then((m) => m.default as string),
  ]).then(([m, wasmUrl]) => m.default({ locateFile: () => wasmUrl }));
  const SQL = await engine;
  return wrap(new SQL.Database(bytes));
};
