import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import type { CompareProgress } from '../../src/engine/replay/compare-strategies';
import { computeReplay } from '../../src/engine/replay/compute-replay';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { getStrategy, STRATEGIES } from '../../src/engine/strategies/registry';
import { getSessionInfo } from '../../src/engine/strategies/types';
import type { HostState } from '../../src/worker/engine-host';
import { REPLAY_HANDLERS } from '../../src/worker/replay-handlers';

// The compare view's worker request: every strategy over the one prepared session, with progress
// per strategy, a cancel between strategies, and series equal to each strategy's own replay.

const SAMPLE_DIR = resolve(__dirname, '../../public/samples');
const SAMPLE = readdirSync(SAMPLE_DIR).find((f) => f.endsWith('.jsonl'))!;

async function loadSample(): Promise<HostState> {
  const session = await parseSession([createMemorySource(SAMPLE, readFileSync(join(SAMPLE_DIR, SAMPLE)))]);
  return {
    loaded: { sessionId: 1, session, sources: [], rowIndexCache: new Map(), fullTextCache: new Map() },
  };
}

describe('replay-compare in the worker', () => {
  it('runs each strategy once, reports progress, and gives each one’s own series', async () => {
    const state = await loadSample();
    const progress: CompareProgress[] = [];
    const ids = STRATEGIES.map((s) => s.id);
    const { result, transfer } = await REPLAY_HANDLERS['replay-compare'](
      {
        kind: 'replay-compare',
        sessionId: 1,
        entries: ids.map((strategyId) => ({ strategyId })),
        summaryModel: 'recorded',
      },
      { state, signal: new AbortController().signal, onProgress: (p) => progress.push(p) },
    );
    expect(result.rows.map((r) => r.strategyId)).toEqual(ids);
    expect(result.series.map((s) => s.strategyId)).toEqual(ids);
    expect(result.ownStrategyId).toBe('claude-code');
    expect(transfer).toHaveLength(ids.length * 2);
    expect(progress.at(0)).toEqual({ done: 0, total: ids.length, strategyId: ids[0] });
    expect(progress.at(-1)).toEqual({ done: ids.length, total: ids.length });
    // Each series is the strategy's own replay under the log's knobs.
    const prepared = prepareReplay(state.loaded!.session);
    for (const [i, id] of ids.entries()) {
      const strategy = getStrategy(id);
      const { knobs } = strategy.getSessionKnobs(getSessionInfo(prepared));
      const single = computeReplay(prepared, id, knobs);
      const series = result.series[i]!;
      expect(Array.from(series.simulatedTokens), id).toEqual(Array.from(single.simulatedTokens));
      expect(series.events.map((e) => e.kind)).toEqual(single.events.map((e) => e.kind));
      expect(series.thresholds).toEqual(single.thresholds);
      expect(result.rows[i]?.peakContextTokens).toBe(Math.max(...single.simulatedTokens));
    }
  });

  it('applies one strategy’s overrides only to it', async () => {
    const state = await loadSample();
    const { result } = await REPLAY_HANDLERS['replay-compare'](
      {
        kind: 'replay-compare',
        sessionId: 1,
        entries: [{ strategyId: 'cline', overrides: { maxAllowedTokens: 100_000 } }, { strategyId: 'cline' }],
        summaryModel: 'recorded',
      },
      { state, signal: new AbortController().signal, onProgress: () => {} },
    );
    const [low, own] = result.rows;
    expect(low?.thresholds.find((t) => t.id === 'max-allowed')?.tokens).toBe(100_000);
    expect(own?.thresholds.find((t) => t.id === 'max-allowed')?.tokens).toBe(160_000);
    expect(low!.truncatedTokens).toBeGreaterThan(own!.truncatedTokens);
  });

  it('stops between strategies when cancelled', async () => {
    const state = await loadSample();
    const abort = new AbortController();
    const seen: CompareProgress[] = [];
    const run = REPLAY_HANDLERS['replay-compare'](
      {
        kind: 'replay-compare',
        sessionId: 1,
        entries: STRATEGIES.map((s) => ({ strategyId: s.id })),
        summaryModel: 'recorded',
      },
      {
        state,
        signal: abort.signal,
        onProgress: (p) => {
          seen.push(p);
          if (p.done === 1) abort.abort();
        },
      },
    );
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen.at(-1)?.done).toBe(1);
  });
});
