import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { computeReplay } from '../../src/engine/replay/compute-replay';
import { checkReplayInvariants } from './invariants';
import { computeNaiveClineReplay } from './reference/cline';
import { type PreparedReplay, prepareReplay } from '../../src/engine/replay/prepare';
import type { ReplayResult } from '../../src/engine/replay/types';
import { CLINE_STRATEGY } from '../../src/engine/strategies/cline';
import {
  type ClineKnobs,
  getClineCondenseThreshold,
  getClineMaxAllowed,
} from '../../src/engine/strategies/cline/knobs';
import { getDefaultStrategyId } from '../../src/engine/strategies/descriptors';
import { getSessionInfo } from '../../src/engine/strategies/types';
import type { Session } from '../../src/engine/types';
import { generateSession } from '../../sample/generate-session';
import { expectKind } from './events';

// The Cline strategy (strategies/cline/index.ts): its constants, the fast replay against the naive one
// (tests/replay/reference/cline.ts) with the invariants on every replay, the Cline task fixture and the
// real Cline UI log of the corpus against its own truncations.

const ROOT = resolve(__dirname, '../..');
const CORPUS_LOG = resolve(ROOT, '../shared/corpus/CoreGems__Cline-Xray/task_sample__ui_messages.json');
const FIXTURE = join(ROOT, 'tests/fixtures/cline-task');

function run(prepared: PreparedReplay, knobs: Partial<ClineKnobs>): ReplayResult {
  const result = computeReplay(prepared, 'cline', CLINE_STRATEGY.normalizeKnobs(knobs));
  expect(checkReplayInvariants(prepared, result)).toEqual([]);
  return result;
}

async function clineFixture(): Promise<Session> {
  return parseSession(readdirSync(FIXTURE).map((f) => createMemorySource(f, readFileSync(join(FIXTURE, f)))));
}

describe('Cline constants', () => {
  it('maxAllowedSize by window (context-window-utils.ts), the condense threshold below it', () => {
    const at = (contextWindow: number) =>
      getClineMaxAllowed(CLINE_STRATEGY.normalizeKnobs({ contextWindow }));
    expect(at(64_000)).toBe(37_000);
    expect(at(128_000)).toBe(98_000);
    expect(at(200_000)).toBe(160_000);
    // Other windows: max(window − 40k, 80%).
    expect(at(100_000)).toBe(80_000);
    expect(at(1_000_000)).toBe(960_000);
    expect(getClineMaxAllowed(CLINE_STRATEGY.normalizeKnobs({ maxAllowedTokens: 120_000 }))).toBe(120_000);
    const condense = CLINE_STRATEGY.normalizeKnobs({ useAutoCondense: true });
    expect(getClineCondenseThreshold(condense)).toBe(150_000);
    expect(CLINE_STRATEGY.thresholds(condense).map((t) => [t.id, t.tokens])).toEqual([
      ['auto-condense', 150_000],
      ['window', 200_000],
    ]);
    expect(CLINE_STRATEGY.knobSpecs.every((s) => s.source.length > 0)).toBe(true);
  });

  it('is the Cline UI dialect default strategy', () => {
    expect(getDefaultStrategyId('cline-ui')).toBe('cline');
  });
});

const KNOB_SETS: { name: string; knobs: Partial<ClineKnobs> }[] = [
  { name: '100k window', knobs: { contextWindow: 100_000 } },
  { name: '60k window', knobs: { contextWindow: 60_000 } },
  {
    name: 'no dedup, quarter kept',
    knobs: { contextWindow: 80_000, dedupEnabled: false, truncateKeep: 'quarter' },
  },
  { name: 'dedup enough at 5%', knobs: { contextWindow: 70_000, dedupEnoughPercent: 5 } },
];

