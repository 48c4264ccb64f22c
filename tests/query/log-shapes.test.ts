import { at } from '../../src/engine/assert';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  getInferredWindowKnobs,
  getMaxOutputForModel,
  inferContextWindow,
} from '../../src/engine/parse/context-window';
import { followBranch } from '../../src/engine/parse/branches';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { getSessionOverview } from '../../src/engine/query/session-overview';
import { computeTimelineSeries } from '../../src/engine/query/timeline-series';
import {
  getEstimatedCallContext,
  getUsageCoverage,
  withEstimatedPost,
} from '../../src/engine/query/usage-coverage';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { CLAUDE_CODE_STRATEGY } from '../../src/engine/strategies/claude-code';
import { getSessionInfo } from '../../src/engine/strategies/types';
import { computeThresholds } from '../../src/engine/thresholds';
import type { Session } from '../../src/engine/types';
import { buildShapeFixtures } from '../fixtures/make-shape-fixtures';
import { runReplay } from '../replay/run-replay';

// The log shapes of "Real logs read right" items 4–6, on fixtures written by
// tests/fixtures/make-shape-fixtures.ts: a 1M-context session, a session whose calls record no
// usage, and a rewind that forks the uuid tree.

const FIXTURES = resolve(__dirname, '../fixtures');

async function load(name: string): Promise<Session> {
  return parseSession([createMemorySource(name, readFileSync(join(FIXTURES, name)))]);
}

describe('shape fixtures', () => {
  it('are the committed files, byte for byte', () => {
    for (const [name, text] of Object.entries(buildShapeFixtures()))
      expect(readFileSync(join(FIXTURES, name), 'utf8'), name).toBe(text);
  });
});

describe('inferContextWindow', () => {
  it('takes 1M from a [1m] model id', () => {
    const w = inferContextWindow({
      models: ['claude-sonnet-4-5-20250929[1m]'],
      peakContextTokens: 50_000,
      autoCompactPreTokens: [],
    });
    expect(w).toMatchObject({ windowTokens: 1_000_000, windowSource: 'model-id', maxOutputTokens: 64_000 });
    expect(w.reasons[0]).toContain('claude-sonnet-4-5-20250929[1m]');
  });

  it('takes 1M from a context that went past 200k, whatever the model id says', () => {
    const w = inferContextWindow({
      models: ['claude-opus-5'],
      peakContextTokens: 586_660,
      autoCompactPreTokens: [],
    });
    expect(w).toMatchObject({ windowTokens: 1_000_000, windowSource: 'observed' });
    expect(w.reasons[0]).toContain('586,660');
    expect(w.reasons[1]).toContain('not in the model table');
  });

  it('takes a larger window from an auto-compaction point over 200k, not from a manual one', () => {
    expect(
      inferContextWindow({
        models: ['claude-opus-4-6'],
        peakContextTokens: 150_000,
        autoCompactPreTokens: [400_000],
      }).windowTokens,
    ).toBe(1_000_000);
    const auto = inferContextWindow({
      models: ['claude-opus-4-6'],
      peakContextTokens: 168_900,
      autoCompactPreTokens: [167_731, 175_199],
    });
    expect(auto).toMatchObject({ windowTokens: 200_000, windowSource: 'default' });
    expect(auto.reasons[0]).toContain('167,731–175,199');
  });

  it("assumes 200k for another maker's model saying it knows none for it, not reasoning from Claude's ids", () => {
    const other = inferContextWindow({
      models: ['Qwen/Qwen3-235B-A22B-Thinking-2507', 'deepseek-ai/DeepSeek-V4-Pro'],
      peakContextTokens: 18_807,
      autoCompactPreTokens: [],
    });
    expect(other).toMatchObject({ windowTokens: 200_000, windowSource: 'assumed' });
    expect(other.reasons[0]).toBe(
      "Window 200k, assumed (ours: the log states no window, and none is known here for Qwen/Qwen3-235B-A22B-Thinking-2507, deepseek-ai/DeepSeek-V4-Pro: 200k is the Claude models' standard context) and the context peaked at 18,807 tokens.",
    );
    const claude = inferContextWindow({
      models: ['claude-sonnet-4-5'],
      peakContextTokens: 1_000,
      autoCompactPreTokens: [],
    });
    expect(claude.reasons[0]).toContain('no model id names the 1M context');
  });

  it('keeps a window the log states, and goes past 1M only on evidence', () => {
    expect(
      inferContextWindow({
        models: ['gpt-5'],
        peakContextTokens: 90_000,
        autoCompactPreTokens: [],
        statedWindowTokens: 272_000,
      }),
    ).toMatchObject({ windowTokens: 272_000, windowSource: 'stated' });
    expect(
      inferContextWindow({ models: ['x'], peakContextTokens: 1_200_400, autoCompactPreTokens: [] })
        .windowTokens,
    ).toBe(1_201_000);
  });

  it('knows max outputs per model and sets the knob only when it lowers the reservation', () => {
    expect(getMaxOutputForModel('claude-3-5-sonnet-20241022')?.tokens).toBe(8_192);
    expect(getMaxOutputForModel('claude-opus-4-1-20250805')?.tokens).toBe(32_000);
    expect(getMaxOutputForModel('claude-opus-4-6')?.tokens).toBe(128_000);
    expect(getMaxOutputForModel('claude-haiku-4-5-20251001')?.tokens).toBe(64_000);
    expect(getMaxOutputForModel('glm-4.6')).toBeUndefined();
    const small = inferContextWindow({
      models: ['claude-3-5-sonnet-20241022'],
      peakContextTokens: 1,
      autoCompactPreTokens: [],
    });
    const knobs = getInferredWindowKnobs(small, 20_000);
    expect(knobs).toMatchObject({ contextWindow: 200_000, maxOutputTokens: 8_192 });
    expect(knobs.notes).toEqual([small.reasons[1]]);
    const big = inferContextWindow({
      models: ['claude-opus-4-6'],
      peakContextTokens: 1,
      autoCompactPreTokens: [],
    });
    expect(getInferredWindowKnobs(big, 20_000)).toEqual({
      contextWindow: 200_000,
      maxOutputTokens: 64_000,
      notes: [],
    });
  });
});

