import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { describeExpectedReal, describeRealKinds } from '../../src/engine/replay/compare-words';
import { computeReplay } from '../../src/engine/replay/compute-replay';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { computeSweep, getSweepableKnobs } from '../../src/engine/replay/sweep';
import { getDefaultStrategyId } from '../../src/engine/strategies/descriptors';
import { getStrategy } from '../../src/engine/strategies/registry';
import { getSessionInfo } from '../../src/engine/strategies/types';
import { CORPUS, corpusOrSkip } from '../helpers/corpus';

// The replay strip's words for the real compactions it compares: a Cline task's truncations (the
// header's T) were called "real auto-compactions" ("1/4 real auto-compactions reproduced" beside
// "4 compactions (0 auto · 0 manual · 0 µ · 4 T)"). Each log replayed with its own agent's strategy
// at its own knobs, as the page opens it.

async function prepareOwn(name: string, path: string) {
  const session = await parseSession([createMemorySource(name, readFileSync(path))]);
  const prepared = prepareReplay(session);
  const id = getDefaultStrategyId(session.format, session.meta.agent);
  const { knobs } = getStrategy(id).getSessionKnobs(getSessionInfo(prepared));
  return { prepared, id, knobs };
}

async function replayOwn(name: string, path: string) {
  const { prepared, id, knobs } = await prepareOwn(name, path);
  return computeReplay(prepared, id, knobs).comparison;
}

describe.runIf(corpusOrSkip("the replay strip's words"))("the replay strip's words (the corpus)", () => {
  it('a Cline task: its 4 truncations are "real truncations"', async () => {
    const c = await replayOwn(
      'ui_messages.json',
      join(CORPUS, 'CoreGems__Cline-Xray/task_sample__ui_messages.json'),
    );
    expect(c.expected).toBe(4);
    expect(c.outcomes.filter((o) => o.kind === 'truncate')).toHaveLength(4);
    expect(describeExpectedReal(c)).toBe('real truncations');
  });

  it("a Cline task's sweep: what its matched, extra and missed count are truncations too", async () => {
    // The Sweep panel's column tooltips said "Real auto-compactions reproduced…" on this task.
    const { prepared, id, knobs } = await prepareOwn(
      'ui_messages.json',
      join(CORPUS, 'CoreGems__Cline-Xray/task_sample__ui_messages.json'),
    );
    const spec = getSweepableKnobs(id)[0]!;
    const sweep = await computeSweep(prepared, id, knobs, {
      knob: spec.key,
      from: spec.min ?? 1,
      to: spec.max ?? 100,
      steps: 3,
    });
    expect(sweep.points.every((p) => p.expectedReal === 4)).toBe(true);
    expect(sweep.realKinds).toEqual({ compact: 0, truncate: 4 });
    expect(describeRealKinds(sweep.realKinds, 4)).toBe('truncations');
  });

  it('a Claude Code session: its auto-compactions stay "real auto-compactions"', async () => {
    const c = await replayOwn(
      'session.jsonl',
      join(
        CORPUS,
        'LAF-US__IDAHO-VAULT/claude__projects__c--Users-loganf-Documents-IDAHO-VAULT__05541cb5-fe43-41c9-87ef-2a6d89bba271.jsonl',
      ),
    );
    expect(c.expected).toBe(6);
    expect(describeExpectedReal(c)).toBe('real auto-compactions');
  });
});
