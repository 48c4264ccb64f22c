import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { computeReplay } from '../../src/engine/replay/compute-replay';
import { computeNaivePiReplay } from './reference/pi';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { estimatePiMessageTokens, PI_STRATEGY } from '../../src/engine/strategies/pi';
import { generateSession } from '../../sample/generate-session';
import { type PiSessionSpec, type PiTurnSpec, parsePiSession } from './pi-session';
import { expectAgreement } from './naive-pi-agreement';
import { REPLAY_FIXTURES } from './replay-fixtures';
import { logKnobsOf } from './strategy-variants';
import { growingSpec, parseFixture } from './transcript-fixture';

// The fast pi replay (strategies/pi/index.ts through compute-replay.ts) against the deliberately naive
// one (tests/replay/reference/pi.ts), call by call: the same simulated context and trigger count, the same
// compactions (call, post-compaction context, summary size, first kept message) and resets, over
// knob sets that move the trigger (reserveTokens, window), the cut (keepRecentTokens) and the
// summary model.

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

  // Small, per commit; the 300-call seeds and the sample: naive-pi.reference.test.ts. It
  // starts at 100,000 tokens, so 120 calls reach every threshold.
  it('agrees on a small generated session (seed 3, 120 calls from 100,000 tokens)', async () => {
    const g = generateSession({ seed: 3, apiCalls: 120, initialContextTokens: 100_000 });
    const session = await parseSession(g.files.map((f) => createMemorySource(f.name, f.text)));
    expect(expectAgreement(prepareReplay(session), 'seed 3, 120 calls')).toBeGreaterThan(5);
  });

  it('agrees on a generated transcript that grows past every window', async () => {
    const prepared = prepareReplay((await parseFixture(growingSpec(40))).session);
    expect(expectAgreement(prepared, 'growing 40')).toBeGreaterThan(0);
  });

  it.each(REPLAY_FIXTURES.filter((f) => f.name !== 'sample'))('agrees on $label', async ({ name, load }) => {
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
