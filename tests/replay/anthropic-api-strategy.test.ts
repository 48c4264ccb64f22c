import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { CLEARABLE_THINKING, type PreparedReplay, prepareReplay } from '../../src/engine/replay/prepare';
import type { MicrocompactEvent, ReplayEvent, ReplayResult } from '../../src/engine/replay/types';
import { ofKind } from './events';
import { ANTHROPIC_SDK_COMPACTION_STRATEGY } from '../../src/engine/strategies/anthropic-sdk-compaction';
import {
  SDK_DEFAULT_TOKEN_THRESHOLD,
  SDK_SUMMARY_MAX_TOKENS,
} from '../../src/engine/strategies/anthropic-sdk-compaction/descriptor';
import {
  API_COMPACTION_MIN_TRIGGER,
  PAUSE_NOTE,
} from '../../src/engine/strategies/api-clear-tool-uses/compaction';
import { API_CONTEXT_EDITING_STRATEGY } from '../../src/engine/strategies/api-clear-tool-uses';
import { corpusJsonl, corpusOrSkip } from '../helpers/corpus';
import { runStrategy } from './strategy-variants';
import { type CallSpec, parseFixture, type TranscriptSpec } from './transcript-fixture';

// The Anthropic API's context management (strategies/api-clear-tool-uses/index.ts with
// api-clear-thinking.ts and api-compaction.ts) and the TypeScript SDK's compactionControl
// (strategies/anthropic-sdk-compaction/index.ts): hand-written transcripts for the rules, every replay
// checked against the invariants (runStrategy), and the corpus figure for clear_thinking.

const API = API_CONTEXT_EDITING_STRATEGY.id;
const SDK = ANTHROPIC_SDK_COMPACTION_STRATEGY.id;

/**
 * `turns` prompts of `callsPerTurn` calls each; every call thinks `thinkingChars` characters and
 * reads one file of `readChars`; each call's context grows by `stepTokens`.
 */
function turnsSpec(
  turns: number,
  callsPerTurn: number,
  options: { thinkingChars?: number; readChars?: number; stepTokens?: number; start?: number } = {},
): TranscriptSpec {
  const calls: CallSpec[] = [];
  const step = options.stepTokens ?? 4_000;
  for (let t = 0; t < turns; t++)
    for (let c = 0; c < callsPerTurn; c++) {
      const k = calls.length;
      calls.push({
        prompt: c === 0 ? `Turn ${t + 1}.` : undefined,
        context: (options.start ?? 20_000) + k * step,
        output: 200,
        thinking: options.thinkingChars ?? 4_000,
        tools: [{ name: 'Read', path: `/work/demo/src/f${k}.ts`, resultChars: options.readChars ?? 12_000 }],
      });
    }
  return { calls };
}

async function prepared(spec: TranscriptSpec): Promise<PreparedReplay> {
  return prepareReplay((await parseFixture(spec)).session);
}

/** Thinking items of the prepared model, in context order. */
function thinkingItems(p: PreparedReplay): number[] {
  const out: number[] = [];
  for (let i = 0; i < p.clearables.tool.length; i++)
    if (p.clearables.tool[i] === CLEARABLE_THINKING) out.push(i);
  return out;
}

const clearedIds = (r: ReplayResult) => new Set(Object.keys(r.clearedToolIds));
const isThinkingClear = (e: ReplayEvent): e is MicrocompactEvent =>
  e.kind === 'microcompact' && e.note?.startsWith('clear_thinking') === true;
const isToolClear = (e: ReplayEvent): boolean => e.kind === 'microcompact' && !isThinkingClear(e);

describe('the prepared model knows each assistant turn’s thinking', () => {
  it('one thinking item per thinking block, with the turn of the prompt before it', async () => {
    const p = await prepared(turnsSpec(3, 2));
    const items = thinkingItems(p);
    expect(items).toHaveLength(6);
    expect(items.map((i) => p.clearables.turn[i])).toEqual([1, 1, 2, 2, 3, 3]);
    for (const i of items) {
      expect(p.clearables.ids[i]).toMatch(/:thinking:0$/);
      expect(p.clearables.estimate[i]).toBe(1_000);
      expect(p.clearables.tokens[i]).toBeGreaterThan(0);
    }
    // Tool results keep theirs: the turn counts prompts, not tool-result messages.
    const reads = p.clearables.tool.reduce((n, t) => n + (t >= 0 ? 1 : 0), 0);
    expect(reads).toBe(6);
  });
});

