import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli';
import { STRATEGIES } from '../../src/engine/strategies/registry';
import { CORPUS, corpusOrSkip } from '../helpers/corpus';

// `compactlab replay --strategy a,b,c`: every strategy over the same transcript, one table. Each
// row is checked against the same strategy's single replay (`--strategy <id> --json`), so the
// table's figures are the replay's, not figures of their own.

const SAMPLE_DIR = join(__dirname, '../../public/samples');
const SAMPLE = join(SAMPLE_DIR, readdirSync(SAMPLE_DIR).find((f) => f.endsWith('.jsonl')) ?? 'missing');

const run = (...args: string[]) => runCli(['replay', ...args]);

interface Row {
  strategyId: string;
  events: Record<string, number>;
  clearedTokens: number;
  replacedTokens: number;
  truncatedTokens: number;
  summarizedTokens: number;
  llmCalls: number;
  peakContextTokens: number;
  finalContextTokens: number;
  real?: { reproduced: number; expected: number };
  knobs: Record<string, unknown>;
  cost: { usd: number; realUsd: number; cacheReadTokens: number; summaryCalls: number };
}

interface SingleEvent {
  kind: string;
  savedTokens?: number;
  droppedTokens?: number;
  spanTokens?: number;
  llmCalls?: number;
}

/** The figures one single-strategy replay gives, computed here from its events and series. */
async function single(file: string, id: string, ...knobs: string[]) {
  const r = await run(file, '--strategy', id, '--json', ...knobs);
  expect(r.code).toBe(0);
  const json = JSON.parse(r.text) as {
    events: SingleEvent[];
    simulatedTokens: number[];
    comparison: { expected: number; reproduced: number };
    knobs: Record<string, unknown>;
    cost: Row['cost'];
  };
  const sum = (kind: string, f: (e: SingleEvent) => number | undefined) =>
    json.events.filter((e) => e.kind === kind).reduce((a, e) => a + (f(e) ?? 0), 0);
  return {
    json,
    count: (kind: string) => json.events.filter((e) => e.kind === kind).length,
    cleared: sum('microcompact', (e) => e.savedTokens),
    replaced: sum('replace', (e) => e.savedTokens),
    truncated: sum('truncate', (e) => e.droppedTokens),
    summarized: sum('compact', (e) => e.spanTokens),
    llmCalls: json.events.reduce((a, e) => a + (e.llmCalls ?? 0), 0),
    peak: Math.max(...json.simulatedTokens),
    final: json.simulatedTokens.at(-1),
  };
}

async function expectRowsMatchSingle(file: string, rows: Row[]) {
  for (const row of rows) {
    const s = await single(file, row.strategyId);
    for (const kind of Object.keys(row.events))
      expect(row.events[kind], `${row.strategyId} ${kind}`).toBe(s.count(kind));
    // The cost columns are the single replay's cost (issue 21), the real cost the same for all.
    expect(row.cost, row.strategyId).toEqual(s.json.cost);
    expect(row.cost.realUsd).toBe(rows[0]!.cost.realUsd);
    expect(row).toMatchObject({
      clearedTokens: s.cleared,
      replacedTokens: s.replaced,
      truncatedTokens: s.truncated,
      summarizedTokens: s.summarized,
      llmCalls: s.llmCalls,
      peakContextTokens: s.peak,
      finalContextTokens: s.final,
    });
    // The log's real compactions each strategy reproduces: the same figure the page's replay strip
    // shows under that strategy (issue 24 item 3: the table said "-" where the strip said 1/1).
    const { expected, reproduced } = s.json.comparison;
    expect(row.real, row.strategyId).toEqual(expected > 0 ? { reproduced, expected } : undefined);
  }
}

