import { describe, expect, it } from 'vitest';
import { computeReplayCost } from '../../src/engine/cost/replay-cost';
import { computeCostUsd, getPriceKey, PRICE_TABLE, priceBilledTokens } from '../../src/engine/cost/prices';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { computeReplay } from '../../src/engine/replay/compute-replay';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { getStrategy } from '../../src/engine/strategies/registry';
import { getSessionInfo } from '../../src/engine/strategies/types';
import type { Session } from '../../src/engine/types';
import { generateSession } from '../../sample/generate-session';

// The cost model (issue 21) on generated Claude Code sessions: the replay at the log's own knobs
// costs what the log's recorded usage costs, a strategy that compacts earlier pays for its
// summaries and its lost cache, the cache breaks after an idle gap, and the price table reads the
// models of the real logs.

async function generated(seed: number, apiCalls: number): Promise<Session> {
  const { files } = generateSession({ seed, apiCalls, features: { microcompact: true } });
  return parseSession(files.map((f) => createMemorySource(f.name, f.text)));
}

function replayAt(session: Session, knobs?: Record<string, unknown>) {
  const prepared = prepareReplay(session);
  const strategy = getStrategy('claude-code');
  const own = strategy.getSessionKnobs(getSessionInfo(prepared)).knobs;
  return computeReplay(prepared, 'claude-code', { ...own, ...knobs });
}

