import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { computeReplay } from '../../src/engine/replay/compute-replay';
import { checkReplayInvariants } from './invariants';
import { computeNaiveBoundaryScoringReplay } from './reference/boundary-scoring';
import { type PreparedReplay, prepareReplay } from '../../src/engine/replay/prepare';
import type { SummaryModelId } from '../../src/engine/replay/summary-size';
import {
  BOUNDARY_SCORING_STRATEGY,
  type BoundaryScoringKnobs,
} from '../../src/engine/strategies/boundary-scoring';
import { generateSession } from '../../sample/generate-session';
import { parsePiSession } from './pi-session';
import { REPLAY_FIXTURES } from './replay-fixtures';
import { growingSpec, parseFixture } from './transcript-fixture';
import { expectSameKeptRangeEvents } from './naive-events';

// The fast boundary-scoring replay against the deliberately naive one
// (tests/replay/reference/boundary-scoring.ts), call by call: the same simulated context, the same
// compactions (call, post-compaction context, summary size, first kept message) and resets.

const KNOB_SETS: { name: string; knobs: Partial<BoundaryScoringKnobs>; model?: SummaryModelId }[] = [
  { name: 'defaults', knobs: {} },
  { name: 'threshold 60,000', knobs: { thresholdTokens: 60_000 } },
  {
    name: 'threshold 30,000, target 30%, radius 8',
    knobs: { thresholdTokens: 30_000, targetRatioPercent: 30, searchRadiusMessages: 8 },
  },
  { name: 'max 120 messages, target 40%', knobs: { maxMessages: 120, targetRatioPercent: 40 } },
  {
    name: 'context counter at 80,000, ratio',
    knobs: { counter: 'context', thresholdTokens: 80_000 },
    model: 'ratio',
  },
  { name: 'max 40 messages, min 20, tail 10', knobs: { maxMessages: 40, minMessages: 20, tailMessages: 10 } },
];

function expectAgreement(prepared: PreparedReplay, name: string): number {
  let compactions = 0;
  for (const set of KNOB_SETS) {
    const knobs = BOUNDARY_SCORING_STRATEGY.normalizeKnobs({ ...set.knobs });
    const summaryModel = set.model ?? 'recorded';
    const result = computeReplay(prepared, 'boundary-scoring', knobs, { summaryModel });
    expect(checkReplayInvariants(prepared, result)).toEqual([]);
    const naive = computeNaiveBoundaryScoringReplay(prepared, knobs, summaryModel);
    const label = `${name}, ${set.name}`;
    expect(Array.from(result.simulatedTokens), label).toEqual(naive.simulatedTokens);
    compactions += expectSameKeptRangeEvents(prepared, result, naive.events, label);
  }
  return compactions;
}

describe('fast replay = naive replay: boundary-scoring', () => {
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

  it('agrees on a pi session with two logged compactions', async () => {
    const turns = Array.from({ length: 50 }, (_, t) => ({
      promptChars: 400,
      calls: [
        {
          tools: [
            { name: 'read' as const, path: `src/f${t % 9}.ts`, resultChars: 6_000 + ((t * 7919) % 30_000) },
          ],
        },
        {},
      ],
    }));
    const prepared = prepareReplay(
      await parsePiSession({
        turns,
        compactions: [
          { afterTurn: 20, firstKeptTurn: 18, summaryChars: 10_000 },
          { afterTurn: 38, firstKeptTurn: 37, summaryChars: 8_000 },
        ],
      }),
    );
    expect(expectAgreement(prepared, 'pi session')).toBeGreaterThan(0);
  });

  it.each(REPLAY_FIXTURES)('agrees on $label', async ({ name, load }) => {
    const prepared = prepareReplay(await load());
    expect(expectAgreement(prepared, name)).toBeGreaterThan(0);
  });
});
