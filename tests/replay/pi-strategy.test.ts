import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { type PreparedReplay, prepareReplay } from '../../src/engine/replay/prepare';
import type { ReplayEvent, ReplayEventFields } from '../../src/engine/replay/types';
import { getPiDetail } from '../../src/engine/strategies/pi/detail';
import { computeFileLists, estimatePiMessageTokens, PI_STRATEGY } from '../../src/engine/strategies/pi';
import {
  getPiThreshold,
  PI_DEFAULT_KEEP_RECENT_TOKENS,
  PI_DEFAULT_RESERVE_TOKENS,
} from '../../src/engine/strategies/pi/descriptor';
import { getDefaultStrategyId } from '../../src/engine/strategies/descriptors';
import { type PiSessionSpec, type PiTurnSpec, parsePiSession } from './pi-session';
import { logKnobsOf, runStrategy } from './strategy-variants';
import { fieldsOf } from './events';

// The pi strategy (strategies/pi/index.ts) on hand-written pi sessions (pi-session.ts) and the committed
// pi fixture: the trigger at a run's end over window − reserveTokens, the kept ~20,000 tokens cut
// at a user or assistant message, file operations accumulated across compactions, and the
// replay compared with the log's own compactions.

const compacts = (events: readonly ReplayEvent[]) => events.filter((e) => e.kind === 'compact');

/** A turn that reads one file (`resultChars` of it) and then answers. */
const readTurn = (path: string, resultChars: number, promptChars = 400): PiTurnSpec => ({
  promptChars,
  calls: [{ tools: [{ name: 'read', path, resultChars }] }, {}],
});

/** Call positions whose response calls no tool (pi checks only there). */
function runEnds(prepared: PreparedReplay): Set<number> {
  const { session, ctxEntry, callPos } = prepared;
  const ends = new Set<number>();
  for (let k = 0; k + 1 < callPos.length; k++) {
    let tools = false;
    for (let p = callPos[k]!; p < callPos[k + 1]!; p++) {
      const e = session.entries[ctxEntry[p]!]!;
      if (e.kind === 'assistant' && e.blocks.some((b) => b.kind === 'tool-use')) tools = true;
    }
    if (!tools) ends.add(k);
  }
  return ends;
}

