import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileStrategySource } from '../../src/cli/strategy-file';
import { createNodeFileSource } from '../../src/cli/node-source';
import { parseSession } from '../../src/engine/parse/parse-session';
import { compareStrategies } from '../../src/engine/replay/compare-strategies';
import { computeReplay } from '../../src/engine/replay/compute-replay';
import { type PreparedReplay, prepareReplay } from '../../src/engine/replay/prepare';
import type { Strategy } from '../../src/engine/strategies/api';
import { adaptCustomStrategy, readStrategyExport } from '../../src/engine/strategies/custom';
import { getSessionSetup, getStrategy, registerCustomStrategy } from '../../src/engine/strategies/registry';
import { getSessionInfo } from '../../src/engine/strategies/types';
import CLEAR_OLD_RESULTS from '../../examples/strategies/clear-old-results';
import SUMMARIZE_OLDEST_HALF from '../../examples/strategies/summarize-oldest-half';
import { corpusJsonl, corpusOrSkip } from '../helpers/corpus';

// The public strategy API (docs/custom-strategies.md): the two examples under examples/strategies/
// adapted and run by the same replay as the built-ins, on the bundled sample and on real logs,
// their events checked against the rules they state; a definition that breaks the API is an error
// naming the field.

const SAMPLE_DIR = join(__dirname, '../../public/samples');
const SAMPLE = join(SAMPLE_DIR, readdirSync(SAMPLE_DIR).find((f) => f.endsWith('.jsonl')) ?? 'missing');
const EXAMPLES = join(__dirname, '../../examples/strategies');

async function prepare(path: string): Promise<PreparedReplay> {
  return prepareReplay(await parseSession([createNodeFileSource(path)]));
}

beforeAll(() => {
  registerCustomStrategy(adaptCustomStrategy(CLEAR_OLD_RESULTS));
  registerCustomStrategy(adaptCustomStrategy(SUMMARIZE_OLDEST_HALF));
});

/** Checks the clearing example's rule on one replay: over the trigger, only results older than keepTurns. */
function checkClearing(p: PreparedReplay, trigger: number, keepTurns: number) {
  const result = computeReplay(p, 'clear-old-results', { triggerTokens: trigger, keepTurns });
  const clears = result.events.filter((e) => e.kind === 'microcompact');
  for (const e of clears) {
    expect(e.checkTokens).toBeGreaterThanOrEqual(trigger);
    expect(e.thresholdTokens).toBe(trigger);
    const boundary = p.callPos[e.afterCallPos + 1]!;
    const turnNow = p.clearables.turn
      .filter((_, i) => p.clearables.pos[i]! < boundary)
      .reduce((a, b) => Math.max(a, b), 0);
    for (const id of e.clearedToolIds) {
      const item = p.clearables.indexById.get(id)!;
      expect(p.clearables.pos[item]!).toBeLessThan(boundary);
      // Its turn is at least keepTurns before the newest prompt's (the view counts user prompts).
      expect(turnNow - p.clearables.turn[item]!).toBeGreaterThanOrEqual(keepTurns - 1);
    }
  }
  // Nothing is summarized, and no result is cleared twice.
  expect(result.events.filter((e) => e.kind === 'compact')).toEqual([]);
  const ids = clears.flatMap((e) => e.clearedToolIds);
  expect(new Set(ids).size).toBe(ids.length);
  return { result, clears };
}

