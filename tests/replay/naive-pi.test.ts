import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { computeReplay } from '../../src/engine/replay/compute-replay';
import { checkReplayInvariants } from './invariants';
import { computeNaivePiReplay } from './reference/pi';
import { type PreparedReplay, prepareReplay } from '../../src/engine/replay/prepare';
import type { SummaryModelId } from '../../src/engine/replay/summary-size';
import { estimatePiMessageTokens, PI_STRATEGY, type PiKnobs } from '../../src/engine/strategies/pi';
import { generateSession } from '../../sample/generate-session';
import { type PiSessionSpec, type PiTurnSpec, parsePiSession } from './pi-session';
import { REPLAY_FIXTURES } from './replay-fixtures';
import { logKnobsOf } from './strategy-variants';
import { growingSpec, parseFixture } from './transcript-fixture';
import { expectSameKeptRangeEvents } from './naive-events';

// The fast pi replay (strategies/pi/index.ts through compute-replay.ts) against the deliberately naive
// one (tests/replay/reference/pi.ts), call by call: the same simulated context and trigger count, the same
// compactions (call, post-compaction context, summary size, first kept message) and resets, over
// knob sets that move the trigger (reserveTokens, window), the cut (keepRecentTokens) and the
// summary model.

const KNOB_SETS: { name: string; knobs: Partial<PiKnobs>; model?: SummaryModelId }[] = [
  { name: 'log knobs', knobs: {} },
  { name: 'log knobs, ratio model', knobs: {}, model: 'ratio' },
  { name: 'window 100,000', knobs: { contextWindow: 100_000 } },
  { name: 'reserve 60,000, keep 5,000', knobs: { reserveTokens: 60_000, keepRecentTokens: 5_000 } },
  {
    name: 'window 80,000, keep 40,000, ratio',
    knobs: { contextWindow: 80_000, keepRecentTokens: 40_000 },
    model: 'ratio',
  },
  {
    name: 'window 60,000, keep 0, no overflow',
    knobs: { contextWindow: 60_000, keepRecentTokens: 0, overflowRecovery: false },
  },
  { name: 'window 50,000, reserve 0', knobs: { contextWindow: 50_000, reserveTokens: 0 } },
  { name: 'off', knobs: { contextWindow: 60_000, enabled: false } },
];

/** Fast and naive replays of every knob set on one session; the number of compactions compared. */
function expectAgreement(prepared: PreparedReplay, name: string): number {
  let compactions = 0;
  const log = logKnobsOf(prepared, 'pi').knobs;
  for (const set of KNOB_SETS) {
    const knobs = PI_STRATEGY.normalizeKnobs({ ...log, ...set.knobs });
    const summaryModel = set.model ?? 'recorded';
    const result = computeReplay(prepared, 'pi', knobs, { summaryModel });
    expect(checkReplayInvariants(prepared, result)).toEqual([]);
    const naive = computeNaivePiReplay(prepared, knobs, summaryModel);
    const label = `${name}, ${set.name}`;
    expect(Array.from(result.simulatedTokens), label).toEqual(naive.simulatedTokens);
    expect(Array.from(result.checkTokens), label).toEqual(naive.checkTokens);
    compactions += expectSameKeptRangeEvents(prepared, result, naive.events, label);
  }
  return compactions;
}

/** A turn that reads one file (`resultChars` of it) and then answers. */
const readTurn = (path: string, resultChars: number, promptChars = 400): PiTurnSpec => ({
  promptChars,
  calls: [{ tools: [{ name: 'read', path, resultChars }] }, {}],
});

/** Turns of reads, edits and bash runs of varied sizes, one long run every seventh turn. */
function piTurns(count: number, seed: number): PiTurnSpec[] {
  const turns: PiTurnSpec[] = [];
  for (let t = 0; t < count; t++) {
    const size = 4_000 + ((t * 7919 + seed * 104_729) % 40_000);
    if (t % 7 === 3)
      turns.push({
        promptChars: 600,
        calls: [
          { tools: [{ name: 'read', path: `src/m${t}.ts`, resultChars: size }] },
          { tools: [{ name: 'edit', path: `src/m${t}.ts`, resultChars: 200 }] },
          { tools: [{ name: 'bash', resultChars: size / 2 }] },
          { tools: [{ name: 'write', path: `src/n${t}.ts`, resultChars: 100 }] },
          { textChars: 800 },
        ],
      });
    else turns.push(readTurn(`src/f${t % 11}.ts`, size));
  }
  return turns;
}

