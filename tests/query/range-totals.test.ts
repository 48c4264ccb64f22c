import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeCostUsd } from '../../src/engine/cost/prices';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { computeRangeTotals } from '../../src/engine/cost/range-totals';
import { computeTimelineSeries } from '../../src/engine/query/timeline-series';

// A timeline range's totals (issue 24 item 9) against a plain count of the sample's raw records:
// each assistant message's usage once (its message id), summed over the calls of the range.

const SAMPLES = resolve(__dirname, '../../public/samples');
const MAIN = '63afec48-7874-40b5-a0f1-7fc9fd28fba9.jsonl';

interface RawCall {
  id: string;
  model: string;
  input: number;
  cacheWrite: number;
  cacheRead: number;
  cacheWrite1h: number;
  output: number;
}

/** The main file's calls in line order, one per message id (the last record's output wins). */
function readRawCalls(text: string): RawCall[] {
  const byId = new Map<string, RawCall>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const r = JSON.parse(line);
    const m = r.message;
    if (r.type !== 'assistant' || !m?.usage || !m.id || m.model === '<synthetic>') continue;
    const u = m.usage;
    const call = {
      id: m.id,
      model: m.model,
      input: u.input_tokens ?? 0,
      cacheWrite: u.cache_creation_input_tokens ?? 0,
      cacheRead: u.cache_read_input_tokens ?? 0,
      cacheWrite1h: u.cache_creation?.ephemeral_1h_input_tokens ?? 0,
      output: u.output_tokens ?? 0,
    };
    const known = byId.get(m.id);
    if (known) known.output = Math.max(known.output, call.output);
    else byId.set(m.id, call);
  }
  return [...byId.values()];
}

describe('range totals', () => {
  const text = readFileSync(join(SAMPLES, MAIN), 'utf8');
  const raw = readRawCalls(text);

  it('sum the calls of a range as the raw records count them', async () => {
    const session = await parseSession([createMemorySource(MAIN, text)]);
    const series = computeTimelineSeries(session);
    expect(series.callIndex.length).toBe(raw.length);
    for (const [from, to] of [
      [0, raw.length],
      [100, 161],
      [250, 251],
    ] as const) {
      const got = computeRangeTotals(session, Array.from(series.callIndex.subarray(from, to)));
      const part = raw.slice(from, to);
      const sum = (f: (c: RawCall) => number) => part.reduce((a, c) => a + f(c), 0);
      expect(got.calls).toBe(part.length);
      expect(got.inputTokens).toBe(sum((c) => c.input));
      expect(got.cacheCreationInputTokens).toBe(sum((c) => c.cacheWrite));
      expect(got.cacheReadInputTokens).toBe(sum((c) => c.cacheRead));
      expect(got.outputTokens).toBe(sum((c) => c.output));
      const cost = sum(
        (c) =>
          computeCostUsd(c.model, {
            inputTokens: c.input,
            outputTokens: c.output,
            cacheCreationInputTokens: c.cacheWrite,
            cacheReadInputTokens: c.cacheRead,
            cacheCreation1hInputTokens: c.cacheWrite1h,
          }) ?? 0,
      );
      expect(got.costUsd).toBeCloseTo(cost, 6);
      expect(got.costUsd).toBeGreaterThan(0);
    }
  });

  it('count each call once and ignore indices that are no call', async () => {
    const session = await parseSession([createMemorySource(MAIN, text)]);
    const once = computeRangeTotals(session, [3, 4]);
    const twice = computeRangeTotals(session, [3, 4, 4, -1, 1.5, 1e9], [3]);
    expect(twice).toEqual(once);
    expect(once.calls).toBe(2);
  });
});
