import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addLiveLine, createLiveFigures, getPaceTokensPerCall } from '../../src/engine/live/live-figures';
import { computeLiveStatus, recordLivePrediction } from '../../src/engine/live/live-status';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';

const call = (id: string, context: number, output = 100, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    type: 'assistant',
    version: '2.1.68',
    message: {
      id,
      model: 'claude-opus-4-6',
      usage: {
        input_tokens: 0,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: context,
        output_tokens: output,
      },
    },
    ...extra,
  });
const boundary = (preTokens: number) =>
  JSON.stringify({
    type: 'system',
    subtype: 'compact_boundary',
    version: '2.1.68',
    compactMetadata: { trigger: 'auto', preTokens },
  });

describe('live figures', () => {
  it('agree with the parser on tiny.jsonl: calls, last context, compactions', async () => {
    const text = readFileSync(join(__dirname, '../fixtures/tiny.jsonl'), 'utf8');
    const f = createLiveFigures();
    text.split('\n').forEach((line, i) => {
      addLiveLine(f, line, i + 1);
    });
    const session = await parseSession([createMemorySource('tiny.jsonl', text)]);
    expect(f.apiCalls).toBe(session.apiCalls.length);
    expect(f.contextTokens).toBe(session.apiCalls.at(-1)!.contextTokens);
    expect(f.compactions).toBe(session.compactions.filter((c) => c.kind === 'compact').length);
    expect(f.version).toBe('2.1.68');
  });

  it('counts a streamed response once, skips sidechain calls, and measures the pace since the last compaction', () => {
    const f = createLiveFigures();
    const lines = [
      call('m1', 100_000),
      call('m1', 100_000, 300), // the same response, streamed
      call('side', 5_000, 10, { isSidechain: true }),
      call('m2', 104_000),
      call('m3', 110_000),
      boundary(110_100),
      call('m4', 20_000),
      call('m5', 23_000),
    ];
    lines.forEach((l, i) => {
      addLiveLine(f, l, i + 1);
    });
    expect(f.apiCalls).toBe(5);
    expect(f.compactions).toBe(1);
    // Only the growth after the compaction: 23,000 − 20,000.
    expect(getPaceTokensPerCall(f)).toBe(3_000);
  });

  it('scores the prediction against a real compaction: threshold miss and calls taken', () => {
    const f = createLiveFigures();
    let line = 0;
    // 150,000 then +5,000 a call: 167,000 − 155,100 = 11,900 left at 5,000 a call → 3 calls.
    for (const [i, context] of [150_000, 155_000].entries()) {
      addLiveLine(f, call(`m${i}`, context), ++line);
      recordLivePrediction(f, computeLiveStatus(f));
    }
    expect(computeLiveStatus(f)).toMatchObject({
      autoCompactTokens: 167_000,
      tokensLeft: 11_900,
      callsLeft: 3,
    });
    for (const [i, context] of [160_000, 165_000, 167_000].entries()) {
      addLiveLine(f, call(`n${i}`, context), ++line);
      recordLivePrediction(f, computeLiveStatus(f));
    }
    addLiveLine(f, boundary(167_100), ++line);
    expect(f.lastCompaction).toEqual({
      line: 6,
      trigger: 'auto',
      preTokens: 167_100,
      thresholdTokens: 167_000,
      // The first forecast of the stretch (at call 2: 3 calls left) and the last (at call 5: due
      // now), as the page's live bar scores them (engine/live/forecast-score.ts).
      firedAfterCall: 5,
      firstForecast: { atCall: 2, predictedAtCall: 5 },
      lastForecast: { atCall: 5, predictedAtCall: 5 },
      callsTaken: 3,
      callsPredicted: 3,
    });
    // The next call after a compaction is a drop, not a pace.
    addLiveLine(f, call('after', 30_000), ++line);
    expect(getPaceTokensPerCall(f)).toBeUndefined();
  });

  it('reads Codex token_count events, with the window the rollout states', () => {
    const f = createLiveFigures();
    const tokenCount = (input: number, total: number) =>
      JSON.stringify({
        type: 'event_msg',
        payload: {
          type: 'token_count',
          info: {
            total_token_usage: { total_tokens: total },
            last_token_usage: { input_tokens: input, cached_input_tokens: input - 100, output_tokens: 50 },
            model_context_window: 258_400,
          },
        },
      });
    [tokenCount(40_000, 40_050), tokenCount(40_000, 40_050), tokenCount(52_000, 92_100)].forEach((l, i) => {
      addLiveLine(f, l, i + 1);
    });
    expect(f).toMatchObject({
      format: 'codex-cli',
      apiCalls: 2,
      contextTokens: 52_000,
      contextWindow: 258_400,
    });
    const status = computeLiveStatus(f);
    expect(status.strategyId).toBe('codex');
    expect(status.contextWindowTokens).toBe(258_400);
    expect(status.autoCompactTokens).toBeGreaterThan(52_000);
  });
});
