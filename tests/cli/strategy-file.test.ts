import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli';

// `compactlab replay --strategy-file`, a file among `--strategy a,b,./file.ts`, and
// `stats --strategy-file`: the same file as the page's editor runs, its figures the replay's.

const SAMPLE_DIR = join(__dirname, '../../public/samples');
const SAMPLE = join(SAMPLE_DIR, readdirSync(SAMPLE_DIR).find((f) => f.endsWith('.jsonl')) ?? 'missing');
const EXAMPLES = join(__dirname, '../../examples/strategies');
const CLEAR = join(EXAMPLES, 'clear-old-results.ts');
const HALF = join(EXAMPLES, 'summarize-oldest-half.ts');

const run = (...args: string[]) => runCli(args);

interface Json {
  strategyId: string;
  knobs: Record<string, unknown>;
  events: { kind: string; checkTokens: number; thresholdTokens: number }[];
}

describe('replay --strategy-file', () => {
  it('replays with the file, its knobs set by --knob', async () => {
    const r = await run(
      'replay',
      SAMPLE,
      '--strategy-file',
      CLEAR,
      '--knob',
      'triggerTokens=70000',
      '--knob',
      'keepTurns=2',
      '--json',
    );
    expect(r.code, r.err).toBe(0);
    const json = JSON.parse(r.text) as Json;
    expect(json.strategyId).toBe('clear-old-results');
    expect(json.knobs).toMatchObject({ triggerTokens: 70_000, keepTurns: 2 });
    const clears = json.events.filter((e) => e.kind === 'microcompact');
    expect(clears.length).toBeGreaterThan(0);
    for (const e of clears) expect(e.checkTokens).toBeGreaterThanOrEqual(70_000);
  });

  it('a path as --strategy is the same as --strategy-file', async () => {
    const a = await run('replay', SAMPLE, '--strategy-file', HALF, '--json');
    const b = await run('replay', SAMPLE, '--strategy', HALF, '--json');
    expect(b.code, b.err).toBe(0);
    const strip = (t: string) => ({ ...(JSON.parse(t) as Json), computeMs: 0 });
    expect(strip(b.text).events).toEqual(strip(a.text).events);
  });

  it('--help lists the file’s knobs with their source', async () => {
    const r = await run('replay', '--strategy-file', CLEAR, '--help');
    expect(r.code).toBe(0);
    expect(r.text).toMatch(/triggerTokens/);
    expect(r.text).toMatch(/keepTurns/);
  });

  it('compares a file beside built-ins in one table', async () => {
    const r = await run(
      'replay',
      SAMPLE,
      '--strategy',
      `claude-code,codex,${HALF}`,
      '--knob',
      'summarize-oldest-half.contextWindow=100000',
      '--json',
    );
    expect(r.code, r.err).toBe(0);
    const rows = JSON.parse(r.text) as {
      strategyId: string;
      label: string;
      events: Record<string, number>;
      knobs: Record<string, unknown>;
    }[];
    expect(rows.map((x) => x.strategyId)).toEqual(['claude-code', 'codex', 'summarize-oldest-half']);
    expect(rows[2]!.knobs.contextWindow).toBe(100_000);
    // Named as a custom strategy in the table and its exports.
    expect(rows[2]!.label).toBe('Custom: Summarize the oldest half');
    expect(rows[2]!.events.compact).toBeGreaterThan(0);
  });

  it('a broken file is an error that says why: an endless loop stopped (exit 1), a missing file or a built-in id (exit 2)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'strategy-'));
    const loop = join(dir, 'loop.ts');
    writeFileSync(
      loop,
      "export default {\n  id: 'loop',\n  label: 'Loop',\n  step() {\n    for (;;) {}\n  },\n};\n",
    );
    const r = await run('replay', SAMPLE, '--strategy-file', loop);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      /loop\.ts: step at call 1 was stopped: the strategy's code ran past its time limit/,
    );
    const missing = await run('replay', SAMPLE, '--strategy-file', join(dir, 'none.ts'));
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/none\.ts: no such file/);
    const builtinId = join(dir, 'codex.ts');
    writeFileSync(builtinId, "export default { id: 'codex', label: 'Mine', step: () => [] };\n");
    expect((await run('replay', SAMPLE, '--strategy-file', builtinId)).err).toMatch(/built-in strategy's id/);
    // No default export: said, with what the file must export (it read "id undefined must be …").
    const noExport = join(dir, 'noexport.ts');
    writeFileSync(noExport, 'const x = 1;\n');
    const none = await run('replay', SAMPLE, '--strategy-file', noExport);
    expect(none.err).toMatch(
      /noexport\.ts: the file has no default export: it must `export default` a strategy object .*docs\/custom-strategies\.md/,
    );
    expect(none.err).not.toMatch(/id undefined/);
    const named = join(dir, 'named.ts');
    writeFileSync(named, "export const strategy = { id: 'named', label: 'N', step: () => [] };\n");
    expect((await run('stats', SAMPLE_DIR, '--strategy-file', named)).err).toMatch(
      /named\.ts: the file has no default export \(it exports strategy\)/,
    );
  }, 30_000);
});

