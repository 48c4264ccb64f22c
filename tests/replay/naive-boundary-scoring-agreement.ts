import { expect } from 'vitest';
import { computeReplay } from '../../src/engine/replay/compute-replay';
import { checkReplayInvariants } from './invariants';
import { computeNaiveBoundaryScoringReplay } from './reference/boundary-scoring';
import type { PreparedReplay } from '../../src/engine/replay/prepare';
import type { SummaryModelId } from '../../src/engine/replay/summary-size';
import { BOUNDARY_SCORING_STRATEGY } from '../../src/engine/strategies/boundary-scoring';
import type { BoundaryScoringKnobs } from '../../src/engine/strategies/boundary-scoring/knobs';
import { expectSameKeptRangeEvents } from './naive-events';

// The fast boundary-scoring replay against its naive reference (tests/replay/reference/boundary-scoring.ts),
// shared by naive-boundary-scoring.test.ts (small sessions, per commit) and naive-boundary-scoring.reference.test.ts (the big
// generated seeds and the sample, the `reference` stage).

export const KNOB_SETS: { name: string; knobs: Partial<BoundaryScoringKnobs>; model?: SummaryModelId }[] = [
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

export function expectAgreement(prepared: PreparedReplay, name: string): number {
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
