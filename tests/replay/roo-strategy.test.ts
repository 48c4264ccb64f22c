import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { checkReplayInvariants } from './invariants';
import { computeNaiveRooReplay } from './reference/roo';
import { prepareReplay } from '../../src/engine/replay/prepare';
import type { CompactEvent } from '../../src/engine/replay/types';
import { getRooCondenseTokens, getRooTruncateCount, ROO_STRATEGY } from '../../src/engine/strategies/roo';
import {
  getRooAllowedTokens,
  getRooEffectivePercent,
  ROO_DEFAULT_MAX_TOKENS,
  type RooKnobs,
} from '../../src/engine/strategies/roo/descriptor';
import { generateSession } from '../../sample/generate-session';
import { REPLAY_FIXTURES } from './replay-fixtures';
import { logKnobsOf, runStrategy } from './strategy-variants';
import { growingSpec, parseFixture } from './transcript-fixture';
import { ofKind } from './events';

// The Roo Code strategy (strategies/roo/index.ts): the condense trigger (the percent of the window or
// window × 0.9 − maxTokens), messages tagged rather than deleted (what a rewind restores), and the
// sliding-window fallback that hides half of the visible messages after the first, in pairs.

const knobs = (input: Partial<RooKnobs> = {}): RooKnobs => ROO_STRATEGY.normalizeKnobs(input);

describe('Roo: the thresholds', () => {
  it('allowedTokens is window × (1 − 0.1) − maxTokens (8,192 by default)', () => {
    expect(ROO_DEFAULT_MAX_TOKENS).toBe(8_192);
    expect(getRooAllowedTokens(knobs())).toBe(171_808);
    expect(getRooAllowedTokens(knobs({ contextWindow: 128_000, maxTokens: 16_384 }))).toBe(98_816);
    expect(getRooAllowedTokens(knobs({ bufferPercent: 20 }))).toBe(151_808);
  });

  it("the percent in force: the profile's when 5–100, the global one for −1 or an invalid value", () => {
    expect(getRooEffectivePercent(knobs())).toBe(100);
    expect(getRooEffectivePercent(knobs({ autoCondensePercent: 70, profileThresholdPercent: -1 }))).toBe(70);
    expect(getRooEffectivePercent(knobs({ autoCondensePercent: 70, profileThresholdPercent: 3 }))).toBe(70);
    expect(getRooEffectivePercent(knobs({ autoCondensePercent: 70, profileThresholdPercent: 50 }))).toBe(50);
    // The panel and CLI: an empty field clears the profile's entry; below −1 is clamped to −1.
    expect(
      ROO_STRATEGY.normalizeKnobs({ profileThresholdPercent: '' }).profileThresholdPercent,
    ).toBeUndefined();
    expect(ROO_STRATEGY.normalizeKnobs({ profileThresholdPercent: '-7' }).profileThresholdPercent).toBe(-1);
    expect(ROO_STRATEGY.normalizeKnobs({ autoCondensePercent: 2 }).autoCondensePercent).toBe(5);
  });

  it('condenses at whichever comes first; the lines drawn follow', () => {
    // 100% of the window is past allowedTokens: only allowedTokens is a trigger.
    expect(getRooCondenseTokens(knobs())).toBe(171_808);
    expect(ROO_STRATEGY.thresholds(knobs()).map((l) => [l.id, l.tokens])).toEqual([
      ['allowed', 171_808],
      ['window', 200_000],
    ]);
    expect(getRooCondenseTokens(knobs({ autoCondensePercent: 60 }))).toBe(120_000);
    expect(ROO_STRATEGY.thresholds(knobs({ autoCondensePercent: 60 })).map((l) => l.id)).toEqual([
      'condense',
      'allowed',
      'window',
    ]);
    const off = ROO_STRATEGY.thresholds(knobs({ autoCondenseContext: false, autoCondensePercent: 60 }));
    expect(off.map((l) => [l.id, l.label])).toEqual([
      ['allowed', 'allowedTokens (sliding window)'],
      ['window', 'Context window'],
    ]);
  });

  it('truncateConversation hides an even count of the visible messages after the first', () => {
    expect(getRooTruncateCount(11, 0.5)).toBe(4);
    expect(getRooTruncateCount(10, 0.5)).toBe(4);
    expect(getRooTruncateCount(7, 0.5)).toBe(2);
    expect(getRooTruncateCount(3, 0.5)).toBe(0);
    expect(getRooTruncateCount(1, 0.5)).toBe(0);
  });
});

