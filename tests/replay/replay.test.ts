import { describe, expect, it } from 'vitest';
import { computeReplay } from '../../src/engine/replay/compute-replay';
import { getSafeCut } from '../../src/engine/simulation/cuts';
import { checkReplayInvariants } from './invariants';
import { prepareReplay, TOKEN_SOURCE } from '../../src/engine/replay/prepare';
import { SUMMARY_SPAN_RATIO } from '../../src/engine/replay/summary-size';
import { estimateTextTokens } from '../../src/engine/tokens/estimate';
import { firstCallAtOrAbove, runReplay } from './run-replay';
import { growingSpec, parseFixture } from './transcript-fixture';
import { expectKind } from './events';

describe('attribution (prepareReplay)', () => {
  it('gives each group of entries the recorded usage delta, split by estimate', async () => {
    const { session } = await parseFixture(growingSpec(5));
    const p = prepareReplay(session);
    expect(Array.from(p.recorded)).toEqual([20_000, 25_000, 30_000, 35_000, 40_000]);
    for (let k = 1; k < 5; k++) {
      const sum = p.prefixAll[p.callPos[k]!]! - p.prefixAll[p.callPos[k - 1]!]!;
      expect(sum).toBe(5_000);
    }
    expect(p.baseTokens + p.prefixAll[p.callPos[0]!]!).toBe(20_000);
    expect(p.tokenSource[p.callPos[1]!]).toBe(TOKEN_SOURCE.split);
    expect(p.tokenSource[p.ctxEntry.length - 1]).toBe(TOKEN_SOURCE.estimated);
  });

  it('replays an unchanged history as the recorded usage', async () => {
    const { session } = await parseFixture(growingSpec(20));
    const { result } = runReplay(session);
    expect(result.events).toEqual([]);
    expect(Array.from(result.simulatedTokens)).toEqual(Array.from(result.recordedTokens));
    expect(Array.from(result.diverged).every((d) => d === 0)).toBe(true);
  });
});