describe('clear_thinking_20251015', () => {
  const thinkingOnly = { clearThinking: true, clearToolUses: false };

  it('keeps the thinking of the last assistant turn (keep 1, the default)', async () => {
    const p = await prepared(turnsSpec(4, 3));
    const items = thinkingItems(p);
    const r = runStrategy(p, API, thinkingOnly);
    const events = r.events.filter(isThinkingClear);
    // Turn 1's thinking goes once turn 2 has thought (after call 4, the first of turn 2).
    expect(events[0]!.afterCallPos).toBe(3);
    expect(events[0]!.clearedToolIds).toEqual(items.slice(0, 3).map((i) => p.clearables.ids[i]));
    expect(events.map((e) => e.afterCallPos)).toEqual([3, 6, 9]);
    const ids = clearedIds(r);
    for (const [n, i] of items.entries()) expect(ids.has(p.clearables.ids[i]!), `thinking ${n}`).toBe(n < 9);
    // The removed blocks leave nothing behind, and the savings are their attributed tokens.
    const saved = items.slice(0, 9).reduce((s, i) => s + p.clearables.tokens[i]!, 0);
    expect(events.reduce((s, e) => s + e.savedTokens!, 0)).toBe(saved);
  });

  it('keeps the last N turns’ thinking, or all of it', async () => {
    const p = await prepared(turnsSpec(4, 3));
    const items = thinkingItems(p);
    const keep2 = runStrategy(p, API, { ...thinkingOnly, keepThinkingTurns: 2 });
    expect(keep2.events.filter(isThinkingClear).map((e) => e.afterCallPos)).toEqual([6, 9]);
    const ids = clearedIds(keep2);
    for (const [n, i] of items.entries()) expect(ids.has(p.clearables.ids[i]!), `thinking ${n}`).toBe(n < 6);

    const all = runStrategy(p, API, { ...thinkingOnly, keepAllThinking: true });
    expect(all.events).toEqual([]);
    const off = runStrategy(p, API, { clearThinking: false, clearToolUses: false });
    expect(off.events).toEqual([]);
  });

  it('never clears a tool result or an image, and nothing else clears thinking', async () => {
    const p = await prepared(turnsSpec(4, 3));
    const thinking = new Set(thinkingItems(p).map((i) => p.clearables.ids[i]));
    const r = runStrategy(p, API, thinkingOnly);
    for (const id of clearedIds(r)) expect(thinking.has(id)).toBe(true);
    const tools = runStrategy(p, API, { triggerTokens: 30_000, keepToolUses: 1 });
    expect(tools.events.length).toBeGreaterThan(0);
    for (const id of clearedIds(tools)) expect(thinking.has(id)).toBe(false);
    const claudeCode = runStrategy(p, 'claude-code', {
      microcompactEnabled: true,
      microcompactClearImages: true,
    });
    for (const id of clearedIds(claudeCode)) expect(thinking.has(id)).toBe(false);
  });
});

describe('several edits in one request, in the API’s order', () => {
  it('clear_thinking first, then clear_tool_uses on what it left', async () => {
    const p = await prepared(turnsSpec(6, 3, { thinkingChars: 8_000, stepTokens: 8_000 }));
    const r = runStrategy(p, API, { clearThinking: true, triggerTokens: 50_000, keepToolUses: 2 });
    let thinkingSaved = 0;
    let both = 0;
    r.events.forEach((e, n) => {
      if (isThinkingClear(e)) {
        thinkingSaved += e.savedTokens!;
        const next = r.events[n + 1];
        if (next && next.afterCallPos === e.afterCallPos && isToolClear(next)) {
          both++;
          // The tool trigger compares the request less every thinking block the first edit removes.
          expect(next.checkTokens).toBe(e.checkTokens - thinkingSaved);
          expect(e.thresholdTokens).toBe(0);
          expect(next.thresholdTokens).toBe(50_000);
        }
      }
      if (isToolClear(e)) {
        // A thinking clear at the same call never comes after the tool clear.
        expect(
          r.events.slice(n + 1).some((x) => x.afterCallPos === e.afterCallPos && isThinkingClear(x)),
        ).toBe(false);
      }
    });
    expect(both).toBeGreaterThan(0);
  });

  it('compaction last, on the input both clearing edits left', async () => {
    const p = await prepared(turnsSpec(6, 3, { thinkingChars: 8_000, stepTokens: 8_000 }));
    const r = runStrategy(p, API, {
      clearThinking: true,
      keepThinkingTurns: 2,
      triggerTokens: 60_000,
      compaction: true,
      compactTriggerTokens: 50_000,
    });
    const compactions = r.events.filter((e) => e.kind === 'compact');
    expect(compactions.length).toBeGreaterThan(0);
    for (const c of compactions) {
      expect(c.checkTokens).toBeGreaterThanOrEqual(50_000);
      const sameCall = r.events.filter((e) => e.afterCallPos === c.afterCallPos);
      expect(sameCall[sameCall.length - 1]).toBe(c);
      expect(c.summaryTokens).toBeGreaterThan(0);
      expect(c.restored?.totalTokens).toBe(0);
      expect(c.continuationTokens).toBe(0);
    }
    // Thinking a compaction summarized is not in later requests: never cleared after it.
    for (const c of compactions) {
      const boundary = p.callPos[c.afterCallPos + 1]!;
      for (const e of r.events)
        if (isThinkingClear(e) && e.afterCallPos > c.afterCallPos)
          for (const id of e.clearedToolIds!)
            expect(p.clearables.pos[p.clearables.indexById.get(id)!]!).toBeGreaterThanOrEqual(boundary);
    }
    // Alone, the compaction compares the request as sent; after the clearing edits, what they left.
    const alone = runStrategy(p, API, {
      clearToolUses: false,
      compaction: true,
      compactTriggerTokens: 50_000,
    });
    const c = compactions.find(
      (e, n) => n > 0 && r.events[r.events.indexOf(e) - 1]?.afterCallPos === e.afterCallPos,
    )!;
    const clears = ofKind(r.events, 'microcompact').filter((e) => e.afterCallPos === c.afterCallPos);
    const same = alone.events.find((e) => e.kind === 'compact' && e.afterCallPos === c.afterCallPos)!;
    expect(clears.length).toBeGreaterThan(0);
    expect(c.checkTokens).toBe(same.checkTokens - clears.reduce((sum, e) => sum + e.savedTokens!, 0));
  });
});

