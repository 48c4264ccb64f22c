import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';

// `compactlab replay --strategy-file`, a file among `--strategy a,b,./file.ts`, and
// `stats --strategy-file`: the same file as the page's editor runs, its figures the replay's.

const SAMPLE_DIR = join(__dirname, '../../public/samples');
const SAMPLE = join(SAMPLE_DIR, readdirSync(SAMPLE_DIR).find((f) => f.endsWith('.jsonl')) ?? 'missing');
const EXAMPLES = join(__dirname, '../../examples/strategies');
const CLEAR = join(EXAMPLES, 'clear-old-results.ts');
const HALF = join(EXAMPLES, 'summarize-oldest-half.ts');

async function run(...args: string[]): Promise<{ code: number; text: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((t: string) => {
    err.push(String(t));
    return true;
  }) as typeof process.stderr.write;
  try {
    const code = await main(args, (t) => out.push(t));
    return { code, text: out.join('\n'), err: err.join('') };
  } finally {
    process.stderr.write = write;
  }
}

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
  }, 30_000);
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
