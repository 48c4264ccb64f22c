import { at } from '../../src/engine/assert';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli';
import { findSessions } from '../../src/cli/stats/find-sessions';
import { formatCsvRecord } from '../../src/engine/stats/records';
import { SETTING_COLUMNS } from '../../src/engine/stats/records';
import { STATS_COLUMNS } from '../../src/cli/stats/stats-row';
import { generateSession } from '../../sample/generate-session';

// `compactlab stats` over a generated projects folder: the folder fixture (a session with 7
// subagent and compaction files), tiny.jsonl, a sample session, the broken fixture and a file name
// that needs CSV quoting. Rows are checked against `inspect --json` of the same files.

const FIXTURES = join(__dirname, '../fixtures');
const root = mkdtempSync(join(tmpdir(), 'compactlab-stats-'));
const projects = join(root, 'projects');

/** RFC 4180: fields split by commas, quoted fields may hold commas, CRLF and doubled quotes. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = at(text, i);
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || record.length > 0) records.push([...record, field]);
  return records;
}

const run = runCli;

const NUMERIC: string[] = [
  'apiCalls',
  'peakContextTokens',
  'compactions',
  'entries',
  'realCompactionsReproduced',
];

describe('compactlab stats', () => {
  beforeAll(() => {
    const tally = join(projects, '-home-user-tally');
    cpSync(join(FIXTURES, 'folder'), tally, { recursive: true });
    cpSync(join(FIXTURES, 'tiny.jsonl'), join(tally, '00fb8673-8b42-4835-a84f-3e32248c1e89.jsonl'));
    const other = join(projects, '-home-user-other');
    mkdirSync(other, { recursive: true });
    cpSync(join(FIXTURES, 'broken.jsonl'), join(other, 'broken.jsonl'));
    cpSync(join(FIXTURES, 'xss.jsonl'), join(other, 'we,ird "name".jsonl'));
    const sample = generateSession({ seed: 11, apiCalls: 80, features: { specials: true } });
    for (const file of sample.files) {
      const path = join(projects, '-home-user-sample', file.name);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, file.text);
    }
  });

  it('writes a CSV with a header row that an RFC 4180 reader loads back, one row per session', async () => {
    const { code, text } = await run(['stats', projects, '--csv', '--jobs', '2']);
    expect(code).toBe(0);
    const [header, ...rows] = parseCsv(text);
    expect(header).toEqual([...STATS_COLUMNS]);
    const groups = await findSessions([projects]);
    expect(rows).toHaveLength(groups.length);
    expect(groups.length).toBe(5);
    for (const row of rows) expect(row).toHaveLength(STATS_COLUMNS.length);
    const byFile = new Map(
      rows.map((r) => [at(r, 0), Object.fromEntries(header!.map((h, i) => [h, at(r, i)]))]),
    );
    // Subagent and compaction-call files are folded into their session, never rows of their own.
    expect([...byFile.keys()].some((f) => f.includes('subagents'))).toBe(false);
    expect(byFile.has(join(projects, '-home-user-other', 'we,ird "name".jsonl'))).toBe(true);
    const folder = byFile.get(
      join(projects, '-home-user-tally', '7c1d2e3f-4a5b-4c6d-8e7f-0a1b2c3d4e5f.jsonl'),
    )!;
    // Five transcripts beside the main file; their two `.meta.json` are not files of their own.
    expect(folder.subagentFiles).toBe('5');
    for (const row of byFile.values()) {
      for (const column of NUMERIC)
        expect(Number.isFinite(Number(row[column])), `${row.file} ${column}`).toBe(true);
      expect(row.error).toBe('');
    }
    // Counts agree with `inspect --json` on the same files.
    for (const group of groups) {
      const report = JSON.parse((await run(['inspect', ...group.paths, '--json'])).text);
      const row = byFile.get(group.file)!;
      expect(Number(row.apiCalls), group.file).toBe(report.apiCalls.length);
      expect(Number(row.peakContextTokens), group.file).toBe(report.peakContextTokens);
      expect(Number(row.compactions), group.file).toBe(
        report.compactions.filter((c: { kind: string }) => c.kind === 'compact').length,
      );
      expect(row.sessionId, group.file).toBe(report.sessionId ?? '');
      expect(row.agent, group.file).toBe(report.agent);
    }
    // tiny.jsonl: its one auto-compaction is reproduced by the replay under its own knobs.
    const tiny = byFile.get(
      join(projects, '-home-user-tally', '00fb8673-8b42-4835-a84f-3e32248c1e89.jsonl'),
    )!;
    expect(tiny).toMatchObject({
      realCompactionsExpected: '1',
      realCompactionsReproduced: '1',
      replayCompactions: '1',
    });
    expect(Number(tiny.summarizedTokens)).toBeGreaterThan(100_000);
    expect(Number(tiny.costUsd)).toBeGreaterThan(0);
    expect(
      Number(byFile.get(join(projects, '-home-user-other', 'broken.jsonl'))!.issueErrors),
    ).toBeGreaterThan(0);
  });

  it('writes NDJSON by default, the same rows with or without workers', async () => {
    const parse = (text: string) =>
      text
        .split('\n')
        .map((l) => JSON.parse(l))
        .sort((a, b) => (a.file < b.file ? -1 : 1));
    const pooled = parse((await run(['stats', projects])).text);
    const here = parse((await run(['stats', projects, '--json', '--jobs', '0'])).text);
    expect(pooled).toEqual(here);
    expect(pooled).toHaveLength(5);
    expect(Object.keys(pooled[0]).slice(0, 7)).toEqual(STATS_COLUMNS.slice(0, 7));
  });

  it('gives every NDJSON row every column, null where a value is absent, as CSV leaves a cell empty', async () => {
    // A session with no API call has no replay figures and no cost: its keys are there all the same.
    const dir = mkdtempSync(join(tmpdir(), 'compactlab-stats-keys-'));
    const first = readFileSync(join(FIXTURES, 'zero-usage.jsonl'), 'utf8').split('\n')[0]!;
    writeFileSync(join(dir, 'no-calls.jsonl'), `${first}\n`);
    cpSync(join(FIXTURES, 'tiny.jsonl'), join(dir, 'tiny.jsonl'));
    const { code, lines } = await run(['stats', dir, '--jobs', '0']);
    expect(code).toBe(0);
    const rows = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(Object.keys(row)).toEqual([...STATS_COLUMNS]);
    const empty = rows.find((r) => r.apiCalls === 0)!;
    expect(empty).toMatchObject({
      replayStrategy: null,
      replayCompactions: null,
      summarizedTokens: null,
      costUsd: null,
      error: null,
    });
    const tiny = rows.find((r) => r.apiCalls !== 0)!;
    expect(typeof tiny.costUsd).toBe('number');
    expect(tiny.replayStrategy).toBe('claude-code');
  });

  it('exits 1 when the folders hold no session', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'compactlab-stats-empty-'));
    expect((await run(['stats', empty])).code).toBe(1);
  });

  it('--strategy replays every session at each setting of a sweep: a row per session and setting, totals per setting', async () => {
    const { code, text, err } = await run([
      'stats',
      projects,
      '--strategy',
      'claude-code',
      '--sweep',
      'autocompactPctOverride=50:90:3',
      '--sessions',
      '--jobs',
      '0',
    ]);
    expect(code).toBe(0);
    // Progress on stderr, the rows alone on stdout.
    expect(err).toMatch(/compactlab stats: 5\/5 sessions/);
    const rows = text.split('\n').map((l) => JSON.parse(l) as Record<string, string | number>);
    const sessions = rows.filter((r) => r.row === 'session');
    const totals = rows.filter((r) => r.row === 'total');
    expect(totals.map((t) => t.value)).toEqual([50, 70, 90]);
    expect(totals.map((t) => t.setting)).toEqual([
      'autocompactPctOverride=50',
      'autocompactPctOverride=70',
      'autocompactPctOverride=90',
    ]);
    for (const total of totals) {
      const mine = sessions.filter((r) => r.value === total.value);
      expect(mine.length).toBeGreaterThan(0);
      for (const column of ['sessions', 'apiCalls', 'compactions', 'summarizedTokens', 'cacheReadTokens'])
        expect(total[column], `${total.setting} ${column}`).toBe(
          mine.reduce((a, r) => a + Number(r[column]), 0),
        );
      expect(Number(total.costUsd)).toBeCloseTo(
        mine.reduce((a, r) => a + Number(r.costUsd), 0),
        4,
      );
      // The real cost does not depend on the setting.
      expect(total.realCostUsd).toBe(totals[0]!.realCostUsd);
    }
    // A lower threshold compacts at least as often and summarizes more.
    expect(Number(totals[0]!.compactions)).toBeGreaterThanOrEqual(Number(totals[2]!.compactions));
    expect(Number(totals[0]!.compactions)).toBeGreaterThan(0);
    expect(Number(totals[0]!.costUsd)).toBeGreaterThan(0);
  });

  it('--strategy totals are the same with workers, and CSV has the setting columns', async () => {
    const args = ['stats', projects, '--strategy', 'claude-code', '--knob', 'autocompactPctOverride=60'];
    const pooled = (await run([...args, '--jobs', '2'])).text;
    const here = (await run([...args, '--jobs', '0'])).text;
    expect(pooled).toBe(here);
    const total = JSON.parse(here);
    expect(total).toMatchObject({ row: 'total', setting: 'autocompactPctOverride=60', sessions: 5 });
    const csv = parseCsv((await run([...args, '--csv', '--jobs', '0'])).text);
    expect(csv[0]).toEqual([...SETTING_COLUMNS]);
    expect(csv).toHaveLength(2);
  });

  it('--retention adds what each setting’s summaries keep: facts held and kept after the last compaction, facts lost', async () => {
    const { code, text } = await run([
      'stats',
      projects,
      '--strategy',
      'claude-code',
      '--knob',
      'autocompactPctOverride=50',
      '--retention',
      '--sessions',
      '--jobs',
      '0',
    ]);
    expect(code).toBe(0);
    const rows = text.split('\n').map((l) => JSON.parse(l) as Record<string, number | string | null>);
    const total = rows.find((r) => r.row === 'total')!;
    const sessions = rows.filter((r) => r.row === 'session');
    // Every row has every column: an unscored session's are null.
    const scored = sessions.filter((r) => r.heldFacts !== null);
    expect(scored.length).toBeGreaterThan(0);
    // Every session the replay compacts is scored (one that only adopts the log's manual
    // compaction is too, on its recorded summary).
    for (const r of sessions)
      if (Number(r.compactions) > 0) expect(r.heldFacts, String(r.file)).not.toBeNull();
    for (const r of scored) {
      expect(Number(r.retainedFacts)).toBeLessThanOrEqual(Number(r.heldFacts));
      expect(Number(r.retention)).toBeCloseTo(Number(r.retainedFacts) / Number(r.heldFacts), 3);
    }
    const sum = (k: string) => scored.reduce((a, r) => a + Number(r[k]), 0);
    expect(total.retainedFacts).toBe(sum('retainedFacts'));
    expect(total.heldFacts).toBe(sum('heldFacts'));
    expect(total.factsLost).toBe(sum('factsLost'));
    expect(Number(total.retention)).toBeGreaterThan(0);
    expect(Number(total.retention)).toBeLessThan(1);
  });

  it('--prices replaces list prices by price key: twice every rate, twice every cost', async () => {
    const { PRICE_TABLE } = await import('../../src/engine/cost/prices');
    const doubled = Object.fromEntries(
      Object.entries(PRICE_TABLE).map(([key, p]) => [
        key,
        {
          inputPerMTok: p.inputPerMTok * 2,
          outputPerMTok: p.outputPerMTok * 2,
          cacheWrite5mPerMTok: (p.cacheWrite5mPerMTok ?? p.inputPerMTok * 1.25) * 2,
          cacheWrite1hPerMTok: (p.cacheWrite1hPerMTok ?? p.inputPerMTok * 2) * 2,
          cacheReadPerMTok: (p.cacheReadPerMTok ?? p.inputPerMTok * 0.1) * 2,
        },
      ]),
    );
    const file = join(root, 'prices.json');
    writeFileSync(file, JSON.stringify(doubled));
    const args = ['stats', projects, '--strategy', 'claude-code', '--jobs', '0'];
    const list = JSON.parse((await run(args)).text);
    const own = JSON.parse((await run([...args, '--prices', file])).text);
    expect(list.costUsd).toBeGreaterThan(0);
    expect(own.costUsd).toBeCloseTo(list.costUsd * 2, 4);
    expect(own.realCostUsd).toBeCloseTo(list.realCostUsd * 2, 4);
    writeFileSync(file, JSON.stringify({ 'opus-4-6': { inputPerMTok: 'five', outputPerMTok: 25 } }));
    const bad = await run([...args, '--prices', file]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('"opus-4-6".inputPerMTok must be a number');
  });

  it('refuses an unknown strategy and a sweep without one', async () => {
    expect((await run(['stats', projects, '--strategy', 'nope'])).code).toBe(2);
    expect((await run(['stats', projects, '--sweep', 'x=1:2:2'])).code).toBe(2);
  });

  it('neutralises CSV cells a spreadsheet would run as formulas (OWASP), numbers kept as numbers', () => {
    expect(formatCsvRecord(['=HYPERLINK("x")', '+1', '-2', '@SUM(A1)', '\tx', 'plain', -1.5, 0])).toBe(
      `"'=HYPERLINK(""x"")","'+1","'-2","'@SUM(A1)","'\tx",plain,-1.5,0`,
    );
  });
});