describe('auto-compact', () => {
  it('fires after the first call whose count reaches the threshold, and knobs move it', async () => {
    const { session } = await parseFixture(growingSpec(60));
    const { prepared, result } = runReplay(session);
    const first = firstCallAtOrAbove(prepared, 167_000);
    expect(first).toBeGreaterThan(0);
    const e = expectKind(result.events[0], 'compact');
    expect(e).toMatchObject({
      kind: 'compact',
      mechanism: 'full',
      trigger: 'auto',
      afterCallPos: first,
      thresholdTokens: 167_000,
    });
    expect(e.checkTokens).toBeGreaterThanOrEqual(167_000);
    expect(e.postTokens).toBeLessThan(167_000);
    expect(e.restored!.files.length).toBe(5);
    expect(result.simulatedTokens[first + 1]).toBeLessThan(e.postTokens + 6_000);
    expect(result.diverged[first + 1]).toBe(1);

    const wide = runReplay(prepared, { contextWindow: 300_000 }).result;
    expect(wide.events[0]!.afterCallPos).toBe(firstCallAtOrAbove(prepared, 267_000));
    const pct = runReplay(prepared, { autocompactPctOverride: 50 }).result;
    expect(pct.events[0]!.afterCallPos).toBe(firstCallAtOrAbove(prepared, 90_000));
    expect(pct.events.length).toBeGreaterThan(result.events.length);
    const usageOnly = runReplay(prepared, { countPendingMessages: false }).result;
    expect(usageOnly.events[0]!.afterCallPos).toBe(firstCallAtOrAbove(prepared, 167_000, false));
  });

  it('honours the disable switches and blocks at the limit', async () => {
    const { session } = await parseFixture(growingSpec(60));
    const off = runReplay(session, { autoCompactEnabled: false }).result;
    expect(off.events.filter((e) => e.kind === 'compact')).toEqual([]);
    const blocked = off.events.find((e) => e.kind === 'blocked')!;
    expect(blocked.preTokens).toBeGreaterThanOrEqual(197_000);
    expect(
      runReplay(session, { disableCompact: true, microcompactEnabled: true }).result.events.every(
        (e) => e.kind === 'blocked',
      ),
    ).toBe(true);
  });

  it('uses session memory when it fits, falls through when it does not', async () => {
    const { session } = await parseFixture(growingSpec(60));
    const small = runReplay(session, { sessionMemoryTokens: 3_000 }).result.events[0]!;
    expect(small).toMatchObject({
      mechanism: 'session-memory',
      summaryTokens: 3_000,
      summarySource: 'session-memory',
    });
    // Claude Code keeps the recent messages back to 10,000 tokens beside the memory (2.1.68 cli.js
    // `FP1.minTokens`, docs/sources.md#cc-npm-constants); the replay kept none.
    expect(expectKind(small, 'compact').keptTokens).toBeGreaterThanOrEqual(10_000);
    const huge = expectKind(runReplay(session, { sessionMemoryTokens: 190_000 }).result.events[0], 'compact');
    expect(huge.mechanism).toBe('full');
    expect(huge.note).toMatch(/fell through/);
    const keep = expectKind(
      runReplay(session, { sessionMemoryTokens: 3_000, sessionMemoryKeepTokens: 20_000 }).result.events[0],
      'compact',
    );
    expect(keep.keptTokens).toBeGreaterThan(0);
    expect(keep.keptTokens).toBeLessThanOrEqual(20_000);
  });

  it('sizes summaries with the model, or a supplied figure', async () => {
    const { session } = await parseFixture(growingSpec(60));
    const { prepared, result } = runReplay(session, {}, { summaryModel: 'ratio' });
    const e = expectKind(result.events[0], 'compact');
    expect(e.summarySource).toBe('model');
    expect(e.summaryTokens).toBe(Math.round(e.spanTokens! * SUMMARY_SPAN_RATIO));
    const supplied = runReplay(prepared, {}, { suppliedSummaryTokens: { [e.afterApiCall]: 7_777 } }).result
      .events[0]!;
    expect(supplied).toMatchObject({ summaryTokens: 7_777, summarySource: 'supplied' });
    // The supplied size is what the post-compaction context holds; other calls' sizes do nothing.
    const unsupplied = expectKind(runReplay(prepared, {}).result.events[0], 'compact');
    expect(supplied.postTokens - unsupplied.postTokens).toBe(7_777 - unsupplied.summaryTokens!);
    const bigger = runReplay(prepared, {}, { suppliedSummaryTokens: { [e.afterApiCall]: 17_777 } }).result
      .events[0]!;
    expect(bigger.postTokens - supplied.postTokens).toBe(10_000);
    const elsewhere = runReplay(prepared, {}, { suppliedSummaryTokens: { [e.afterApiCall + 1]: 7_777 } })
      .result.events[0]!;
    expect(elsewhere).toMatchObject({
      summarySource: unsupplied.summarySource,
      postTokens: unsupplied.postTokens,
    });
  });

  it('sizes a session memory text by Claude Code’s estimate, and falls through when it is too big', async () => {
    const { session } = await parseFixture(growingSpec(60));
    const text = `# Session memory\n${'- src/cli.ts takes --verbose\n'.repeat(300)}`;
    const tokens = estimateTextTokens(text.length);
    const fits = runReplay(session, { sessionMemoryTokens: tokens }).result.events[0]!;
    expect(fits).toMatchObject({ mechanism: 'session-memory', summaryTokens: tokens });
    const full = runReplay(session, {}).result.events[0]!;
    expect(fits.postTokens).toBeLessThan(fits.thresholdTokens);
    expect(fits.postTokens).not.toBe(full.postTokens);
    const huge = 'x'.repeat(190_000 * 4);
    const over = expectKind(
      runReplay(session, { sessionMemoryTokens: estimateTextTokens(huge.length) }).result.events[0],
      'compact',
    );
    expect(over.mechanism).toBe('full');
    expect(over.summarySource).not.toBe('session-memory');
    expect(over.postTokens).toBe(full.postTokens);
    expect(over.note).toMatch(/fell through to a full compaction/);
  });
});