describe('pi: the trigger', () => {
  it('is contextTokens > window − reserveTokens (16,384), drawn as one line', () => {
    expect(PI_DEFAULT_RESERVE_TOKENS).toBe(16_384);
    expect(PI_DEFAULT_KEEP_RECENT_TOKENS).toBe(20_000);
    expect(getPiThreshold(PI_STRATEGY.defaultKnobs)).toBe(183_616);
    expect(PI_STRATEGY.thresholds(PI_STRATEGY.defaultKnobs).map((l) => [l.id, l.tokens])).toEqual([
      ['compact', 183_616],
      ['window', 200_000],
    ]);
    const off = PI_STRATEGY.normalizeKnobs({ enabled: 'false', reserveTokens: '30000' });
    expect(off.reserveTokens).toBe(30_000);
    expect(PI_STRATEGY.thresholds(off).map((l) => l.id)).toEqual(['window']);
  });

  it('fires when a run ends over the threshold, never between the tool calls of a run', async () => {
    // 26 turns of ~6,700 tokens, then one long run whose middle calls cross the threshold.
    const turns: PiTurnSpec[] = [];
    for (let t = 0; t < 26; t++) turns.push(readTurn(`src/f${t}.ts`, 26_000));
    turns.push({
      promptChars: 400,
      calls: [
        { tools: [{ name: 'read', path: 'src/big.ts', resultChars: 24_000 }] },
        { tools: [{ name: 'bash', resultChars: 24_000 }] },
        { tools: [{ name: 'bash', resultChars: 24_000 }] },
        {},
      ],
    });
    turns.push(readTurn('src/after.ts', 4_000));
    const prepared = prepareReplay(await parsePiSession({ turns }));
    const knobs = logKnobsOf(prepared, 'pi').knobs;
    const result = runStrategy(prepared, 'pi', knobs);
    const ends = runEnds(prepared);
    const total = (k: number) => prepared.recorded[k]! + prepared.output[k]!;
    const over = [...prepared.calls.keys()].filter((k) => total(k) > 183_616);
    // The long run crosses the threshold mid-run first: pi waits for it to end.
    const firstOver = over[0]!;
    expect(ends.has(firstOver), 'the first call over the threshold is mid-run').toBe(false);
    const [event] = compacts(result.events);
    expect(event?.afterCallPos).toBe(over.find((k) => ends.has(k)));
    expect(event!.afterCallPos).toBeGreaterThan(firstOver);
    expect(event!.note).toContain('the run ended at');
    expect(event!.thresholdTokens).toBe(183_616);
  });

  it('mid-run, only a request the window refuses compacts (the overflow case); off, nothing does', async () => {
    // One run that never ends: 60 reads of 16,000 characters.
    const calls = Array.from({ length: 60 }, (_, i) => ({
      tools: [{ name: 'read' as const, path: `src/m${i}.ts`, resultChars: 16_000 }],
    }));
    const prepared = prepareReplay(await parsePiSession({ turns: [{ promptChars: 400, calls }] }));
    // The log itself runs past 200,000 (a made-up log: pi would have hit the overflow), so the
    // window is the model's, not the one inferred from the log's peak.
    const knobs = { ...logKnobsOf(prepared, 'pi').knobs, contextWindow: 200_000 };
    const on = runStrategy(prepared, 'pi', knobs);
    expect(compacts(on.events).length).toBeGreaterThan(0);
    for (const e of compacts(on.events)) {
      expect(e.note).toContain('overflows the 200,000 window');
      expect(e.checkTokens).toBeGreaterThan(200_000);
      expect(e.thresholdTokens).toBe(200_000);
    }
    expect(on.events.some((e) => e.kind === 'blocked')).toBe(false);
    const noRecovery = runStrategy(prepared, 'pi', { ...knobs, overflowRecovery: false });
    expect(compacts(noRecovery.events)).toEqual([]);
    expect(noRecovery.events.some((e) => e.kind === 'blocked')).toBe(true);
    const disabled = runStrategy(prepared, 'pi', { ...knobs, enabled: false });
    expect(compacts(disabled.events)).toEqual([]);
  });
});

describe('pi: what is kept', () => {
  /** The event's kept part by pi's own estimate, and its first entry. */
  function kept(prepared: PreparedReplay, event: ReplayEventFields) {
    const { session, ctxEntry, posOfEntry, callPos } = prepared;
    const from = posOfEntry[event.keptFromEntryIndex!]!;
    const to = callPos[event.afterCallPos + 1]!;
    let tokens = 0;
    for (let p = from; p < to; p++) tokens += estimatePiMessageTokens(session.entries[ctxEntry[p]!]!);
    return { first: session.entries[event.keptFromEntryIndex!]!, tokens, from };
  }

  it('cuts at a turn start when the 20,000-token walk ends on a prompt', async () => {
    // Turns of one 20,000-character prompt (5,000 tokens) and a short answer: the walk back from
    // the newest message passes 20,000 tokens on a prompt, so the kept part starts a turn.
    const turns: PiTurnSpec[] = Array.from({ length: 38 }, () => ({ promptChars: 20_000, calls: [{}] }));
    const prepared = prepareReplay(await parsePiSession({ turns }));
    const result = runStrategy(prepared, 'pi', logKnobsOf(prepared, 'pi').knobs);
    const [event] = compacts(result.events);
    expect(event).toBeDefined();
    const k = kept(prepared, event!);
    expect(k.first.kind).toBe('user');
    expect(k.first.blocks[0]?.kind).toBe('text');
    // Four prompts of 5,000 and their answers: at least 20,000, less with one turn fewer.
    expect(k.tokens).toBeGreaterThanOrEqual(20_000);
    expect(k.tokens - estimatePiMessageTokens(k.first)).toBeLessThan(20_000);
    expect(event!.note).toContain('kept from the start of a turn');
    expect(event!.mechanism).toBe('partial');
  });

  it('cuts at an assistant message, never at a tool result, when the walk ends inside a turn (a split turn)', async () => {
    // Turns of a 100-token prompt, a read of 8,000 tokens and a short answer: the walk passes
    // 20,000 on a tool result, and the first cut point after it is that turn's answer.
    const turns = Array.from({ length: 24 }, (_, t) => readTurn(`src/f${t}.ts`, 32_000));
    const prepared = prepareReplay(await parsePiSession({ turns }));
    const result = runStrategy(prepared, 'pi', logKnobsOf(prepared, 'pi').knobs);
    const [event] = compacts(result.events);
    const k = kept(prepared, event!);
    expect(k.first.kind).toBe('assistant');
    expect(k.first.blocks.some((b) => b.kind === 'tool-use')).toBe(false);
    // The message before the cut is the tool result the walk stopped on.
    const before = prepared.session.entries[prepared.ctxEntry[k.from - 1]!]!;
    expect(before.blocks.every((b) => b.kind === 'tool-result')).toBe(true);
    expect(k.tokens).toBeLessThan(20_000);
    expect(k.tokens + estimatePiMessageTokens(before)).toBeGreaterThanOrEqual(20_000);
    expect(event!.note).toContain('middle of a turn');
  });
});