// A strategy that keeps what it allocates, a few MB a call, without end: the thread's heap limit
// stops it (not the process), and the command names the strategy and the limit.
const HOG =
  "const kept: number[][] = [];\nexport default {\n  id: 'hog',\n  label: 'Hog',\n  step() {\n    for (let i = 0; i < 1e9; i++) kept.push(new Array(1e5).fill(i));\n    return [];\n  },\n};\n";

describe('a strategy file under a memory limit', () => {
  it('replay: a strategy that allocates without end is stopped by the heap limit, named, exit 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'strategy-'));
    const hog = join(dir, 'hog.ts');
    writeFileSync(hog, HOG);
    const r = await run('replay', SAMPLE, '--strategy-file', hog, '--strategy-memory', '64');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      /compactlab replay: hog\.ts \(strategy "hog"\): stopped: the replay ran out of its memory limit \(64 MB of heap/,
    );
    // In a comparison, the same; and the process is still here to run the next command.
    const cmp = await run('replay', SAMPLE, '--strategy', `codex,${hog}`, '--strategy-memory', '64');
    expect(cmp.code).toBe(1);
    expect(cmp.err).toMatch(/hog\.ts \(strategy "hog"\): stopped: .*64 MB/);
    const ok = await run('replay', SAMPLE, '--strategy-file', CLEAR, '--strategy-memory', '64', '--json');
    expect(ok.code, ok.err).toBe(0);
    expect((JSON.parse(ok.text) as Json).strategyId).toBe('clear-old-results');
    const bad = await run('replay', SAMPLE, '--strategy-file', CLEAR, '--strategy-memory', 'lots');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--strategy-memory expects a whole number of MB/);
  }, 90_000);

  it('stats: a session whose replay runs out of the limit is a row with that error, and stats goes on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'strategy-'));
    const hog = join(dir, 'hog.ts');
    writeFileSync(hog, HOG);
    const r = await run(
      'stats',
      SAMPLE_DIR,
      '--strategy-file',
      hog,
      '--strategy-memory',
      '64',
      '--sessions',
      '--jobs',
      '0',
    );
    // Its one session failed: a row and a total are written, and the run exits 1 (no session gave
    // a result), as stats does when none could be read.
    expect(r.code, r.err).toBe(1);
    const rows = r.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { row: string; error?: string; errors: number });
    expect(rows[0]!.error).toMatch(/hog\.ts \(strategy "hog"\): stopped: .*64 MB of heap/);
    expect(rows.at(-1)).toMatchObject({ row: 'total', errors: 1 });
    expect(r.err).toMatch(/1 of 1 sessions could not be read/);
  }, 90_000);
});

describe('stats --strategy-file', () => {
  it('replays every session of a folder with the file, in worker threads too', async () => {
    const inline = await run(
      'stats',
      SAMPLE_DIR,
      '--strategy-file',
      HALF,
      '--knob',
      'contextWindow=100000',
      '--jobs',
      '0',
    );
    expect(inline.code, inline.err).toBe(0);
    const total = JSON.parse(inline.text.trim().split('\n').at(-1)!) as {
      strategy: string;
      compactions: number;
      sessions: number;
    };
    expect(total).toMatchObject({ strategy: 'summarize-oldest-half', sessions: 1 });
    expect(total.compactions).toBeGreaterThan(0);
    const pooled = await run(
      'stats',
      SAMPLE_DIR,
      '--strategy-file',
      HALF,
      '--knob',
      'contextWindow=100000',
      '--jobs',
      '1',
    );
    expect(pooled.code, pooled.err).toBe(0);
    expect(JSON.parse(pooled.text.trim().split('\n').at(-1)!)).toEqual(total);
  }, 60_000);
});