describe('Roo: condensing, tagged', () => {
  it('fires at the percent or over allowedTokens, counting the message about to be sent', async () => {
    // Up to 185,000 tokens: the log's window is 200,000.
    const { session } = await parseFixture(growingSpec(34));
    const prepared = prepareReplay(session);
    const { knobs: log, notes } = logKnobsOf(prepared, 'roo');
    expect(log.maxTokens).toBe(8_192);
    expect(notes.join(' ')).toContain('allowedTokens 171,808');
    for (const [extra, threshold] of [
      [{}, 171_808],
      [{ autoCondensePercent: 60 }, 120_000],
      [{ profileThresholdPercent: 45 }, 90_000],
    ] as const) {
      const result = runStrategy(prepared, 'roo', { ...log, ...extra });
      const [first] = ofKind(result.events, 'compact');
      const k = first!.afterCallPos;
      // The trigger count is the last total plus what follows it (the last message).
      const count = (j: number) => prepared.recorded[j]! + prepared.output[j]! + prepared.pendingEstimate[j]!;
      expect(result.checkTokens[k]).toBe(count(k));
      const fires = (j: number) => (threshold === 171_808 ? count(j) > threshold : count(j) >= threshold);
      expect(fires(k), `call ${k}`).toBe(true);
      expect(fires(k - 1), `call ${k - 1}`).toBe(false);
      expect(first!.thresholdTokens).toBe(threshold);
    }
  });

  it('hides everything since the last summary and says what a rewind would restore', async () => {
    const { session } = await parseFixture(growingSpec(34));
    const prepared = prepareReplay(session);
    const result = runStrategy(prepared, 'roo', {
      ...logKnobsOf(prepared, 'roo').knobs,
      autoCondensePercent: 50,
    });
    const events = ofKind(result.events, 'compact');
    expect(events.length).toBeGreaterThanOrEqual(2);
    const [one, two] = events as [CompactEvent, CompactEvent];
    expect(one.hidden).toEqual({
      tag: 'condense',
      fromEntryIndex: prepared.ctxEntry[0],
      toEntryIndex: one.spanToEntryIndex,
      entries: prepared.callPos[one.afterCallPos + 1],
      tokens: one.spanTokens,
    });
    // A fresh start: nothing kept beside the summary.
    expect(one.keptTokens).toBeUndefined();
    expect(one.postTokens).toBe(result.baseTokens + one.summaryTokens! + one.continuationTokens!);
    // The next condense hides the first summary and what came after it, no more.
    expect(two.hidden!.fromEntryIndex).toBe(one.hidden!.toEntryIndex + 1);
    const b1 = prepared.callPos[one.afterCallPos + 1]!;
    const b2 = prepared.callPos[two.afterCallPos + 1]!;
    expect(two.hidden!.entries).toBe(b2 - b1);
    expect(two.hidden!.tokens).toBe(
      one.summaryTokens! + one.continuationTokens! + prepared.prefixNon[b2]! - prepared.prefixNon[b1]!,
    );
    expect(result.summarizedRanges[0]).toEqual([one.hidden!.fromEntryIndex, one.hidden!.toEntryIndex]);
  });

  it('the invariant catches a tagged range that is not what the event took out', async () => {
    const { session } = await parseFixture(growingSpec(40));
    const prepared = prepareReplay(session);
    const result = runStrategy(prepared, 'roo', { autoCondensePercent: 50 });
    const event = ofKind(result.events, 'compact')[0]!;
    event.hidden = { ...event.hidden!, tokens: event.hidden!.tokens - 1 };
    expect(checkReplayInvariants(prepared, result).join('\n')).toContain('took out');
  });
});