describe('pi: file operations', () => {
  it('lists files read and modified, accumulated across compactions, a modified file never as read', () => {
    expect(computeFileLists(new Set(['b.ts', 'a.ts', 'c.ts']), new Set(['c.ts', 'd.ts']))).toEqual({
      readFiles: ['a.ts', 'b.ts'],
      modifiedFiles: ['c.ts', 'd.ts'],
    });
  });

  it('carries the earlier lists into each later summary event', async () => {
    const turns: PiTurnSpec[] = [];
    for (let t = 0; t < 40; t++) {
      const tools: PiSessionSpec['turns'][number]['calls'][number]['tools'] = [
        { name: 'read', path: `src/r${t}.ts`, resultChars: 12_000 },
      ];
      // Turn 13 edits what turn 0 read; turn 20 writes a new file (both summarized by the second
      // and third compactions).
      if (t === 13) tools.push({ name: 'edit', path: 'src/r0.ts', resultChars: 200 });
      if (t === 20) tools.push({ name: 'write', path: 'src/new.ts', resultChars: 100 });
      turns.push({ promptChars: 400, calls: [{ tools }, {}] });
    }
    const prepared = prepareReplay(await parsePiSession({ turns }));
    const knobs = { ...logKnobsOf(prepared, 'pi').knobs, contextWindow: 60_000 };
    const events = compacts(runStrategy(prepared, 'pi', knobs).events);
    expect(events.length).toBeGreaterThanOrEqual(3);
    const first = getPiDetail(events[0]!)!.trackedFiles;
    expect(first.readFiles).toContain('src/r0.ts');
    expect(first.modifiedFiles).toEqual([]);
    for (let i = 1; i < events.length; i++) {
      const prev = getPiDetail(events[i - 1]!)!.trackedFiles;
      const cur = getPiDetail(events[i]!)!.trackedFiles;
      const all = new Set([...cur.readFiles, ...cur.modifiedFiles]);
      for (const f of [...prev.readFiles, ...prev.modifiedFiles])
        expect(all.has(f), `${f} carried`).toBe(true);
      for (const f of prev.modifiedFiles) expect(cur.modifiedFiles).toContain(f);
    }
    const last = getPiDetail(events[events.length - 1]!)!.trackedFiles;
    expect(last.modifiedFiles).toEqual(expect.arrayContaining(['src/r0.ts', 'src/new.ts']));
    expect(last.readFiles).not.toContain('src/r0.ts');
    // pi's rule (compaction.ts prepareCompaction: only messages after the previous compaction
    // entry are summarized): what one compaction kept, the next drops unsummarized, so the files
    // of those turns (7–12 here) are never listed.
    for (const e of events) expect(getPiDetail(e)!.trackedFiles.readFiles).not.toContain('src/r9.ts');
    // Only files of summarized messages: the kept ones are not yet listed.
    const keptFrom = prepared.posOfEntry[events[0]!.keptFromEntryIndex!]!;
    const keptPaths = new Set<string>();
    for (let p = keptFrom; p < prepared.callPos[events[0]!.afterCallPos + 1]!; p++)
      for (const b of prepared.session.entries[prepared.ctxEntry[p]!]!.blocks)
        if (b.kind === 'tool-use' && b.filePath) keptPaths.add(b.filePath);
    for (const f of keptPaths) expect(first.readFiles).not.toContain(f);
    // The file lists are part of the summary message (`<read-files>` … `</read-files>`).
    expect(events[1]!.continuationTokens!).toBeGreaterThan(events[0]!.continuationTokens!);
  });
});

