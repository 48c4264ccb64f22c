import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateSession } from '../../sample/generate-session';
import { main } from '../../src/cli/main';
import { SETTING_COLUMNS } from '../../src/engine/stats/records';

// The README (and docs/cost.md) show a DuckDB query over `compactlab stats --strategy`'s NDJSON
// for a team's sessions. The command shown runs as written (a generated folder for its
// `~/.claude/projects`), and every column its queries name is a column that output has, on its
// session rows, with a number where the query sums it.

const ROOT = resolve(__dirname, '../..');
const DOCS = ['README.md', 'docs/cost.md'];

/** The SQL of a doc's DuckDB examples: from each SELECT over read_ndjson_auto to its end. */
function getQueries(text: string): string[] {
  return [...text.matchAll(/SELECT[\s\S]*?read_ndjson_auto\([\s\S]*?(?:;|"\n)/g)].map((m) => m[0]);
}

const SQL_WORDS = new Set(['SELECT', 'AS', 'FROM', 'WHERE', 'GROUP', 'BY', 'ORDER', 'AND', 'DESC', 'ASC']);

/** The columns a query reads: its identifiers less keywords, functions, aliases and string literals. */
function getColumns(sql: string): { read: string[]; summed: string[] } {
  const bare = sql
    .replace(/'[^']*'/g, ' ')
    .replace(/--[^\n]*/g, ' ')
    .replace(/\\"/g, '"');
  const aliases = new Set([...bare.matchAll(/\bAS\s+(\w+)/gi)].map((m) => m[1]!));
  const read = new Set<string>();
  for (const m of bare.matchAll(/"?\b([A-Za-z_]\w*)\b"?(\s*\()?/g)) {
    const word = m[1]!;
    if (m[2] || SQL_WORDS.has(word.toUpperCase()) || aliases.has(word)) continue;
    if (/^\d/.test(word)) continue;
    read.add(word);
  }
  const summed = [...bare.matchAll(/\bsum\((\w+)\)/gi)].map((m) => m[1]!);
  return { read: [...read], summed };
}

describe("the docs' DuckDB query over stats' NDJSON", () => {
  const queries = DOCS.flatMap((doc) =>
    getQueries(readFileSync(join(ROOT, doc), 'utf8')).map((sql) => ({ doc, sql })),
  );

  it('is in the README and docs/cost.md', () => {
    expect(queries.map((q) => q.doc)).toEqual(expect.arrayContaining(DOCS));
  });

  it('names only columns stats --strategy writes, and its command runs as written', async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const command = readme.match(/npx compactlab (stats [^\n>]*--strategy[^\n>]*?)\s*> team\.ndjson/)?.[1];
    expect(command, 'the README shows the stats command that writes team.ndjson').toBeDefined();
    const folder = join(mkdtempSync(join(tmpdir(), 'compactlab-duckdb-')), 'projects');
    for (let i = 0; i < 3; i++)
      for (const f of generateSession({ seed: 70 + i, apiCalls: 120 + 40 * i }).files) {
        const p = join(folder, `-home-ada-p${i}`, f.name);
        mkdirSync(dirname(p), { recursive: true });
        writeFileSync(p, f.text);
      }
    const args = command!.split(/\s+/).map((a) => (a === '~/.claude/projects' ? folder : a));
    const out: string[] = [];
    expect(await main([...args, '--jobs', '0'], (t) => out.push(t))).toBe(0);
    const rows = out.map((l) => JSON.parse(l) as Record<string, unknown>);
    const sessions = rows.filter((r) => r.row === 'session');
    expect(sessions.length).toBeGreaterThan(0);
    for (const { doc, sql } of queries) {
      const { read, summed } = getColumns(sql);
      expect(read.length, `${doc}: columns found in ${sql}`).toBeGreaterThan(3);
      for (const column of read) {
        expect(SETTING_COLUMNS as readonly string[], `${doc} reads "${column}"`).toContain(column);
        // Every row has every key (null where absent): the column holds a value on session rows.
        for (const r of sessions) expect(r[column], `${doc}: "${column}" of a session row`).not.toBeNull();
      }
      for (const column of summed) for (const r of sessions) expect(typeof r[column], column).toBe('number');
    }
  });
});