describe('price table', () => {
  it('reads the model ids of real logs', () => {
    expect(getPriceKey('claude-opus-4-5-20251101')).toBe('opus-4-5');
    expect(getPriceKey('claude-3-5-haiku-20241022')).toBe('haiku-3-5');
    expect(getPriceKey('anthropic/claude-sonnet-4.5')).toBe('sonnet-4-5');
    expect(getPriceKey('gpt-5.3-codex')).toBe('gpt-5.3-codex');
    expect(getPriceKey('gpt-5-2025-08-07')).toBe('gpt-5');
    expect(getPriceKey('gemini-2.5-pro')).toBe('gemini-2.5-pro');
    expect(getPriceKey('kimi-k2.5:cloud')).toBeUndefined();
    for (const [key, price] of Object.entries(PRICE_TABLE)) {
      expect(price.source, key).toMatch(/^https:\/\//);
      expect(price.outputPerMTok, key).toBeGreaterThan(price.inputPerMTok);
    }
  });

  it('prices 1-hour writes at their own rate and long prompts at the long rates', () => {
    const usage = { inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 1_000_000 };
    expect(computeCostUsd('claude-opus-4-6', usage)).toBeCloseTo(6.25);
    expect(
      computeCostUsd('claude-opus-4-6', { ...usage, cacheCreation1hInputTokens: 1_000_000 }),
    ).toBeCloseTo(10);
    const gemini = PRICE_TABLE['gemini-2.5-pro']!;
    const t = { uncached: 100_000, cacheWrite5m: 0, cacheWrite1h: 0, cacheRead: 0, output: 0 };
    expect(priceBilledTokens(gemini, t)).toBeCloseTo(0.125);
    expect(priceBilledTokens(gemini, { ...t, uncached: 300_000 })).toBeCloseTo(0.75);
    expect(
      computeCostUsd('claude-opus-4-6', usage, { 'opus-4-6': { inputPerMTok: 1, outputPerMTok: 2 } }),
    ).toBeCloseTo(1.25);
  });
});

describe('cost of a replay, generated sessions', () => {
  it('at the log’s own knobs, its calls cost what the recorded usage costs', async () => {
    const session = await generated(11, 300);
    const result = replayAt(session);
    const cost = computeReplayCost(session, result);
    expect(cost.real.calls.calls).toBe(result.callIndex.length);
    expect(cost.real.calls.usd).toBeGreaterThan(0);
    // Its replay reproduces the log's compactions and its history never differs from the log's:
    // every call billed as recorded.
    expect(result.diverged.every((d) => d === 0)).toBe(true);
    expect(cost.calls.usd).toBeCloseTo(cost.real.calls.usd, 9);
    // The cache model prices the same calls within 5%.
    const modelled = computeReplayCost(session, result, { modelledCalls: 'all' });
    expect(Math.abs(modelled.calls.usd / cost.real.calls.usd - 1)).toBeLessThan(0.05);
    // Input tokens are conserved: read + written + uncached = the simulated context of every call.
    const sent = result.simulatedTokens.reduce((a, b) => a + b, 0);
    const c = cost.calls;
    expect(c.cacheRead + c.cacheWrite5m + c.cacheWrite1h + c.uncached).toBeCloseTo(sent, 3);
  });

  it('a replay that changes nothing costs exactly what the log did', async () => {
    // Before the sample's first compaction nothing differs: every call as recorded.
    const session = await generated(15, 200);
    // A cache miss the transcript shows no cause for (a provider's): the call wrote its prefix again.
    const missed = session.apiCalls[40]!.usage;
    missed.cacheCreationInputTokens += missed.cacheReadInputTokens;
    missed.cacheReadInputTokens = 0;
    const result = replayAt(session, { disableAutoCompact: true, disableCompact: true });
    expect(result.events).toEqual([]);
    expect(result.diverged.every((d) => d === 0)).toBe(true);
    const cost = computeReplayCost(session, result);
    expect(cost.calls.usd).toBeCloseTo(cost.real.calls.usd, 9);
    expect(cost.calls.cacheRead).toBe(cost.real.calls.cacheRead);
    // The documented cache alone would not: it reads that prefix.
    const modelled = computeReplayCost(session, result, { modelledCalls: 'all', cache: { hitShare: 1 } });
    expect(modelled.calls.cacheRead).toBeGreaterThan(cost.real.calls.cacheRead);
  });

  it('compacting earlier adds summaries and cache writes, and reads less', async () => {
    const session = await generated(12, 400);
    const own = computeReplayCost(session, replayAt(session));
    const earlyResult = replayAt(session, { autocompactPctOverride: 40 });
    const early = computeReplayCost(session, earlyResult);
    expect(early.summaries.calls).toBeGreaterThan(own.summaries.calls);
    // A summary call's input is the context it summarized, its output the summary.
    // (A manual compaction the log made is adopted as a reset: its summary call is paid too.)
    const compacts = earlyResult.events.flatMap((e) =>
      (e.kind === 'compact' && e.llmCalls > 0) || e.kind === 'reset' ? [e] : [],
    );
    const s = early.summaries;
    expect(s.cacheRead + s.cacheWrite5m + s.cacheWrite1h + s.uncached).toBeCloseTo(
      compacts.reduce((a, e) => a + e.preTokens, 0),
      3,
    );
    expect(s.output).toBe(compacts.reduce((a, e) => a + (e.summaryTokens ?? 0), 0));
    expect(early.calls.cacheRead).toBeLessThan(own.calls.cacheRead);
    // Each compaction re-writes the context after it: more writes per read.
    const writesPerRead = (c: typeof own.calls) => (c.cacheWrite5m + c.cacheWrite1h) / c.cacheRead;
    expect(writesPerRead(early.calls)).toBeGreaterThan(writesPerRead(own.calls));
  });

  it('a log without any cache figure is priced without a cache; reads without writes, as automatic caching', async () => {
    const session = await generated(14, 100);
    for (const call of session.apiCalls) {
      const u = call.usage;
      u.inputTokens += u.cacheReadInputTokens + u.cacheCreationInputTokens;
      u.cacheReadInputTokens = 0;
      u.cacheCreationInputTokens = 0;
    }
    const cost = computeReplayCost(session, replayAt(session));
    expect(cost.cache.kind).toBe('none');
    expect(cost.calls.cacheRead + cost.calls.cacheWrite5m + cost.calls.cacheWrite1h).toBe(0);
    expect(cost.calls.usd).toBeCloseTo(cost.real.calls.usd, 6);
    // Reads but no writes (a gateway that does not report them): no write is billed.
    for (const call of session.apiCalls) {
      call.usage.cacheReadInputTokens = Math.floor(call.usage.inputTokens / 2);
      call.usage.inputTokens -= call.usage.cacheReadInputTokens;
    }
    const readsOnly = computeReplayCost(session, replayAt(session));
    expect(readsOnly.cache.kind).toBe('automatic');
    expect(readsOnly.calls.cacheWrite5m + readsOnly.calls.cacheWrite1h).toBe(0);
    expect(readsOnly.calls.cacheRead).toBeGreaterThan(0);
  });

  it('the cache is gone after an idle gap over its lifetime, kept under it', async () => {
    const session = await generated(13, 120);
    const result = replayAt(session);
    const kept = computeReplayCost(session, result, {
      cache: { ttlMs: 1e12, hitShare: 1 },
      modelledCalls: 'all',
    });
    const none = computeReplayCost(session, result, {
      cache: { ttlMs: -1, hitShare: 1 },
      modelledCalls: 'all',
    });
    expect(none.calls.cacheRead).toBe(0);
    expect(kept.calls.cacheRead).toBeGreaterThan(0);
    expect(none.calls.usd).toBeGreaterThan(kept.calls.usd);
  });
});