describe('compact_20260112', () => {
  it('normalizeKnobs enforces the 50,000-token minimum trigger; the default is 150,000', () => {
    const n = API_CONTEXT_EDITING_STRATEGY.normalizeKnobs;
    expect(API_COMPACTION_MIN_TRIGGER).toBe(50_000);
    expect(n({}).compactTriggerTokens).toBe(150_000);
    expect(n({ compactTriggerTokens: 30_000 }).compactTriggerTokens).toBe(50_000);
    expect(n({ compactTriggerTokens: '70000' }).compactTriggerTokens).toBe(70_000);
    expect(n({ compactTriggerTokens: 'soon' }).compactTriggerTokens).toBe(150_000);
    expect(n({ keepThinkingTurns: 0 }).keepThinkingTurns).toBe(1);
    expect(n({}).compaction).toBe(false);
    expect(n({}).clearThinking).toBe(false);
    expect(n({}).clearToolUses).toBe(true);
  });

  it('pause_after_compaction shows as the event’s note; instructions are the request’s', async () => {
    const p = await prepared(turnsSpec(6, 3));
    const knobs = { clearToolUses: false, compaction: true, compactTriggerTokens: 50_000 };
    const paused = runStrategy(p, API, {
      ...knobs,
      pauseAfterCompaction: true,
      compactInstructions: 'Keep the paths.',
    });
    const plain = runStrategy(p, API, knobs);
    const pe = paused.events.filter((e) => e.kind === 'compact');
    const ce = plain.events.filter((e) => e.kind === 'compact');
    expect(pe.length).toBeGreaterThan(0);
    expect(pe.map((e) => e.afterCallPos)).toEqual(ce.map((e) => e.afterCallPos));
    for (const e of pe) {
      expect(e.note).toContain(PAUSE_NOTE);
      expect(e.request?.customInstructions).toBe('Keep the paths.');
    }
    for (const e of ce) {
      expect(e.note).not.toContain('pause_after_compaction');
      expect(e.request?.customInstructions).toBeUndefined();
    }
    // The summary replaces everything before it: the next call starts from base + summary.
    const e = ce[0]!;
    expect(e.postTokens).toBe(p.baseTokens + e.summaryTokens!);
  });

  it('draws one line per edit with a trigger', () => {
    const lines = (k: object) =>
      API_CONTEXT_EDITING_STRATEGY.thresholds(API_CONTEXT_EDITING_STRATEGY.normalizeKnobs(k)).map(
        (l) => `${l.id} ${l.tokens}`,
      );
    expect(lines({})).toEqual(['trigger 100000', 'window 200000']);
    expect(lines({ compaction: true, clearToolUses: false })).toEqual(['compaction 150000', 'window 200000']);
    expect(lines({ compaction: true, compactTriggerTokens: 80_000 })).toEqual([
      'trigger 100000',
      'compaction 80000',
      'window 200000',
    ]);
  });
});