describe("pi: the replay against the log's own compactions", () => {
  const turns: PiTurnSpec[] = Array.from({ length: 40 }, (_, t) => readTurn(`src/f${t}.ts`, 26_000));

  it('reproduces a compaction pi made over the threshold and reads one under it as /compact', async () => {
    // Over the threshold after turn 27 (automatic), then a /compact at a small context.
    const spec: PiSessionSpec = {
      turns,
      compactions: [
        { afterTurn: 27, firstKeptTurn: 25, summaryChars: 6_000, readFiles: ['src/f0.ts'] },
        { afterTurn: 32, firstKeptTurn: 31, summaryChars: 5_000 },
      ],
    };
    const session = await parsePiSession(spec);
    expect(session.compactions.map((c) => c.trigger)).toEqual(['unrecorded', 'unrecorded']);
    expect(session.compactions[0]!.preTokens).toBeGreaterThan(183_616);
    const prepared = prepareReplay(session);
    const { knobs, notes } = logKnobsOf(prepared, 'pi');
    expect(knobs.contextWindow).toBe(200_000);
    expect(notes.join(' ')).toContain('pi records no trigger');
    const result = runStrategy(prepared, 'pi', knobs);
    const c = result.comparison;
    expect(c.outcomes.map((o) => [o.trigger, o.status])).toEqual([
      ['auto', 'matched'],
      ['manual', 'manual'],
    ]);
    expect(c.expected).toBe(1);
    expect(c.reproduced).toBe(1);
    expect(c.counts.extra).toBe(0);
    const [auto, reset] = result.events.filter((e) => e.kind !== 'blocked').map(fieldsOf);
    expect(auto?.realCompactionIndex).toBe(0);
    expect(auto?.summarySource).toBe('recorded');
    expect(reset?.kind).toBe('reset');
    // Under a larger reserve the replay compacts turns before the log did.
    const early = runStrategy(prepared, 'pi', { ...knobs, reserveTokens: 40_000 });
    expect(early.comparison.outcomes[0]?.status).toBe('early');
  });

  it('the committed pi fixture: its compaction (tokensBefore 52,400 on a 200k model) was /compact', async () => {
    const dir = resolve(__dirname, '../fixtures/agents');
    const name = '2026-03-09T12-00-00-000Z_7d3f0a52-6c1e-4b8a-9f27-3e5d1c0b8a64.jsonl';
    const session = await parseSession([createMemorySource(name, readFileSync(join(dir, name)))]);
    expect(getDefaultStrategyId(session.format)).toBe('pi');
    const prepared = prepareReplay(session);
    const result = runStrategy(prepared, 'pi', logKnobsOf(prepared, 'pi').knobs);
    expect(result.comparison.outcomes.map((o) => [o.preTokens, o.trigger, o.status])).toEqual([
      [52_400, 'manual', 'manual'],
    ]);
    expect(result.events.map((e) => e.kind)).toEqual(['reset']);
    // With a window where 52,400 is over the threshold it is automatic, and the replay makes it.
    const small = runStrategy(prepared, 'pi', { contextWindow: 64_000 });
    expect(small.comparison.outcomes[0]?.trigger).toBe('auto');
    expect(small.comparison.reproduced).toBe(1);
  });
});
