import { at } from '../../src/engine/assert';
import { describe, expect, it } from 'vitest';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { isSafeCut } from '../../src/engine/simulation/cuts';
import { LoggedHistory, SimulatedHistory } from '../../src/engine/simulation/history';
import type { PreparedReplay } from '../../src/engine/simulation/prepared';
import { growingSpec, parseFixture } from './transcript-fixture';

// The simulated history's operations against a brute-force pricing of the same history: every
// live, kept position's attributed tokens, each replaced result at its replacement's size.

interface Model {
  liveFrom: number;
  synthetic: number;
  truncated: Set<number>;
  replacement: Map<number, number>;
}

function bruteContext(prepared: PreparedReplay, m: Model, pos: number): number {
  const { tokens, clearables, baseTokens } = prepared;
  let t = baseTokens + m.synthetic;
  for (let p = m.liveFrom; p < pos; p++) if (!m.truncated.has(p)) t += at(tokens, p);
  for (const [i, size] of m.replacement) {
    const p = at(clearables.pos, i);
    if (p >= m.liveFrom && p < pos && !m.truncated.has(p)) t -= Math.max(0, at(clearables.tokens, i) - size);
  }
  return t;
}

async function setup() {
  const { session } = await parseFixture(growingSpec(30));
  const prepared = prepareReplay(session);
  const model: Model = { liveFrom: 0, synthetic: 0, truncated: new Set(), replacement: new Map() };
  return { prepared, history: new SimulatedHistory(prepared), model, end: prepared.ctxEntry.length };
}

/** Safe cuts of the fixture in [from, to), in order. */
function safeCuts(prepared: PreparedReplay, from: number, to: number): number[] {
  const out: number[] = [];
  for (let p = from + 1; p < to; p++) if (isSafeCut(prepared, p, to)) out.push(p);
  return out;
}

