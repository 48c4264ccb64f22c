import { describe, expect, it } from 'vitest';
import { createNodeFileSource } from '../../src/cli/node-source';
import { runReplay } from '../../src/cli/share-args';
import {
  computeErosionChain,
  computeLogErosion,
  computeReplayErosion,
  type ErosionChain,
  type LocatedFact,
} from '../../src/engine/erosion/erosion';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { FACT_CATEGORIES } from '../../src/engine/retention/types';
import { getMainCompactions } from '../../src/engine/summarize/span';
import { corpusFiles, corpusName, corpusOrSkip } from '../helpers/corpus';
import {
  makeErosionChain,
  PLANTED_COMMAND,
  PLANTED_COMMAND_LOST_AT,
  PLANTED_PATH,
  PLANTED_PATH_LOST_AT,
} from './chain-fixture';

/** Properties every chain keeps, whatever its data. */
function checkChain(chain: ErosionChain, label: string): void {
  let previousTotal = 0;
  for (const step of chain.steps) {
    expect(step.total, label).toBe(previousTotal + step.newFacts);
    previousTotal = step.total;
    expect(
      FACT_CATEGORIES.reduce((n, c) => n + step.byCategory[c].total, 0),
      label,
    ).toBe(step.total);
    expect(
      FACT_CATEGORIES.reduce((n, c) => n + step.byCategory[c].kept, 0),
      label,
    ).toBe(step.kept);
    expect(
      step.byOrigin.reduce((n, o) => n + o.total, 0),
      label,
    ).toBe(step.total);
    expect(
      step.byOrigin.reduce((n, o) => n + o.kept, 0),
      label,
    ).toBe(step.kept);
    expect(step.byOrigin).toHaveLength(step.index + 1);
    for (const id of step.lost) {
      const fact = chain.facts[id]!;
      expect(fact.kept[step.index], label).toBe(false);
      expect(fact.origin, label).toBeLessThanOrEqual(step.index);
    }
    for (const id of step.regained) {
      const fact = chain.facts[id]!;
      expect(fact.kept[step.index]).toBe(true);
      expect(fact.kept[step.index - 1]).toBe(false);
    }
  }
  for (const fact of chain.facts) {
    expect(fact.kept).toHaveLength(chain.steps.length);
    for (let k = 0; k < fact.origin; k++) expect(fact.kept[k]).toBe(false);
  }
}

const fact = (category: LocatedFact['category'], text: string, entryIndex: number): LocatedFact => ({
  category,
  text,
  entryIndex,
  fileIndex: 0,
  line: entryIndex + 1,
});

describe('erosion chain (pure)', () => {
  it('lists a fact as lost at the step whose summary first misses it, and regained when it returns', () => {
    const chain = computeErosionChain('log', [
      {
        label: 'one',
        spanFromEntryIndex: 0,
        spanToEntryIndex: 9,
        facts: [fact('path', 'src/a/alpha.ts', 2), fact('command', 'make beta', 4)],
        summary: 'Read src/a/alpha.ts and ran make beta.',
        summarySource: 'recorded',
      },
      {
        label: 'two',
        spanFromEntryIndex: 10,
        spanToEntryIndex: 19,
        facts: [fact('error', 'TypeError: gamma is undefined', 12)],
        summary: 'src/a/alpha.ts; TypeError: gamma is undefined',
        summarySource: 'recorded',
      },
      {
        label: 'three',
        spanFromEntryIndex: 20,
        spanToEntryIndex: 29,
        facts: [fact('command', 'make beta', 22)],
        summary: 'ran make beta again',
        summarySource: 'recorded',
      },
    ]);
    checkChain(chain, 'pure');
    const text = (ids: number[]) => ids.map((id) => chain.facts[id]!.text);
    expect(text(chain.steps[0]!.lost)).toEqual([]);
    expect(text(chain.steps[1]!.lost)).toEqual(['make beta']);
    expect(text(chain.steps[2]!.lost)).toEqual(['src/a/alpha.ts', 'TypeError: gamma is undefined']);
    expect(text(chain.steps[2]!.regained)).toEqual(['make beta']);
    // The fact keeps where the session first held it.
    expect(chain.facts.find((f) => f.text === 'make beta')).toMatchObject({ origin: 0, entryIndex: 4 });
    expect(chain.steps[2]!.byOrigin).toEqual([
      { total: 2, kept: 1 },
      { total: 1, kept: 0 },
      { total: 0, kept: 0 },
    ]);
    expect(chain.steps[1]!.byCategory.command).toEqual({ total: 1, kept: 0, ratio: 0 });
    expect(chain.steps[1]!.ratio).toBeCloseTo(2 / 3);
  });
});

