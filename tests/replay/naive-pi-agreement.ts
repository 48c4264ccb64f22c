import { expect } from 'vitest';
import { computeReplay } from '../../src/engine/replay/compute-replay';
import { checkReplayInvariants } from './invariants';
import { computeNaivePiReplay } from './reference/pi';
import type { PreparedReplay } from '../../src/engine/replay/prepare';
import type { SummaryModelId } from '../../src/engine/replay/summary-size';
import { PI_STRATEGY } from '../../src/engine/strategies/pi';
import type { PiKnobs } from '../../src/engine/strategies/pi/descriptor';
import { logKnobsOf } from './strategy-variants';
import { expectSameKeptRangeEvents } from './naive-events';

// The fast pi replay against its naive reference (tests/replay/reference/pi.ts),
// shared by naive-pi.test.ts (small sessions, per commit) and naive-pi.reference.test.ts (the big
// generated seeds and the sample, the `reference` stage).

export const KNOB_SETS: { name: string; knobs: Partial<PiKnobs>; model?: SummaryModelId }[] = [
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
export function expectAgreement(prepared: PreparedReplay, name: string): number {
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