describe('Cline: fast replay = naive replay', () => {
  for (const seed of [3, 11]) {
    it(`agrees on a generated session (seed ${seed})`, async () => {
      const g = generateSession({ seed, apiCalls: 300 });
      const prepared = prepareReplay(
        await parseSession(g.files.map((f) => createMemorySource(f.name, f.text))),
      );
      const kinds = new Set<string>();
      for (const set of KNOB_SETS) {
        const knobs = CLINE_STRATEGY.normalizeKnobs(set.knobs);
        const result = run(prepared, knobs);
        const naive = computeNaiveClineReplay(prepared, knobs);
        const label = `seed ${seed}, ${set.name}`;
        expect(Array.from(result.simulatedTokens), label).toEqual(naive.simulatedTokens);
        const fast = result.events
          .filter((e) => e.kind !== 'blocked')
          .map((e) => ({
            kind: e.kind,
            afterCallPos: e.afterCallPos,
            postTokens: e.postTokens,
            ...(e.kind === 'truncate'
              ? {
                  range: [
                    prepared.posOfEntry[e.droppedFromEntryIndex!]!,
                    prepared.posOfEntry[e.droppedToEntryIndex!]! + 1,
                  ],
                }
              : {}),
            ...(e.kind === 'replace' ? { ids: e.clearedToolIds } : {}),
          }));
        expect(fast, label).toEqual(naive.events);
        for (const e of fast) kinds.add(e.kind);
      }
      expect([...kinds].sort()).toEqual(expect.arrayContaining(['replace', 'truncate']));
    });
  }
});

describe('Cline: a task that switches models', () => {
  // Cline reads the window of the model each request is sent with (getContextWindowInfo(api)
  // before each request); the replay checked every call against one window for the session, here
  // DeepSeek's 64,000 (maxAllowedSize 37,000) though the task went on with Claude (200,000: 160,000).
  // The fixture's first two requests on DeepSeek, the rest on Claude.
  async function switched(): Promise<PreparedReplay> {
    const files = readdirSync(FIXTURE).map((f) => {
      let text = readFileSync(join(FIXTURE, f), 'utf8');
      if (f === 'ui_messages.json') {
        const messages = JSON.parse(text) as { modelInfo?: { providerId: string; modelId: string } }[];
        messages.forEach((m, i) => {
          if (i < 11 && m.modelInfo)
            m.modelInfo = { ...m.modelInfo, providerId: 'deepseek', modelId: 'deepseek-chat' };
        });
        text = JSON.stringify(messages);
      }
      return createMemorySource(f, text);
    });
    return prepareReplay(await parseSession(files));
  }

  it('checks each request against its own model’s window, as pi does', async () => {
    const prepared = await switched();
    const models = Array.from(prepared.calls, (c) => prepared.session.apiCalls[c]!.model);
    expect(models.slice(0, 3)).toEqual(['deepseek-chat', 'deepseek-chat', 'claude-sonnet-4-5']);
    const { knobs, notes } = CLINE_STRATEGY.getSessionKnobs(getSessionInfo(prepared));
    expect(knobs.windowPerModel).toBe(true);
    expect(notes.join(' ')).toContain('deepseek-chat 64,000, claude-sonnet-4-5 200,000');
    const result = run(prepared, knobs);
    // Calls 3 and 4 are sent to Claude: 40,120 and 90,300 before them are under its 160,000 (over
    // DeepSeek's 37,000); the 161,000 before call 5 is over it.
    const first = expectKind(result.events[0], 'truncate');
    expect(first.afterCallPos).toBe(3);
    expect(first.thresholdTokens).toBe(160_000);
    expect(result.events.filter((e) => e.kind === 'blocked')).toEqual([]);
    // Off: one window for every request, the session's (DeepSeek's: the log names it), as before:
    // Claude's 90,000-token request refused at DeepSeek's 64,000, and truncations at 37,000.
    const one = run(prepared, { ...knobs, windowPerModel: false });
    const blocked = expectKind(one.events[0], 'blocked');
    expect(blocked.afterCallPos).toBe(2);
    expect(blocked.thresholdTokens).toBe(64_000);
    const early = expectKind(one.events[1], 'truncate');
    expect(early.afterCallPos).toBe(2);
    expect(early.thresholdTokens).toBe(37_000);
  });
});

