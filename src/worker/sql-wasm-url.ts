import sqlWasmUrl from 'sql.js/dist/sql-wasm-browser.wasm?url';

// Where the page serves sql.js's .wasm: the engine's SQLite reader loads it (sqlite.ts), and a
// custom strategy's sandbox keeps one fetch of this fixed address before its network is removed
// (ui/custom/sandbox.ts).

export const SQL_WASM_URL: string = sqlWasmUrl;
