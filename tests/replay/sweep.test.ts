import { at } from '../../src/engine/assert';
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';
import { createNodeFileSource } from '../../src/cli/node-source';
import { parseSession } from '../../src/engine/parse/parse-session';
import { type PreparedReplay, prepareReplay } from '../../src/engine/replay/prepare';
import { computeSweep, getSweepValues, type SweepProgress } from '../../src/engine/replay/sweep';
import { getStrategy } from '../../src/engine/strategies/registry';
import { getSessionInfo } from '../../src/engine/strategies/types';

// The knob sweep on the bundled sample: its figures move the way the knob says they should,
// progress reaches the end, and an aborted signal stops it between values.

const SAMPLES = resolve(__dirname, '../../public/samples');
const SAMPLE_FILES = readdirSync(SAMPLES).filter((f) => f.endsWith('.jsonl'));

describe('computeSweep', () => {
  let prepared: PreparedReplay;
  let knobs: Record<string, unknown>;
  beforeAll(async () => {
    const session = await parseSession([createNodeFileSource(join(SAMPLES, at(SAMPLE_FILES, 0)))]);
    prepared = prepareReplay(session);
    knobs = getStrategy('claude-code').getSessionKnobs(getSessionInfo(prepared)).knobs as never;
  });

  it('spaces values evenly, snapped to the knob’s step and bounds, without duplicates', () => {
    const spec = getStrategy('claude-code').knobSpecs.find((s) => s.key === 'autocompactPctOverride')!;
    expect(getSweepValues(spec, { knob: spec.key, from: 10, to: 100, steps: 10 })).toEqual([
      10, 20, 30, 40, 50, 60, 70, 80, 90, 100,
    ]);
    expect(getSweepValues(spec, { knob: spec.key, from: 0, to: 3, steps: 7 })).toEqual([1, 2, 3]);
    expect(getSweepValues(spec, { knob: spec.key, from: 40, to: 40, steps: 1 })).toEqual([40]);
    expect(() => getSweepValues(spec, { knob: spec.key, from: 1, to: 2, steps: 0 })).toThrow(RangeError);
  });

  it.each(SAMPLE_FILES)('lowering the auto-compact percentage never compacts less (%s)', async (file) => {
    const session = await parseSession([createNodeFileSource(join(SAMPLES, file))]);
    const p = prepareReplay(session);
    const base = getStrategy('claude-code').getSessionKnobs(getSessionInfo(p)).knobs;
    const sweep = await computeSweep(p, 'claude-code', base as never, {
      knob: 'autocompactPctOverride',
      from: 100,
      to: 30,
      steps: 15,
    });
    expect(sweep.points.map((x) => x.value)).toEqual([
      100, 95, 90, 85, 80, 75, 70, 65, 60, 55, 50, 45, 40, 35, 30,
    ]);
    const fired = sweep.points.map((x) => x.events.compact);
    for (let i = 1; i < fired.length; i++) expect(fired[i]).toBeGreaterThanOrEqual(at(fired, i - 1));
    expect(fired[fired.length - 1]).toBeGreaterThan(at(fired, 0));
    // The first compaction comes no later as the threshold falls. (The peak context need not
    // fall step by step: moving one compaction moves where the next one starts from.)
    const first = sweep.points.map((x) => x.firstCompactApiCall ?? Number.POSITIVE_INFINITY);
    for (let i = 1; i < first.length; i++) expect(first[i]).toBeLessThanOrEqual(at(first, i - 1));
    expect(at(sweep.points, sweep.points.length - 1).peakContextTokens).toBeLessThan(
      at(sweep.points, 0).peakContextTokens,
    );
    for (const x of sweep.points) {
      expect(x.matchedReal).toBeLessThanOrEqual(x.expectedReal);
      expect(x.summaryTokens).toBeLessThanOrEqual(x.summarizedTokens);
      expect(x.events.compact > 0).toBe(x.firstCompactApiCall !== undefined);
    }
  });

  it('reports progress up to 100% and yields to the event loop', async () => {
    const progress: SweepProgress[] = [];
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    const sweep = await computeSweep(
      prepared,
      'claude-code',
      knobs as never,
      { knob: 'autocompactPctOverride', from: 1, to: 100, steps: 100 },
      { onProgress: (x) => progress.push(x), yieldEveryMs: 0 },
    );
    clearInterval(timer);
    expect(sweep.points).toHaveLength(100);
    expect(progress[0]).toEqual({ done: 0, total: 100 });
    expect(progress[progress.length - 1]).toEqual({ done: 100, total: 100 });
    for (let i = 1; i < progress.length; i++)
      expect(at(progress, i).done).toBeGreaterThan(at(progress, i - 1).done);
    expect(ticks).toBeGreaterThan(0);
  });

  it('stops early when the signal aborts', async () => {
    const controller = new AbortController();
    const progress: SweepProgress[] = [];
    // Abort from a timer, as a cancel message would arrive: only a yield lets it run.
    const run = computeSweep(
      prepared,
      'claude-code',
      knobs as never,
      { knob: 'autocompactPctOverride', from: 1, to: 100, steps: 100 },
      {
        signal: controller.signal,
        yieldEveryMs: 0,
        onProgress: (x) => {
          progress.push(x);
          if (x.done >= 5) setTimeout(() => controller.abort(), 0);
        },
      },
    );
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    const last = at(progress, progress.length - 1);
    expect(last.done).toBeGreaterThanOrEqual(5);
    expect(last.done).toBeLessThan(20);
  });

  it('refuses a knob that is not numeric', async () => {
    await expect(
      computeSweep(prepared, 'claude-code', knobs as never, { knob: 'profile', from: 1, to: 2, steps: 2 }),
    ).rejects.toThrow(/not a numeric knob/);
  });
});

describe('compactlab replay --sweep', () => {
  const file = join(SAMPLES, at(SAMPLE_FILES, 0));
  const run = async (...args: string[]) => {
    const out: string[] = [];
    const code = await main(['replay', file, ...args], (t) => out.push(t));
    return { code, text: out.join('\n') };
  };

  it('prints one line per value, or JSON', async () => {
    const text = await run('--sweep', 'pct=100:40:4');
    expect(text.code).toBe(0);
    const lines = text.text.split('\n').filter((l) => l.startsWith('autocompactPctOverride='));
    expect(lines.map((l) => l.split(' ')[0])).toEqual([
      'autocompactPctOverride=100',
      'autocompactPctOverride=80',
      'autocompactPctOverride=60',
      'autocompactPctOverride=40',
    ]);
    expect(lines[0]).toMatch(
      /compactions \d+ {2}clearings \d+ {2}matched \d+\/\d+ {2}extra \d+ {2}missed \d+ {2}F1 [\d.-]+ {2}peak [\d,]+/,
    );
    const json = await run('--sweep', 'autocompactPctOverride=90:50:2', '--json');
    const parsed = JSON.parse(json.text) as { knob: string; points: { value: number }[] };
    expect(parsed.knob).toBe('autocompactPctOverride');
    expect(parsed.points.map((p) => p.value)).toEqual([90, 50]);
  });

  it('refuses a bad knob or range', async () => {
    expect((await run('--sweep', 'profile=1:2:3')).code).toBe(2);
    expect((await run('--sweep', 'pct=1:2')).code).toBe(2);
  });
});
