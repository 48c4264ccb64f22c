import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli';
import { openPathSources } from '../../src/cli/session-files';
import { findSessions } from '../../src/cli/stats/find-sessions';
import { scanSession } from '../../src/engine/library/scan-session';
import { CORPUS, corpusOrSkip } from '../helpers/corpus';

// `compactlab stats --by day|project` over two real corpus folders (other people's Claude Code
// and Cline logs, read in place): a record per group and a total, the same in threads and in
// this one, the total the list's own cost column summed; the zone moves calls between days, never
// changes the totals. (The grouping itself is checked against the raw records in
// tests/corpus/usage.test.ts.)

const present = corpusOrSkip('stats --by test');
const FOLDERS = present ? [join(CORPUS, 'aistrad__work'), join(CORPUS, 'iansherr__claude-code-log')] : [];

const run = runCli;

const ndjson = (lines: string[]) => lines.map((l) => JSON.parse(l) as Record<string, string | number>);
const sum = (rows: Record<string, string | number>[], key: string) =>
  rows.reduce((s, r) => s + Number(r[key] ?? 0), 0);

describe.skipIf(!present)('compactlab stats --by', () => {
  it('by day: a record per local date, then the total; the list’s cost column summed', async () => {
    const { code, lines } = await run(['stats', ...FOLDERS, '--by', 'day', '--tz', 'UTC', '--jobs', '0']);
    expect(code).toBe(0);
    const rows = ndjson(lines);
    const total = rows.at(-1)!;
    const days = rows.slice(0, -1);
    expect(total.row).toBe('total');
    expect(days.every((r) => r.row === 'day' && /^\d{4}-\d\d-\d\d$/.test(String(r.day)))).toBe(true);
    expect(days.map((r) => r.day)).toEqual([...days.map((r) => r.day)].sort());
    expect(days.every((r) => r.timeZone === 'UTC')).toBe(true);
    for (const key of [
      'apiCalls',
      'inputTokens',
      'outputTokens',
      'cacheReadInputTokens',
      'cacheCreationInputTokens',
    ])
      expect(sum(days, key), key).toBe(total[key]);
    expect(Number(total.costUsd)).toBeCloseTo(sum(days, 'costUsd'), 4);

    let listCost = 0;
    let listSessions = 0;
    for (const g of await findSessions(FOLDERS)) {
      const row = await scanSession(await openPathSources(g.paths));
      listCost += row.costUsd;
      if (row.usage.length > 0) listSessions++;
    }
    expect(Number(total.costUsd)).toBeCloseTo(listCost, 4);
    expect(total.sessions).toBe(listSessions);
    expect(Number(total.apiCalls)).toBeGreaterThan(500);
    // A session across midnight (UTC) is in two days' counts.
    expect(sum(days, 'sessions')).toBeGreaterThan(Number(total.sessions));
  });

  it('threads or not, any zone: the same total; the zone moves calls between days', async () => {
    const utc = ndjson((await run(['stats', ...FOLDERS, '--by', 'day', '--tz', 'UTC', '--jobs', '2'])).lines);
    const tokyo = ndjson(
      (await run(['stats', ...FOLDERS, '--by', 'day', '--tz', 'Asia/Tokyo', '--jobs', '0'])).lines,
    );
    const { timeZone: _u, ...utcTotal } = utc.at(-1)!;
    const { timeZone: _t, ...tokyoTotal } = tokyo.at(-1)!;
    expect(tokyoTotal).toEqual(utcTotal);
    expect(tokyo.slice(0, -1).map((r) => [r.day, r.apiCalls])).not.toEqual(
      utc.slice(0, -1).map((r) => [r.day, r.apiCalls]),
    );
  });

  it('by project: the working directories, most expensive first; CSV and table', async () => {
    const rows = ndjson((await run(['stats', ...FOLDERS, '--by', 'project', '--jobs', '0'])).lines);
    const projects = rows.slice(0, -1);
    expect(projects.map((r) => r.project)).toContain('/home/aiscend/work/vibelife');
    expect(projects.find((r) => r.project === '/home/aiscend/work/vibelife')?.name).toBe('vibelife');
    const costs = projects.map((r) => Number(r.costUsd));
    expect(costs).toEqual([...costs].sort((a, b) => b - a));

    const csv = (await run(['stats', ...FOLDERS, '--by', 'project', '--csv', '--jobs', '0'])).lines;
    expect(csv[0]).toBe(
      'row,project,name,sessions,apiCalls,inputTokens,outputTokens,cacheReadInputTokens,cacheCreationInputTokens,costUsd,unpricedCalls,models,pricesAsOf',
    );
    expect(csv).toHaveLength(rows.length + 1);

    const table = (await run(['stats', ...FOLDERS, '--by', 'project', '--table', '--jobs', '0'])).lines;
    expect(table[0]).toMatch(
      /^Project\s+Sessions\s+Calls\s+Input\s+Output\s+Cache read\s+Cache write\s+Cost\s+Folder$/,
    );
    expect(table.at(-1)).toMatch(/^Total\s/);
    expect(table.at(-1)).toContain(
      `$${Number(rows.at(-1)!.costUsd).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`,
    );
    expect(table).toHaveLength(projects.length + 3);
  });

  // A real Windows machine's Claude Code and Codex logs of one folder: one Codex rollout spells
  // its drive letter `c:`, every other log `C:`. Usage by project listed the folder twice.
  it('by project: one Windows folder is one project, whatever case its drive letter was logged in', async () => {
    const folder = join(CORPUS, 'LAF-US__IDAHO-VAULT');
    // The plain count: each session file's first working directory (Claude Code's `cwd`, Codex's
    // `session_meta` payload), the sessions of each folder as Windows names folders (any case).
    const firsts: string[] = [];
    for (const file of readdirSync(folder).filter((f) => f.endsWith('.jsonl'))) {
      for (const line of readFileSync(join(folder, file), 'utf8').split('\n')) {
        let r: { cwd?: unknown; payload?: { cwd?: unknown } };
        try {
          r = JSON.parse(line);
        } catch {
          continue;
        }
        const cwd = r?.cwd ?? r?.payload?.cwd;
        if (typeof cwd === 'string') {
          firsts.push(cwd);
          break;
        }
      }
    }
    const vault = 'C:\\Users\\loganf\\Documents\\IDAHO-VAULT';
    const spellings = new Set(firsts.filter((c) => c.toLowerCase() === vault.toLowerCase()));
    expect(spellings).toEqual(new Set([vault, `c${vault.slice(1)}`]));
    const rows = ndjson((await run(['stats', folder, '--by', 'project', '--jobs', '0'])).lines).slice(0, -1);
    const folded = rows.map((r) => String(r.project).toLowerCase());
    expect(new Set(folded).size).toBe(folded.length);
    const plain = new Map<string, number>();
    for (const c of firsts) plain.set(c.toLowerCase(), (plain.get(c.toLowerCase()) ?? 0) + 1);
    expect(new Map(rows.map((r) => [String(r.project).toLowerCase(), r.sessions]))).toEqual(plain);
    expect(rows.find((r) => r.name === 'IDAHO-VAULT')?.project).toBe(vault);
  });

  it('says what is wrong with --by, --tz and their companions', async () => {
    const cases: [string[], RegExp][] = [
      [['--by', 'week'], /--by expects day or project, got "week"/],
      [['--by', 'day', '--tz', 'Mars/Base'], /unknown time zone "Mars\/Base"/],
      [['--by', 'day', '--csv', '--table'], /--csv and --table: give one/],
      [['--by', 'day', '--strategy', 'claude-code'], /--by and --strategy: give one/],
      [['--tz', 'UTC'], /--tz and --table go with --by/],
    ];
    for (const [args, message] of cases) {
      const r = await run(['stats', FOLDERS[0]!, ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err).toMatch(message);
    }
  });
});