describe('compactlab replay --strategy a,b,c on the sample', () => {
  it('prints one table row per strategy, all of them with --strategy all', async () => {
    const r = await run(SAMPLE, '--strategy', 'all');
    expect(r.code).toBe(0);
    const lines = r.text.split('\n');
    expect(lines[0]).toMatch(
      /^strategy +events +cleared +replaced +truncated +summarized +LLM calls +peak +final +real reproduced +cost +real cost +Δ cost +cache read\/write\/uncached$/,
    );
    const ids = lines.slice(1, 1 + STRATEGIES.length).map((l) => l.split(/\s+/)[0]);
    expect(ids).toEqual(STRATEGIES.map((s) => s.id));
    // The notes of each strategy follow, named.
    expect(r.text).toMatch(/^note \(claude-code\): Threshold profile/m);
  });

  it('gives with --json one object per strategy, each the figures of its own replay', async () => {
    const r = await run(SAMPLE, '--strategy', 'claude-code,cline,boundary-scoring', '--json');
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.text) as Row[];
    expect(rows.map((x) => x.strategyId)).toEqual(['claude-code', 'cline', 'boundary-scoring']);
    await expectRowsMatchSingle(SAMPLE, rows);
    const [claude, cline, scoring] = rows as [Row, Row, Row];
    // The sample's one auto-compaction, reproduced by the log's own agent's strategy; every row
    // says how many of it its strategy reproduces.
    expect(claude.real).toEqual({ reproduced: 1, expected: 1 });
    expect(cline.real?.expected).toBe(1);
    expect(scoring.real?.expected).toBe(1);
    // LLM calls come from the events: Claude Code's summaries each need one; boundary scoring
    // summarizes by rules (its compactions need none); Cline here only truncates and dedups.
    expect(claude.llmCalls).toBe(claude.events.compact);
    expect(scoring.events.compact).toBeGreaterThan(0);
    expect(scoring.llmCalls).toBe(0);
    expect((cline.events.truncate ?? 0) + (cline.events.replace ?? 0)).toBeGreaterThan(0);
    expect(cline.replacedTokens).toBeGreaterThan(0);
    expect(cline.truncatedTokens).toBeGreaterThan(0);
    expect(claude.clearedTokens).toBeGreaterThan(0);
  });

  it('sets a knob in every strategy that has it, or in one strategy by its id', async () => {
    const json = async (...args: string[]) =>
      JSON.parse(
        (await run(SAMPLE, '--strategy', 'claude-code,cline,codex', '--json', ...args)).text,
      ) as Row[];
    const plain = await json('--knob', 'contextWindow=150000');
    for (const row of plain) expect(row.knobs.contextWindow, row.strategyId).toBe(150_000);
    const qualified = await json('--knob', 'cline.contextWindow=150000');
    const byId = Object.fromEntries(qualified.map((x) => [x.strategyId, x]));
    expect(byId.cline?.knobs.contextWindow).toBe(150_000);
    expect(byId['claude-code']?.knobs.contextWindow).not.toBe(150_000);
    expect(byId.codex?.knobs.contextWindow).not.toBe(150_000);
    // A named flag goes to the strategies that have it: --max-allowed is Cline's only.
    const flag = await json('--max-allowed', '120000');
    expect(flag.find((x) => x.strategyId === 'cline')?.knobs.maxAllowedTokens).toBe(120_000);
    // And the row follows the knob: a lower limit truncates more.
    const base = await json();
    const lower = (rows: Row[]) => rows.find((x) => x.strategyId === 'cline')!;
    expect(lower(flag).truncatedTokens).toBeGreaterThan(lower(base).truncatedTokens);
  });

  it('lists the knobs of each picked strategy with --help', async () => {
    const r = await run('--strategy', 'cline,codex', '--help');
    expect(r.code).toBe(0);
    expect(r.text).toMatch(/--strategy a,b,c \(or all\)/);
    expect(r.text.match(/^Knobs of (\S+)/gm)).toEqual(['Knobs of cline', 'Knobs of codex']);
  });

  it('refuses a knob no strategy has, an unknown strategy and a sweep', async () => {
    const none = await run(SAMPLE, '--strategy', 'claude-code,cline', '--knob', 'maxMessages=3');
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/no strategy of claude-code, cline has a knob "maxMessages"/);
    const wrong = await run(SAMPLE, '--strategy', 'claude-code,cline', '--knob', 'cline.pct=3');
    expect(wrong.code).toBe(2);
    expect(wrong.err).toMatch(/pct is not a knob of cline/);
    const bad = await run(SAMPLE, '--strategy', 'claude-code,cline', '--knob', 'cline.maxAllowedTokens=lots');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/expects a number, got "lots"/);
    const unknown = await run(SAMPLE, '--strategy', 'claude-code,nope');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/unknown strategy "nope"/);
    const flag = await run(SAMPLE, '--strategy', 'codex,cline', '--keep-recent', '3');
    expect(flag.code).toBe(2);
    const sweep = await run(SAMPLE, '--strategy', 'codex,cline', '--sweep', 'contextWindow=1:2:2');
    expect(sweep.code).toBe(2);
  });
});

const CLINE_TASK = join(CORPUS, 'CoreGems__Cline-Xray/task_sample__ui_messages.json');

describe.skipIf(
  !corpusOrSkip('compactlab replay --strategy a,b,c on a corpus file') || !existsSync(CLINE_TASK),
)('compactlab replay --strategy a,b,c on a real Cline task', () => {
  it('counts the log’s truncations reproduced under Cline only, each row its own replay’s', async () => {
    const r = await run(CLINE_TASK, '--strategy', 'cline,claude-code,boundary-scoring', '--json');
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.text) as Row[];
    await expectRowsMatchSingle(CLINE_TASK, rows);
    const cline = (await single(CLINE_TASK, 'cline')).json.comparison;
    expect(cline.expected).toBeGreaterThan(0);
    expect(rows[0]?.real).toEqual({ reproduced: cline.reproduced, expected: cline.expected });
    expect(rows[0]?.events.truncate).toBeGreaterThan(0);
    // The other strategies are held to the same truncations (expectRowsMatchSingle: each row its
    // own replay's comparison, as the page's strip shows it).
    expect(rows[1]?.real?.expected).toBe(cline.expected);
  });
});

// A real Cline task on a model with no list price: every strategy's row read "$0.000 $0.000
// +$0.000", a free session to the eye, where the single replay says "no list price".
describe.runIf(corpusOrSkip('the compare table of a task with no list price'))(
  'compactlab replay --strategy a,b on a task whose model has no list price (the corpus)',
  () => {
    it('says "no price" in the cost columns, and prices a priced session as before', async () => {
      const task = join(CORPUS, 'mike4567__MRA04242026/api_conversation_history.json');
      const r = await run(task, '--strategy', 'claude-code,cline');
      expect(r.code).toBe(0);
      const rows = r.text.split('\n').slice(1, 3);
      for (const line of rows) {
        expect(line).toMatch(/ 9\/9 | 0\/9 /);
        expect(line).toMatch(/ no price +no price +- +[\d.]+\w?\/[\d.]+\w?\/[\d.]+\w?$/);
        expect(line).not.toContain('$0.000');
      }
      const single = await run(task, '--strategy', 'cline');
      expect(single.text).toContain("cost: no list price for the log's 220 calls");
      const priced = await run(SAMPLE, '--strategy', 'claude-code,cline');
      for (const line of priced.text.split('\n').slice(1, 3))
        expect(line).toMatch(/ \$[\d.]+ +\$[\d.]+ +[+−]\$[\d.]+ /);
    });
  },
);
