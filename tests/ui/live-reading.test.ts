import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionAppendResult } from '../../src/worker/protocol';
import type { HostState } from '../../src/worker/engine-host';
import { SESSION_HANDLERS } from '../../src/worker/session-handlers';
import { type LiveReading, nextReading } from '../../src/ui/library/live-reading';
import { CORPUS, corpusOrSkip } from '../helpers/corpus';

// Live mode's bar after each step, from the worker's real step (session-append) over real logs.
// The tester's report: following dealerflow, then cutting the file to its first 40 lines, then
// writing another session (aistrad dd09f641, 3 compactions) over it, the bar said "Compaction
// fired after call 142; forecast said 67 (+75 calls)": a compaction already in the new file, never
// seen landing, scored against the cut session's forecast. A replaced or shrunk file starts over;
// only a compaction that lands while the file is followed is scored, against its own stretch's
// forecasts (engine/live/forecast-score.ts: the first and the last).

const DEALERFLOW =
  'reviewchaser__dealerflow/claude__projects__C--Users-georg-dealerflow__57c87a56-24c0-4296-be22-193aa3e1e16c.jsonl';
const AISTRAD =
  'aistrad__work/claude__projects__-home-aiscend-work__dd09f641-685d-49ee-ae89-00a8fe814df2.jsonl';
const NAME = 'session.jsonl';

/** The byte offset just past each line's newline. */
function lineEnds(bytes: Uint8Array): number[] {
  const ends: number[] = [];
  for (let i = bytes.indexOf(0x0a); i >= 0; i = bytes.indexOf(0x0a, i + 1)) ends.push(i + 1);
  return ends;
}

/** A page following one file: each step the worker's, then the bar's reading from it. */
function createFollower() {
  const state: HostState = {};
  let id = 0;
  let reading: LiveReading | undefined;
  const readings: LiveReading[] = [];
  return {
    async step(bytes: Uint8Array): Promise<SessionAppendResult> {
      const { result } = await SESSION_HANDLERS['session-append'](
        {
          kind: 'session-append',
          sessionId: id === 0 ? undefined : id,
          newSessionId: id + 1,
          file: { name: NAME, blob: new Blob([bytes.slice()]) },
          others: [],
        },
        { state, signal: new AbortController().signal, onProgress: () => {} },
      );
      id++;
      reading = nextReading(reading, result.row, result.autoCompactTokens, result.restarted === true);
      readings.push(reading);
      return result;
    },
    get reading() {
      return reading!;
    },
    readings,
  };
}

describe.skipIf(!corpusOrSkip('live reading over real logs'))('live mode reading', () => {
  it('scores a compaction seen landing, never one a shrunk or replaced file already held', async () => {
    const dealerflow = new Uint8Array(readFileSync(resolve(CORPUS, DEALERFLOW)));
    const aistrad = new Uint8Array(readFileSync(resolve(CORPUS, AISTRAD)));
    const follow = createFollower();
    const ends = lineEnds(dealerflow);

    // From line 200, 20 lines a step, to its end: its two compactions (lines 352 and 552) land.
    await follow.step(dealerflow.subarray(0, ends[199]));
    expect(follow.reading.score).toBeUndefined();
    for (let i = 219; i < ends.length + 19; i += 20)
      await follow.step(dealerflow.subarray(0, ends[Math.min(i, ends.length - 1)]));
    const scores = [...new Set(follow.readings.map((r) => r.score).filter((s) => s !== undefined))];
    expect(scores).toHaveLength(2);
    for (const score of scores) {
      // Each against its own stretch: forecasts made before it, after the previous compaction.
      expect(score.first!.atCall).toBeLessThanOrEqual(score.last!.atCall);
      expect(score.last!.atCall).toBeLessThanOrEqual(score.firedAfterCall);
    }
    expect(scores[1]!.first!.atCall).toBeGreaterThan(scores[0]!.firedAfterCall);

    // Cut to its first 40 lines: read again whole, the score gone.
    const cut = await follow.step(dealerflow.subarray(0, ends[39]));
    expect(cut).toMatchObject({ restarted: true, reparsed: 'the file shrank' });
    expect(follow.reading.score).toBeUndefined();

    // Another session written over it, up to before its third compaction (line 583): its first
    // two are its history, not scored against the cut session's forecast.
    const aEnds = lineEnds(aistrad);
    const replaced = await follow.step(aistrad.subarray(0, aEnds[569]));
    expect(replaced.restarted).toBe(true);
    expect(replaced.reparsed).toMatch(/replaced/);
    expect(replaced.row.compactions.auto).toBe(2);
    expect(follow.reading.score).toBeUndefined();
    expect(follow.reading.track.first?.atCall).toBe(replaced.row.apiCalls);

    // It grows on: its third compaction lands while followed, and is scored against its own
    // forecasts, made after the replacement.
    for (let i = 589; i < aEnds.length + 19; i += 20) {
      const step = await follow.step(aistrad.subarray(0, aEnds[Math.min(i, aEnds.length - 1)]));
      expect(step.restarted).toBe(false);
    }
    const score = follow.reading.score!;
    expect(score).toBeDefined();
    expect(score.first!.atCall).toBe(replaced.row.apiCalls);
    expect(score.firedAfterCall).toBeGreaterThan(replaced.row.apiCalls);
  });
});