describe('erosion of a generated chain', () => {
  it('finds each planted fact lost at its known step, located where the session held it', async () => {
    const sources = [createMemorySource('erosion-chain.jsonl', makeErosionChain())];
    const session = await parseSession(sources);
    expect(getMainCompactions(session)).toHaveLength(4);
    const chain = await computeLogErosion(session, sources);
    checkChain(chain, 'generated');
    expect(chain.steps).toHaveLength(4);
    const planted = chain.facts.find((f) => f.category === 'path' && f.text === PLANTED_PATH)!;
    const command = chain.facts.find((f) => f.category === 'command' && f.text === PLANTED_COMMAND)!;
    expect(planted.origin).toBe(0);
    expect(planted.kept).toEqual([true, true, false, false]);
    expect(command.kept).toEqual([true, false, false, false]);
    const lostAt = (id: number) => chain.steps.filter((s) => s.lost.includes(id)).map((s) => s.index);
    expect(lostAt(planted.id)).toEqual([PLANTED_PATH_LOST_AT]);
    expect(lostAt(command.id)).toEqual([PLANTED_COMMAND_LOST_AT]);
    // Where the session held them: the Read call and the Bash call of the first span.
    const entry = session.entries[planted.entryIndex]!;
    expect(entry.fileIndex).toBe(0);
    expect(planted.line).toBe(entry.line);
    expect(JSON.stringify(entry.blocks)).toContain('planted_fact.ts');
    expect(JSON.stringify(session.entries[command.entryIndex]!.blocks)).toContain('--planted');
    // The first span's facts erode step by step.
    const firstSpan = chain.steps.map((s) => s.byOrigin[0]!.kept / s.byOrigin[0]!.total);
    expect(firstSpan[0]).toBeGreaterThan(firstSpan[3]!);
  });

  it('a replay chain is summarized by the built-in summarizer, step by step', async () => {
    const sources = [createMemorySource('erosion-chain.jsonl', makeErosionChain())];
    const session = await parseSession(sources);
    // Manual compactions replay as resets: scored on the log's recorded summaries.
    const replay = runReplay(session, 'claude-code');
    const chain = await computeReplayErosion(session, sources, replay.events, replay.strategyId);
    checkChain(chain, 'replay');
    const resets = replay.events.filter((e) => e.kind === 'reset' || e.kind === 'compact');
    expect(resets.length).toBe(4);
    expect(chain.steps).toHaveLength(resets.length);
    expect(chain.steps.map((s) => s.summarySource)).toEqual(['recorded', 'recorded', 'recorded', 'recorded']);
    expect(chain.strategyId).toBe('claude-code');
  });
});

const present = corpusOrSkip('erosion corpus tests');

describe.runIf(present)('erosion on corpus sessions with several compactions', () => {
  const multi = async () => {
    const out = [];
    for (const file of corpusFiles(
      (f) =>
        f.endsWith('.jsonl') &&
        f.startsWith('claude__projects__') &&
        !f.includes('__subagents__') &&
        !f.includes('agent-'),
    )) {
      const sources = [createNodeFileSource(file)];
      const session = await parseSession(sources);
      if (getMainCompactions(session).length >= 2) out.push({ file, sources, session });
    }
    return out;
  };

  it('scores every recorded summary against the whole session; each fact located in the span that first held it', async () => {
    const sessions = await multi();
    expect(sessions.length).toBeGreaterThan(2);
    let eroded = 0;
    for (const { file, sources, session } of sessions) {
      const chain = await computeLogErosion(session, sources);
      const label = corpusName(file);
      checkChain(chain, label);
      expect(chain.steps.length, label).toBe(
        getMainCompactions(session).filter((c) => c.compaction.summaryEntryIndex !== undefined).length,
      );
      for (const step of chain.steps) {
        // This step's new facts, scored alone by the single-span rule, keep the same count.
        const own = chain.facts.filter((f) => f.origin === step.index);
        expect(step.byOrigin[step.index]!.kept, label).toBe(own.filter((f) => f.kept[step.index]).length);
        // Every fact is located in its span.
        for (const f of own) {
          expect(f.entryIndex, label).toBeGreaterThanOrEqual(step.spanFromEntryIndex);
          expect(f.entryIndex, label).toBeLessThanOrEqual(step.spanToEntryIndex);
        }
      }
      const last = chain.steps.at(-1)!;
      if (last.byOrigin[0]!.kept < chain.steps[0]!.byOrigin[0]!.kept) eroded++;
    }
    // Real chains forget: in some session the first span's facts are fewer after the last step.
    expect(eroded).toBeGreaterThan(0);
  }, 120_000);

  it('replays a corpus session and scores its built-in chain', async () => {
    const [first] = await multi();
    const { sources, session } = first!;
    const replay = runReplay(session, undefined);
    const chain = await computeReplayErosion(session, sources, replay.events, replay.strategyId);
    checkChain(chain, corpusName(first!.file));
    expect(chain.steps.every((s) => s.summaryChars > 0)).toBe(true);
    expect(chain.steps.some((s) => s.summarySource === 'builtin')).toBe(true);
  }, 120_000);
});