describe('the log’s own compactions', () => {
  const spec = () => {
    const s = growingSpec(50);
    s.calls[33]!.context = 36_000; // after the boundary
    for (let k = 34; k < 50; k++) s.calls[k]!.context = 36_000 + (k - 33) * 5_000;
    return s;
  };

  it('reproduces a real auto-compaction and continues from the log’s own history', async () => {
    const s = spec();
    const { session: probe } = await parseFixture(s);
    const at = firstCallAtOrAbove(prepareReplay(probe), 167_000);
    s.boundaries = [{ afterCall: at, trigger: 'auto', preTokens: 170_000, summaryChars: 8_000 }];
    for (let k = at + 1; k < 50; k++) s.calls[k]!.context = 36_000 + (k - at - 1) * 5_000;
    const { session } = await parseFixture(s);
    const { result } = runReplay(session);
    expect(result.comparison).toMatchObject({ expected: 1, reproduced: 1 });
    expect(result.comparison.outcomes[0]).toMatchObject({ status: 'matched', delta: 0 });
    const e = result.events[0]!;
    expect(e).toMatchObject({ summarySource: 'recorded', realCompactionIndex: 0 });
    expect(e.postTokens).toBe(result.recordedTokens[at + 1]);
    for (let k = at + 1; k < 50; k++) expect(result.simulatedTokens[k]).toBe(result.recordedTokens[k]);

    const late = runReplay(session, { contextWindow: 210_000 }).result;
    expect(late.comparison.outcomes[0]!.status).toBe('late');
    const none = runReplay(session, { autoCompactEnabled: false }).result;
    expect(none.comparison.outcomes[0]!.status).toBe('missing');
    expect(none.simulatedTokens[at + 1]).toBeGreaterThan(160_000);
  });

  it('continues from a real manual compaction, unless DISABLE_COMPACT', async () => {
    const s = growingSpec(30);
    s.boundaries = [{ afterCall: 20, trigger: 'manual', preTokens: 121_000, summaryChars: 4_000 }];
    for (let k = 21; k < 30; k++) s.calls[k]!.context = 30_000 + (k - 21) * 5_000;
    const { session } = await parseFixture(s);
    const { result } = runReplay(session);
    expect(result.events).toHaveLength(1);
    expect(result.events[0]).toMatchObject({
      kind: 'reset',
      trigger: 'log',
      afterCallPos: 20,
      realCompactionIndex: 0,
    });
    expect(result.comparison.outcomes[0]!.status).toBe('manual');
    for (let k = 21; k < 30; k++) expect(result.simulatedTokens[k]).toBe(result.recordedTokens[k]);
    const disabled = runReplay(session, { disableCompact: true }).result;
    expect(disabled.events.filter((e) => e.kind === 'reset')).toEqual([]);
    expect(disabled.simulatedTokens[21]).toBeGreaterThan(120_000);
  });
});

describe('microcompact', () => {
  it('clears old results above the warning threshold, once each', async () => {
    const { session } = await parseFixture(growingSpec(60));
    const { result } = runReplay(session, { microcompactEnabled: true });
    const micro = result.events.filter((e) => e.kind === 'microcompact');
    expect(micro.length).toBeGreaterThan(0);
    const first = micro[0]!;
    expect(first.checkTokens).toBeGreaterThanOrEqual(147_000);
    expect(first.estimatedSavedTokens).toBeGreaterThan(20_000);
    expect(first.savedTokens).toBeGreaterThan(20_000);
    const k = first.afterCallPos;
    expect(result.simulatedTokens[k + 1]).toBe(result.recordedTokens[k + 1]! - first.savedTokens!);
    const ids = micro.flatMap((e) => e.clearedToolIds!);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(result.clearedToolIds[id]).toBeDefined();
    // The legacy variant waits for the auto-compact threshold and replaces the full compaction.
    const legacy = runReplay(session, { microcompactEnabled: true, microcompactVariant: 'legacy' }).result;
    expect(legacy.events[0]).toMatchObject({ kind: 'microcompact', thresholdTokens: 167_000 });
  });

  it('keeps more with a larger protected window', async () => {
    const { session } = await parseFixture(growingSpec(60));
    const small = runReplay(session, { microcompactEnabled: true, microcompactProtectTokens: 20_000 }).result;
    const large = runReplay(session, { microcompactEnabled: true, microcompactProtectTokens: 80_000 }).result;
    const firstCleared = (r: typeof small) =>
      r.events.find((e) => e.kind === 'microcompact')?.clearedToolIds?.length ?? 0;
    expect(firstCleared(small)).toBeGreaterThan(firstCleared(large));
  });

  it('clears images in user messages (v2.1.68) and never the last three results', async () => {
    const spec = growingSpec(50);
    spec.calls[2]!.tools![0]!.images = 3;
    const { session } = await parseFixture(spec);
    const { prepared, result } = runReplay(session, { microcompactEnabled: true });
    const micro = result.events.find((e) => e.kind === 'microcompact')!;
    expect(micro.clearedToolIds).toContain('toolu_2_0');
    const img = prepared.clearables.indexById.get('toolu_2_0')!;
    expect(prepared.clearables.estimate[img]).toBeGreaterThan(6_000);
    const k = micro.afterCallPos;
    expect(micro.clearedToolIds).not.toContain(`toolu_${k}_0`);
  });
});