describe('the examples on the bundled sample', () => {
  let p: PreparedReplay;
  beforeAll(async () => {
    p = await prepare(SAMPLE);
  });

  it('clear-old-results clears once over its trigger, and keeps the context near it', () => {
    const { result, clears } = checkClearing(p, 60_000, 3);
    expect(clears.length).toBeGreaterThan(5);
    // Each clearing brings the count back under the trigger or clears all it may.
    const first = clears[0]!;
    expect(first.postTokens).toBeLessThan(first.preTokens);
    // Below the trigger nothing happens: a trigger above the peak of a replay that clears nothing
    // (every result kept whole) clears nothing.
    expect(result.events.length).toBeGreaterThan(0);
    const kept = computeReplay(p, 'clear-old-results', { triggerTokens: 60_000, keepTurns: 100_000 });
    expect(kept.events.filter((e) => e.kind === 'microcompact')).toEqual([]);
    const peak = Math.max(...kept.checkTokens);
    expect(
      computeReplay(p, 'clear-old-results', { triggerTokens: peak + 1 }).events.filter(
        (e) => e.kind === 'microcompact',
      ),
    ).toEqual([]);
  });

  it('summarize-oldest-half summarizes partially at its share of the window, keeping the newest part', () => {
    const knobs = { contextWindow: 100_000, triggerPercent: 60, keepPercent: 50 };
    const result = computeReplay(p, 'summarize-oldest-half', knobs);
    const compacts = result.events.filter((e) => e.kind === 'compact');
    expect(compacts.length).toBeGreaterThan(1);
    for (const e of compacts) {
      expect(e.trigger).toBe('auto');
      expect(e.checkTokens).toBeGreaterThanOrEqual(60_000);
      expect(e.thresholdTokens).toBe(60_000);
      expect(e.mechanism).toBe('partial');
      expect(e.keptTokens!).toBeGreaterThan(0);
      expect(e.note).toMatch(/^compaction \d+: the oldest part summarized$/);
      expect(e.postTokens).toBeLessThan(e.preTokens);
    }
    // The state counts across one replay and starts fresh in the next.
    expect(compacts.map((e) => e.note)).toEqual(
      compacts.map((_, i) => `compaction ${i + 1}: the oldest part summarized`),
    );
    expect(
      computeReplay(p, 'summarize-oldest-half', knobs).events.filter((e) => e.kind === 'compact')[0]!.note,
    ).toBe('compaction 1: the oldest part summarized');
    // Its threshold lines: the trigger at 60% and the window.
    expect(result.thresholds.map((t) => [t.kind, t.tokens])).toEqual([
      ['trigger', 60_000],
      ['limit', 100_000],
    ]);
  });

  it('compares beside the built-ins, and its setup names it and its window', async () => {
    const compared = await compareStrategies(p, [
      { strategyId: 'claude-code', overrides: {} },
      { strategyId: 'codex', overrides: {} },
      { strategyId: 'summarize-oldest-half', overrides: { contextWindow: 100_000 } },
    ]);
    expect(compared.rows.map((r) => r.strategyId)).toEqual(['claude-code', 'codex', 'summarize-oldest-half']);
    expect(compared.rows[2]!.events.compact).toBeGreaterThan(0);
    const { notes, knobs } = getSessionSetup(getStrategy('summarize-oldest-half'), getSessionInfo(p));
    expect(knobs.contextWindow).toBe(200_000);
    expect(notes[0]).toMatch(/Summarize the oldest half: a custom strategy/);
  });

  it('the examples compiled from their files as the CLI reads them behave as the imported ones', async () => {
    for (const name of ['clear-old-results', 'summarize-oldest-half']) {
      const file = `${name}.ts`;
      const compiled = await compileStrategySource(readFileSync(join(EXAMPLES, file), 'utf8'), file);
      const imported = getStrategy(name);
      const knobs = { ...imported.defaultKnobs, triggerTokens: 60_000, contextWindow: 100_000 };
      expect(compiled.knobSpecs).toEqual(imported.knobSpecs);
      const a = computeReplay(p, name, knobs).events;
      registerCustomStrategy(compiled);
      const b = computeReplay(p, name, knobs).events;
      expect(b).toEqual(a);
      expect(a.length).toBeGreaterThan(0);
    }
  });
});

describe('the examples on real logs', () => {
  const files = corpusOrSkip('custom strategies on the corpus') ? corpusJsonl().slice(0, 6) : [];
  it.skipIf(files.length === 0).each(files)('%s', async (file) => {
    const p = await prepare(file);
    if (p.calls.length < 2) return;
    const peak = Math.max(...p.recorded);
    checkClearing(p, Math.max(1_000, Math.round(peak / 2)), 2);
    const half = computeReplay(p, 'summarize-oldest-half', {
      contextWindow: Math.max(10_000, Math.round(peak)),
      triggerPercent: 50,
    });
    for (const e of half.events.filter((x) => x.kind === 'compact'))
      expect(e.checkTokens).toBeGreaterThanOrEqual(half.thresholds[0]!.tokens);
  });
});

describe('a definition that breaks the API is an error naming the field', () => {
  const ok: Strategy = { id: 'x', label: 'X', step: () => [] };
  it.each([
    [{ ...ok, id: 'Bad Id' }, /id "Bad Id" must be lowercase/],
    [{ ...ok, label: '' }, /label must be non-empty text/],
    [{ ...ok, step: 3 }, /step must be a function/],
    [{ ...ok, knobs: [{ key: '1x', label: 'a', kind: 'number', default: 1 }] }, /key "1x"/],
    [
      { ...ok, knobs: [{ key: 'a', label: 'a', kind: 'number', default: Number.NaN }] },
      /knob a: default must be a finite number/,
    ],
    [{ ...ok, knobs: [{ key: 'a', label: 'a', kind: 'text', default: 1 }] }, /knob a: kind must be/],
    [
      {
        ...ok,
        knobs: [
          { key: 'a', label: 'a', kind: 'number', default: 1 },
          { key: 'a', label: 'b', kind: 'number', default: 2 },
        ],
      },
      /knob a is declared twice/,
    ],
    [null, /export default/],
  ])('%#', (def, message) => {
    expect(() => adaptCustomStrategy(def)).toThrow(message);
  });

  it('a module with no default export says so, naming what it exports', () => {
    const given = {};
    expect(() => readStrategyExport(given, given)).toThrow(
      /^the file has no default export: it must `export default` a strategy object .*docs\/custom-strategies\.md/,
    );
    expect(() => readStrategyExport({ __esModule: true, strategy: ok }, given)).toThrow(
      /no default export \(it exports strategy\)/,
    );
    expect(readStrategyExport({ __esModule: true, default: ok }, given)).toBe(ok);
    // A CommonJS file's own `module.exports = { … }` is its strategy.
    expect(readStrategyExport(ok, given)).toBe(ok);
  });

  it('a built-in id is refused when registered', () => {
    expect(() => registerCustomStrategy(adaptCustomStrategy({ ...ok, id: 'codex' }))).toThrow(
      /built-in strategy's id/,
    );
  });
});