describe('Roo: the sliding window', () => {
  it('keeps the first message, hides half of the visible ones after it in whole pairs, marker each time', async () => {
    const { session } = await parseFixture(growingSpec(60));
    const prepared = prepareReplay(session);
    const { callPos, ctxEntry } = prepared;
    const result = runStrategy(prepared, 'roo', { autoCondenseContext: false, contextWindow: 100_000 });
    expect(ofKind(result.events, 'compact')).toEqual([]);
    const cuts = ofKind(result.events, 'truncate');
    expect(cuts.length).toBeGreaterThanOrEqual(3);
    let hidden = 0;
    let previousTo = -1;
    for (const e of cuts) {
      expect(e.checkTokens).toBeGreaterThan(81_808);
      // Roo's API history at call k: the task, a user and an assistant message per call, the
      // message being sent; the visible part is what earlier truncations left.
      const visible = 2 * (e.afterCallPos + 1) + 1 - hidden;
      const count = getRooTruncateCount(visible, 0.5);
      expect(count % 2).toBe(0);
      expect(e.note).toContain(`${count} of ${visible} visible`);
      // Messages hidden+1 … hidden+count: the results of calls hidden/2 … (hidden+count)/2 − 1.
      const from = callPos[hidden / 2]!;
      const to = callPos[(hidden + count) / 2]!;
      hidden += count;
      expect(e.droppedFromEntryIndex).toBe(ctxEntry[from]);
      expect(e.droppedToEntryIndex).toBe(ctxEntry[to - 1]);
      expect(e.droppedFromEntryIndex).toBeGreaterThan(previousTo);
      previousTo = e.droppedToEntryIndex!;
      // The task (the first message, before the first call) is never hidden.
      expect(e.droppedFromEntryIndex).toBeGreaterThanOrEqual(ctxEntry[callPos[0]!]!);
      expect(e.hidden).toEqual({
        tag: 'truncation',
        fromEntryIndex: e.droppedFromEntryIndex,
        toEntryIndex: e.droppedToEntryIndex,
        entries: to - from,
        tokens: e.droppedTokens,
      });
      expect(e.noticeTokens).toBeGreaterThan(0);
    }
  });

  it('runs when condensing fails, and only over allowedTokens (the percent does not truncate)', async () => {
    const { session } = await parseFixture(growingSpec(60));
    const prepared = prepareReplay(session);
    const failing = runStrategy(prepared, 'roo', {
      condenseFails: true,
      autoCondensePercent: 30,
      contextWindow: 120_000,
    });
    expect(ofKind(failing.events, 'compact')).toEqual([]);
    const cuts = ofKind(failing.events, 'truncate');
    expect(cuts.length).toBeGreaterThan(0);
    for (const e of cuts) {
      expect(e.thresholdTokens).toBe(getRooAllowedTokens(knobs({ contextWindow: 120_000 })));
      expect(e.note).toContain('(condensing failed)');
    }
    const first = cuts[0]!.afterCallPos;
    for (let k = 0; k < first; k++) expect(failing.checkTokens[k]).toBeLessThanOrEqual(99_808);
  });
});

async function generated(seed: number, apiCalls: number) {
  const g = generateSession({ seed, apiCalls });
  return parseSession(g.files.map((f) => createMemorySource(f.name, f.text)));
}

// The sliding window against the naive reference (tests/replay/reference/roo.ts): the same simulated
// series, the same events, the same hidden ranges and tokens.
describe('Roo: fast replay = naive replay (the sliding window)', () => {
  const SETS: { name: string; knobs: Partial<RooKnobs> }[] = [
    { name: 'condensing off, window 120,000', knobs: { autoCondenseContext: false, contextWindow: 120_000 } },
    { name: 'condensing fails, buffer 30%', knobs: { condenseFails: true, bufferPercent: 30 } },
    {
      name: 'condensing off, hides 30%, window 90,000',
      knobs: { autoCondenseContext: false, truncatePercent: 30, contextWindow: 90_000 },
    },
  ];
  const cases = [
    ...REPLAY_FIXTURES.map((f) => ({ name: f.label, load: f.load })),
    { name: 'a generated session (seed 3)', load: () => generated(3, 450) },
    { name: 'a generated session (seed 11)', load: () => generated(11, 450) },
  ];
  it.each(cases)('agrees on $name', async ({ load }) => {
    const prepared = prepareReplay(await load());
    let events = 0;
    for (const set of SETS) {
      const k = knobs(set.knobs);
      const result = runStrategy(prepared, 'roo', { ...set.knobs });
      const naive = computeNaiveRooReplay(prepared, k);
      expect(Array.from(result.simulatedTokens), set.name).toEqual(naive.simulatedTokens);
      const fast = result.events
        .filter((e) => e.kind !== 'blocked')
        .map((e) =>
          e.kind === 'truncate'
            ? {
                kind: e.kind,
                afterCallPos: e.afterCallPos,
                postTokens: e.postTokens,
                range: [
                  prepared.posOfEntry[e.droppedFromEntryIndex!],
                  prepared.posOfEntry[e.droppedToEntryIndex!]! + 1,
                ],
                hiddenTokens: e.hidden?.tokens,
              }
            : { kind: e.kind, afterCallPos: e.afterCallPos, postTokens: e.postTokens },
        );
      expect(fast, set.name).toEqual(naive.events);
      events += fast.length;
    }
    expect(events).toBeGreaterThan(0);
  });
});