const PI_SESSIONS: { name: string; spec: PiSessionSpec }[] = [
  { name: 'no compaction', spec: { turns: piTurns(60, 1) } },
  {
    name: 'two logged compactions',
    spec: {
      turns: piTurns(70, 2),
      compactions: [
        { afterTurn: 24, firstKeptTurn: 22, summaryChars: 12_000, readFiles: ['src/f1.ts'] },
        { afterTurn: 50, firstKeptTurn: 49, summaryChars: 9_000, modifiedFiles: ['src/m10.ts'] },
      ],
    },
  },
  {
    name: 'a compaction under the threshold (/compact)',
    spec: {
      turns: piTurns(40, 3),
      compactions: [{ afterTurn: 8, firstKeptTurn: 7, summaryChars: 6_000 }],
    },
  },
];

describe('fast replay = naive replay: pi', () => {
  it.each(PI_SESSIONS)('agrees on a pi session: $name', async ({ name, spec }) => {
    const prepared = prepareReplay(await parsePiSession(spec));
    expect(expectAgreement(prepared, name)).toBeGreaterThan(5);
  });

  for (const seed of [3, 11]) {
    it(`agrees on a generated session (seed ${seed})`, async () => {
      const g = generateSession({ seed, apiCalls: 300 });
      const session = await parseSession(g.files.map((f) => createMemorySource(f.name, f.text)));
      expect(expectAgreement(prepareReplay(session), `seed ${seed}`)).toBeGreaterThan(5);
    });
  }

  it('agrees on a generated transcript that grows past every window', async () => {
    const prepared = prepareReplay((await parseFixture(growingSpec(40))).session);
    expect(expectAgreement(prepared, 'growing 40')).toBeGreaterThan(0);
  });

  it.each(REPLAY_FIXTURES)('agrees on $label', async ({ name, load }) => {
    const prepared = prepareReplay(await load());
    expect(expectAgreement(prepared, name)).toBeGreaterThan(0);
  });
});

describe('fast replay = naive replay: pi, keepRecentTokens reached exactly', () => {
  it('keeps from the message where the newest estimates reach keepRecentTokens, one more token keeps the answer before it', async () => {
    const prepared = prepareReplay(await parsePiSession(PI_SESSIONS[0]!.spec));
    const { session, ctxEntry, callPos } = prepared;
    const base = PI_STRATEGY.normalizeKnobs({
      ...logKnobsOf(prepared, 'pi').knobs,
      contextWindow: 100_000,
    });
    const first = computeReplay(prepared, 'pi', base).events.find((e) => e.kind === 'compact')!;
    const boundary = callPos[first.afterCallPos + 1]!;
    // The newest prompt right after a run's answer (both cut points) with 5,000 estimated tokens
    // from it on; the first compaction's call does not depend on keepRecentTokens.
    const entryAt = (p: number) => session.entries[ctxEntry[p]!]!;
    let kept = boundary;
    let exact = 0;
    while (kept > 1) {
      kept--;
      exact += estimatePiMessageTokens(entryAt(kept));
      const prompt =
        entryAt(kept).kind === 'user' && !entryAt(kept).blocks.some((b) => b.kind === 'tool-result');
      if (exact >= 5_000 && prompt && entryAt(kept - 1).kind === 'assistant') break;
    }
    expect(entryAt(kept - 1).blocks.some((b) => b.kind === 'tool-use')).toBe(false);
    for (const [keepRecentTokens, from] of [
      [exact, kept],
      [exact + 1, kept - 1],
    ] as const) {
      const knobs = { ...base, keepRecentTokens };
      const fast = computeReplay(prepared, 'pi', knobs).events.find((e) => e.kind === 'compact')!;
      const naive = computeNaivePiReplay(prepared, knobs).events.find((e) => e.kind === 'compact')!;
      expect(fast.afterCallPos).toBe(first.afterCallPos);
      expect(naive.afterCallPos).toBe(first.afterCallPos);
      expect(fast.keptFromEntryIndex, `keepRecentTokens ${keepRecentTokens}`).toBe(ctxEntry[from]);
      expect(naive.keepFromPos, `keepRecentTokens ${keepRecentTokens}`).toBe(from);
    }
  });
});