describe('a 1M-context session', () => {
  it('is replayed on a 1M window: no blocked event, auto-compact not inferred off', async () => {
    const session = await load('one-million.jsonl');
    const prepared = prepareReplay(session);
    const { knobs, notes } = CLAUDE_CODE_STRATEGY.getSessionKnobs(getSessionInfo(prepared));
    expect(knobs.contextWindow).toBe(1_000_000);
    expect(knobs.autoCompactEnabled).toBe(true);
    expect(notes.some((n) => n.startsWith('Window 1M: the model id'))).toBe(true);
    expect(computeThresholds(knobs).autoCompact).toBe(967_000);
    const { result } = runReplay(prepared, knobs);
    expect(result.events.filter((e) => e.kind === 'blocked')).toEqual([]);
    expect(Math.max(...prepared.recorded)).toBe(598_500);
    // What the page did before: a 200k window, auto-compact inferred off, so the log was refused.
    const old = runReplay(prepared, { ...knobs, contextWindow: 200_000, autoCompactEnabled: false }).result;
    expect(old.events.some((e) => e.kind === 'blocked')).toBe(true);
  });

  it('gives the header the inferred window and its reasons', async () => {
    const summary = getSessionOverview(await load('one-million.jsonl'));
    expect(summary.window).toMatchObject({ windowTokens: 1_000_000, windowSource: 'model-id' });
    expect(summary.usage).toMatchObject({ mainCalls: 10, zeroUsageCalls: 0 });
    expect(summary.branches).toBeUndefined();
  });
});

