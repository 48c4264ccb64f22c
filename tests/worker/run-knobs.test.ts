import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { getStrategy } from '../../src/engine/strategies/registry';
import type { HostState } from '../../src/worker/engine-host';
import { REPLAY_HANDLERS, resolveRunKnobs } from '../../src/worker/replay-handlers';

// The page sends the user's raw knob edits; the worker resolves them over the log's own knobs,
// the ones its `replay-setup` gave (the one place a run's knobs are normalized).

const FIXTURE = resolve(__dirname, '../fixtures/one-million.jsonl');

async function load(): Promise<HostState> {
  const session = await parseSession([createMemorySource('one-million.jsonl', readFileSync(FIXTURE))]);
  return {
    loaded: { sessionId: 1, session, sources: [], rowIndexCache: new Map(), fullTextCache: new Map() },
  } as HostState;
}

const context = (state: HostState) => ({ state, signal: new AbortController().signal, onProgress: () => {} });

describe("a run's knobs", () => {
  it("are the user's edits over the setup's knobs of the log", async () => {
    const state = await load();
    const session = state.loaded!.session;
    const setup = await REPLAY_HANDLERS['replay-setup'](
      { kind: 'replay-setup', sessionId: 1, strategyId: 'claude-code' },
      context(state),
    );
    const own = setup.result.sessionKnobs;
    expect(own.contextWindow, 'the [1m] model id gives the log a 1M window').toBe(1_000_000);
    expect(resolveRunKnobs(session, 'claude-code', {})).toEqual(own);
    const edited = resolveRunKnobs(session, 'claude-code', {
      autocompactPctOverride: 50,
      maxOutputTokens: 'x',
    });
    // The same function the page shows the knobs with, over the same knobs: the same answer.
    expect(edited).toEqual(
      getStrategy('claude-code').normalizeKnobs({ autocompactPctOverride: 50, maxOutputTokens: 'x' }, own),
    );
    expect(edited).toMatchObject({ autocompactPctOverride: 50, contextWindow: 1_000_000 });
    // An invalid edit keeps the log's value; `null` clears an optional knob.
    expect(edited.maxOutputTokens).toBe(own.maxOutputTokens);
    expect(
      resolveRunKnobs(session, 'claude-code', { autocompactPctOverride: null }).autocompactPctOverride,
    ).toBe(undefined);
  });

  it('a run request carries the edits, and runs under the resolved knobs', async () => {
    const state = await load();
    const run = async (overrides: Record<string, number | null>) =>
      (
        await REPLAY_HANDLERS['replay-run'](
          {
            kind: 'replay-run',
            sessionId: 1,
            strategyId: 'claude-code',
            overrides,
            summaryModel: 'recorded',
          },
          context(state),
        )
      ).result.result;
    const own = await run({});
    const lower = await run({ contextWindow: 200_000 });
    const trigger = (r: typeof own) => r.thresholds.find((t) => t.kind === 'trigger')?.tokens ?? 0;
    expect(trigger(own)).toBeGreaterThan(900_000);
    expect(trigger(lower)).toBeLessThan(200_000);
  });
});