describe('manual compaction at a chosen message', () => {
  it('compacts fully, or partially keeping recent or earlier messages verbatim', async () => {
    const { session } = await parseFixture(growingSpec(30));
    const p = prepareReplay(session);
    const afterApiCall = p.calls[20]!;
    const pivotEntryIndex = session.apiCalls[p.calls[15]!]!.firstEntryIndex;
    const full = runReplay(p, {}, { manual: [{ afterApiCall, mechanism: 'full' }] }).result.events[0]!;
    expect(full).toMatchObject({ kind: 'compact', trigger: 'manual', mechanism: 'full', afterCallPos: 20 });
    const upTo = expectKind(
      runReplay(p, {}, { manual: [{ afterApiCall, mechanism: 'partial', pivotEntryIndex }] }).result
        .events[0],
      'compact',
    );
    expect(upTo).toMatchObject({ mechanism: 'partial', keptFromEntryIndex: pivotEntryIndex });
    expect(upTo.keptTokens).toBeGreaterThan(20_000);
    expect(upTo.postTokens).toBeGreaterThan(full.postTokens);
    expect(upTo.request?.variant).toBe('full');
    const from = expectKind(
      runReplay(
        p,
        {},
        { manual: [{ afterApiCall, mechanism: 'partial', pivotEntryIndex, direction: 'from' }] },
      ).result.events[0],
      'compact',
    );
    expect(from.request).toMatchObject({ variant: 'partial', keepFromEntryIndex: pivotEntryIndex });
    expect(from.keptTokens).toBeGreaterThan(50_000);
  });

  it('never cuts between a tool_use and its result', async () => {
    const { session } = await parseFixture(growingSpec(10));
    const p = prepareReplay(session);
    // Position of a tool result: the cut moves back before its tool_use.
    const resultPos = p.clearables.pos[3]!;
    const usePos = p.clearables.usePos[3]!;
    expect(getSafeCut(p, resultPos, 0, p.ctxEntry.length)).toBeLessThanOrEqual(usePos);
  });
});

describe('another strategy: the API’s clear_tool_uses', () => {
  it('clears all but the last 3 tool results once a request reaches 100k', async () => {
    const { session } = await parseFixture(growingSpec(40));
    const prepared = prepareReplay(session);
    const result = computeReplay(prepared, 'api-clear-tool-uses', {});
    expect(checkReplayInvariants(prepared, result)).toEqual([]);
    const first = expectKind(result.events[0], 'microcompact');
    expect(first).toMatchObject({ kind: 'microcompact', thresholdTokens: 100_000 });
    expect(first.checkTokens).toBeGreaterThanOrEqual(100_000);
    const k = first.afterCallPos;
    expect(first.clearedToolIds).toHaveLength(k + 1 - 3);
    expect(first.clearedToolIds).not.toContain(`toolu_${k}_0`);
    // One more result cleared after each later call; never the same one twice.
    expect(expectKind(result.events[1], 'microcompact').clearedToolIds).toEqual([`toolu_${k - 2}_0`]);
    expect(result.thresholds.map((t) => t.id)).toEqual(['trigger', 'window']);
    const none = computeReplay(prepared, 'api-clear-tool-uses', { excludeTools: ['Read'] });
    expect(none.events.filter((e) => e.kind === 'microcompact')).toEqual([]);
    const atLeast = computeReplay(prepared, 'api-clear-tool-uses', { clearAtLeastTokens: 80_000 });
    expect(atLeast.events[0]!.afterCallPos).toBeGreaterThan(k);
    expect(() => computeReplay(prepared, 'nope', {})).toThrow(/Unknown strategy "nope"/);
  });
});