describe('a session without usage', () => {
  it('counts the calls without usage and estimates their context, flagged', async () => {
    const session = await load('zero-usage.jsonl');
    expect(getUsageCoverage(session)).toMatchObject({ mainCalls: 8, zeroUsageCalls: 7, baseMeasured: true });
    const series = computeTimelineSeries(session);
    expect(Array.from(series.estimated)).toEqual([0, 1, 1, 1, 1, 1, 1, 1]);
    const ctx = Array.from(series.contextTokens);
    expect(ctx[0]).toBe(18_000);
    // The first estimate adds call 0's 2,000-char result (~500 tokens) to its measured usage;
    // each next one a 8,000-char result (~2,000 tokens) and a tool call.
    expect(at(ctx, 1) - at(ctx, 0)).toBeGreaterThan(500);
    expect(at(ctx, 1) - at(ctx, 0)).toBeLessThan(600);
    for (let x = 2; x < ctx.length; x++) {
      expect(at(ctx, x)).toBeGreaterThan(at(ctx, x - 1) + 1_900);
      expect(at(ctx, x)).toBeLessThan(at(ctx, x - 1) + 2_300);
    }
    expect(series.peakContextTokens).toBe(ctx.at(-1));
  });

  it('gives a compaction followed by a call without usage its estimate, flagged', async () => {
    const session = await load('zero-usage.jsonl');
    const c = {
      kind: 'compact',
      entryIndex: 0,
      fileIndex: 0,
      line: 1,
      trigger: 'auto',
      postTokens: 0,
      apiCallAfter: 3,
      reattachedEntryIndices: [],
    } as const;
    const post = withEstimatedPost(session, { ...c, reattachedEntryIndices: [] });
    expect(post.postEstimated).toBe(true);
    expect(post.postTokens).toBe(getEstimatedCallContext(session, 3));
    expect(post.postTokens).toBeGreaterThan(18_000);
    expect(
      withEstimatedPost(session, { ...c, reattachedEntryIndices: [], apiCallAfter: 0 }).postEstimated,
    ).toBeUndefined();
  });

  it('leaves series with usage untouched', async () => {
    const series = computeTimelineSeries(await load('one-million.jsonl'));
    expect(Array.from(series.estimated).every((v) => v === 0)).toBe(true);
    expect(series.contextTokens[0]).toBe(32_000);
  });
});

describe('a rewind', () => {
  it('finds the fork, the branch that went on and the abandoned one', async () => {
    const session = await load('rewind.jsonl');
    const b = session.branches!;
    expect(b.forks).toHaveLength(1);
    expect(b.branches.map((x) => [x.isMainLine, x.apiCalls, x.preview])).toEqual([
      [true, 4, 'What does the report command print for an empty ledger?'],
      [false, 2, 'Now make it print every transaction of 2025 with its running balance.'],
    ]);
    const fork = at(b.forks, 0);
    expect(fork.continuedBranchId).toBe(0);
    // Branches listed in file order: the abandoned one was written first.
    expect(fork.branchIds).toEqual([1, 0]);
    expect(fork.childPreviews).toEqual([
      'Now make it print every transaction of 2025 with its running balance.',
      'Now make it print only the totals of 2025.',
    ]);
    expect(fork.childApiCalls).toEqual([2, 2]);
    expect(session.entries[fork.entryIndex]?.kind).toBe('assistant');
  });

  it('follows the live branch: series and replay of the main line skip the abandoned calls', async () => {
    const session = await load('rewind.jsonl');
    expect(Array.from(computeTimelineSeries(session).contextTokens)).toEqual([
      20_000, 20_600, 21_100, 21_600,
    ]);
    const other = followBranch(session, 1);
    expect(followBranch(session, 1)).toBe(other);
    expect(Array.from(computeTimelineSeries(other).contextTokens)).toEqual([20_000, 20_600, 21_000, 36_000]);
    const main = prepareReplay(session);
    const abandoned = prepareReplay(other);
    expect(Array.from(main.recorded)).toEqual([20_000, 20_600, 21_100, 21_600]);
    expect(Array.from(abandoned.recorded)).toEqual([20_000, 20_600, 21_000, 36_000]);
    // The main line's history never holds the abandoned 60,000-char result.
    expect(main.prefixAll.at(-1)!).toBeLessThan(abandoned.prefixAll.at(-1)! - 10_000);
    runReplay(main);
    runReplay(abandoned);
  });

  it("estimates a call's context from its own ancestors, not from the file order", async () => {
    const session = await load('rewind.jsonl');
    const calls = session.apiCalls.map((c) => c.index);
    const [, , , abandonedLast, edited] = calls.map((i) => getEstimatedCallContext(session, i));
    // The edited prompt's first call comes after the abandoned branch in the file but does not carry it.
    expect(abandonedLast!).toBeGreaterThan(edited! + 10_000);
  });

  it('leaves single-branch sessions without branches', async () => {
    for (const name of ['tiny.jsonl', 'broken.jsonl', 'xss.jsonl', 'one-million.jsonl', 'zero-usage.jsonl'])
      expect((await load(name)).branches, name).toBeUndefined();
  });
});