describe('the TypeScript SDK’s compactionControl', () => {
  it("defaults: threshold 100,000 context tokens; the runner's max_tokens 4,096 (ours); deprecated", () => {
    const k = ANTHROPIC_SDK_COMPACTION_STRATEGY.normalizeKnobs({});
    expect(SDK_DEFAULT_TOKEN_THRESHOLD).toBe(100_000);
    expect(SDK_SUMMARY_MAX_TOKENS).toBe(4_096);
    expect(k.contextTokenThreshold).toBe(100_000);
    expect(k.summaryMaxTokens).toBe(4_096);
    expect(ANTHROPIC_SDK_COMPACTION_STRATEGY.description).toMatch(/deprecated since sdk-v0\.83\.0/);
    const spec = ANTHROPIC_SDK_COMPACTION_STRATEGY.knobSpecs.find((s) => s.key === 'summaryMaxTokens')!;
    expect(spec.source).toMatch(/params\.max_tokens.*ours/);
    expect(ANTHROPIC_SDK_COMPACTION_STRATEGY.thresholds(k).map((l) => `${l.id} ${l.tokens}`)).toEqual([
      'threshold 100000',
      'window 200000',
    ]);
  });

  it('checks after every response, a final answer included, on input + output, and caps the summary', async () => {
    // Calls 0–5 read files; call 6 answers without a tool at 104,000; calls 7 and 8 read again.
    const calls: CallSpec[] = Array.from({ length: 9 }, (_, k) => ({
      prompt: k === 0 || k === 7 ? `Prompt ${k}.` : undefined,
      context: 40_000 + k * 10_000 + (k >= 6 ? 4_000 : 0),
      output: 500,
      tools: k === 6 ? [] : [{ name: 'Read', path: `/work/demo/f${k}.ts`, resultChars: 36_000 }],
    }));
    const p = await prepared({ calls });
    const r = runStrategy(p, SDK, {});
    const compactions = r.events.filter((e) => e.kind === 'compact');
    // Call 6 (104,500 with its output) called no tool: the runner still checks it (anthropics/
    // anthropic-sdk-typescript@bfa9197f0182084941052be9752c948638421601:src/lib/tools/BetaToolRunner.ts:219,
    // before it looks at tool_use) and compacts there, where the tool-calls-only rule waited for call 7.
    expect(compactions.map((e) => e.afterCallPos)[0]).toBe(6);
    const c = compactions[0]!;
    expect(c.checkTokens).toBe(p.recorded[6]! + p.output[6]!);
    expect(c.thresholdTokens).toBe(100_000);
    expect(c.postTokens).toBe(p.baseTokens + c.summaryTokens!);

    // A supplied 10,000-token summary is cut to max_tokens.
    const supplied = runStrategy(p, SDK, {}, { suppliedSummaryTokens: { [c.afterApiCall]: 10_000 } });
    const s = supplied.events.find((e) => e.kind === 'compact')!;
    expect(s.summaryTokens).toBe(4_096);
    expect(s.note).toContain('4,096-token max_tokens');
    const smaller = runStrategy(
      p,
      SDK,
      { summaryMaxTokens: 2_048 },
      { suppliedSummaryTokens: { [c.afterApiCall]: 3_000 } },
    );
    expect(smaller.events.find((e) => e.kind === 'compact')!.summaryTokens).toBe(2_048);
    // Off: nothing happens.
    expect(runStrategy(p, SDK, { enabled: false }).events.filter((e) => e.kind === 'compact')).toEqual([]);
  });
});

// On the real transcripts: how much of the context older turns' thinking takes (keep 1), every
// replay sound. Skipped without ../shared/corpus.
corpusOrSkip('anthropic-api-strategy: the corpus figure');
const corpus = corpusJsonl();
describe.skipIf(corpus.length === 0)('corpus: clear_thinking keep 1', () => {
  it('clears only thinking, once each, and the invariants hold', async () => {
    let sessions = 0;
    let blocks = 0;
    let cleared = 0;
    let savedTokens = 0;
    for (const file of corpus) {
      const session = await parseSession([createMemorySource(basename(file), readFileSync(file))]);
      const p = prepareReplay(session);
      const thinking = new Set(thinkingItems(p).map((i) => p.clearables.ids[i]));
      if (thinking.size === 0) continue;
      sessions++;
      blocks += thinking.size;
      const r = runStrategy(p, API, { clearThinking: true, clearToolUses: false });
      for (const id of clearedIds(r)) expect(thinking.has(id), id).toBe(true);
      cleared += clearedIds(r).size;
      for (const e of r.events) if (isThinkingClear(e)) savedTokens += e.savedTokens!;
    }
    console.log(
      `clear_thinking keep 1 on the corpus: ${cleared}/${blocks} thinking blocks cleared in ${sessions} sessions, −${savedTokens.toLocaleString('en-US')} attributed tokens`,
    );
    expect(sessions).toBeGreaterThan(0);
    expect(cleared).toBeGreaterThan(0);
    expect(cleared).toBeLessThanOrEqual(blocks);
  });
});