describe('Cline: the task fixture', () => {
  it('truncates after request 3 (161,000 ≥ 160,000), keeping the task; events carry afterApiCall', async () => {
    const session = await clineFixture();
    const prepared = prepareReplay(session);
    const { knobs, notes } = CLINE_STRATEGY.getSessionKnobs(getSessionInfo(prepared));
    expect(knobs.contextWindow).toBe(200_000);
    expect(notes.join(' ')).toMatch(/Claude model/);
    const result = run(prepared, knobs);
    const first = expectKind(result.events[0], 'truncate');
    expect(first.afterCallPos).toBe(3);
    expect(first.afterApiCall).toBe(prepared.calls[3]);
    expect(first.checkTokens).toBe(161_000);
    // Messages 2–3: call 1's results and call 2's answer, named as the page numbers calls (from 1).
    expect(first.note).toBe(
      'keep half: API history messages 2–3 dropped (the results of API call 1), the first pair kept',
    );
    // The task (the first user message) is never dropped.
    expect(first.droppedFromEntryIndex).toBeGreaterThan(prepared.ctxEntry[0]!);
    expect(result.comparison.outcomes[0]).toMatchObject({ kind: 'truncate', status: 'matched' });
  });

  it('compactlab replay <ui_messages.json> --strategy cline --json', async () => {
    let text = '';
    const code = await main(
      ['replay', join(FIXTURE, 'ui_messages.json'), '--strategy', 'cline', '--json'],
      (t) => {
        text += t;
      },
    );
    expect(code).toBe(0);
    const json = JSON.parse(text);
    expect(json.strategyId).toBe('cline');
    expect(json.events[0]).toMatchObject({ kind: 'truncate', afterApiCall: 3 });
  });
});

describe.skipIf(!existsSync(CORPUS_LOG))('Cline: the real UI log against its truncations', () => {
  it('at the log’s own knobs: where the replay truncates and where Cline did', async () => {
    const session = await parseSession([createMemorySource('ui_messages.json', readFileSync(CORPUS_LOG))]);
    const prepared = prepareReplay(session);
    const real = prepared.real.filter((r) => r.kind === 'truncate').map((r) => r.afterCall);
    expect(real).toEqual([16, 31, 37, 50]);
    const { knobs } = CLINE_STRATEGY.getSessionKnobs(getSessionInfo(prepared));
    expect(getClineMaxAllowed(knobs)).toBe(160_000);
    const result = run(prepared, knobs);
    const replayed = result.events.filter((e) => e.kind === 'truncate').map((e) => e.afterCallPos);
    // Cline's own rule over the log's own counts: every truncation follows a call at or over the limit.
    for (const k of real) expect(prepared.recorded[k]! + prepared.output[k]!).toBeGreaterThanOrEqual(160_000);
    // The first one is reproduced at the same call, with the same deleted range: the replay's
    // history is the log's again afterwards (its figures are the recorded ones).
    expect(replayed[0]).toBe(16);
    expect(result.diverged[17]).toBe(0);
    expect(result.simulatedTokens[17]).toBe(prepared.recorded[17]);
    // Call 25 (175,816) is over the limit too, but the log's context falls without a new deleted
    // range: Cline's file-read dedup saved enough there. The UI log does not hold the read results
    // (they are in api_conversation_history.json), so the replay truncates instead.
    expect(prepared.recorded[25]! + prepared.output[25]!).toBeGreaterThanOrEqual(160_000);
    expect(replayed).toContain(25);
    console.info(
      `Cline corpus: real truncations after calls ${real.join(', ')}; replay after ${replayed.join(', ')}; ` +
        `${result.comparison.reproduced}/${result.comparison.expected} within ±${result.comparison.toleranceCalls}`,
    );
  });
});
if (!existsSync(CORPUS_LOG))
  describe.skip('Cline: the real UI log — ../shared/corpus is absent', () => it('skipped'));