describe('SimulatedHistory', () => {
  it('prices an untouched history exactly as the log', async () => {
    const { prepared, history } = await setup();
    const log = new LoggedHistory(prepared);
    for (let k = 0; k < prepared.calls.length; k++) {
      const pos = at(prepared.callPos, k);
      expect(history.contextBefore(pos)).toBe(log.contextBefore(pos));
      expect(at(prepared.recorded, k) + history.contextBefore(pos) - log.contextBefore(pos)).toBe(
        prepared.recorded[k],
      );
    }
  });

  it('clears and replaces results once, each at its own replacement size', async () => {
    const { prepared, history, model, end } = await setup();
    const items = [0, 1, 2, 3].filter((i) => i < prepared.clearables.pos.length);
    expect(items.length).toBe(4);
    const first = history.clear(items.slice(0, 2), 10);
    expect(first.items).toEqual([0, 1]);
    for (const i of [0, 1]) model.replacement.set(i, 10);
    // A notice longer than the result saves nothing; an item already replaced is skipped.
    const second = history.replace([1, 2, 3], 1_000_000);
    expect(second.items).toEqual([2, 3]);
    expect(second.savedTokens).toBe(0);
    for (const i of [2, 3]) model.replacement.set(i, 1_000_000);
    expect(history.isReplaced(1)).toBe(true);
    expect(first.savedTokens).toBeGreaterThan(0);
    expect(history.contextBefore(end)).toBeCloseTo(bruteContext(prepared, model, end), 6);
    expect(history.liveTokens(0, end)).toBeCloseTo(
      bruteContext(prepared, model, end) - prepared.baseTokens,
      6,
    );
  });

  it('truncates a range of whole messages, merges overlaps, and refuses to split a tool pair', async () => {
    const { prepared, history, model, end } = await setup();
    const cuts = safeCuts(prepared, 0, end);
    expect(cuts.length).toBeGreaterThan(6);
    const [a, b, c, d] = [at(cuts, 1), at(cuts, 3), at(cuts, 2), at(cuts, 5)];
    const dropped = history.truncate(a, b, end);
    for (let p = a; p < b; p++) model.truncated.add(p);
    expect(dropped).toBe(at(prepared.prefixNon, b) - at(prepared.prefixNon, a));
    expect(history.contextBefore(end)).toBeCloseTo(bruteContext(prepared, model, end), 6);
    // Overlapping [c, d) with c inside [a, b): the union is dropped once.
    history.truncate(c, d, end);
    for (let p = c; p < d; p++) model.truncated.add(p);
    expect(history.truncatedRanges).toEqual([[a, d]]);
    expect(history.contextBefore(end)).toBeCloseTo(bruteContext(prepared, model, end), 6);
    // Replacing a result inside a dropped range changes nothing the next call sees.
    const inside = Array.from(prepared.clearables.pos).findIndex((p) => p >= a && p < d);
    expect(inside).toBeGreaterThanOrEqual(0);
    expect(history.replace([inside], 0).savedTokens).toBe(0);
    model.replacement.set(inside, 0);
    expect(history.contextBefore(end)).toBeCloseTo(bruteContext(prepared, model, end), 6);
    // A cut between a tool_use and its result is a bug in the strategy.
    const useAt = prepared.clearables.usePos.find(
      (u, i) => u >= 0 && at(prepared.clearables.pos, i) > u + 0,
    )!;
    const unsafe = useAt + 1;
    expect(isSafeCut(prepared, unsafe, end)).toBe(false);
    expect(() => history.truncate(unsafe, end, end)).toThrow(RangeError);
    expect(() => history.truncate(5, 3, end)).toThrow(RangeError);
  });

  it('summarizes up to the boundary, keeping a range before or after', async () => {
    const { prepared, end } = await setup();
    const boundary = at(prepared.callPos, 20);
    const cuts = safeCuts(prepared, 0, boundary);
    const keep = at(cuts, Math.floor(cuts.length / 2));
    const op = {
      boundaryPos: boundary,
      summaryTokens: 1_000,
      overheadTokens: 50,
      restoredTokens: 300,
      restoredFiles: [],
    };

    const full = new SimulatedHistory(prepared);
    full.clear([0], 10);
    full.summarize(op);
    expect(full.liveFrom).toBe(boundary);
    expect(full.parts).toMatchObject({ summaryTokens: 1_050, restoredTokens: 300, keptTokens: 0 });
    expect(full.contextBefore(end)).toBe(
      prepared.baseTokens + 1_350 + at(prepared.prefixNon, end) - at(prepared.prefixNon, boundary),
    );
    expect(full.previousSummaryTokens).toBe(1_000);

    const upTo = new SimulatedHistory(prepared);
    upTo.summarize({ ...op, keepFromPos: keep, keepDirection: 'up-to' });
    expect(upTo.liveFrom).toBe(keep);
    expect(upTo.contextBefore(end)).toBe(prepared.baseTokens + 1_350 + upTo.liveTokens(keep, end));

    const from = new SimulatedHistory(prepared);
    const kept = from.liveTokens(0, keep);
    const { frozenTokens } = from.summarize({
      ...op,
      keepFromPos: keep,
      keepDirection: 'from',
      keptMessageTokens: 7,
    });
    expect(frozenTokens).toBe(kept + 7);
    expect(from.liveFrom).toBe(boundary);
    expect(from.contextBefore(end)).toBe(
      prepared.baseTokens + kept + 7 + 1_350 + at(prepared.prefixNon, end) - at(prepared.prefixNon, boundary),
    );
  });

  it('drops truncated ranges the summary covers and keeps the rest', async () => {
    const { prepared, history, model, end } = await setup();
    const boundary = at(prepared.callPos, 20);
    const cuts = safeCuts(prepared, 0, end);
    const late = cuts.filter((p) => p > boundary);
    history.truncate(at(cuts, 1), at(cuts, 2), end);
    history.truncate(at(late, 0), at(late, 2), end);
    history.summarize({
      boundaryPos: boundary,
      summaryTokens: 500,
      overheadTokens: 0,
      restoredTokens: 0,
      restoredFiles: [],
    });
    expect(history.truncatedRanges).toEqual([[late[0], late[2]]]);
    Object.assign(model, { liveFrom: boundary, synthetic: 500 });
    for (let p = at(late, 0); p < at(late, 2); p++) model.truncated.add(p);
    expect(history.contextBefore(end)).toBeCloseTo(bruteContext(prepared, model, end), 6);
  });
});
