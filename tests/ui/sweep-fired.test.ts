import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { computeSweep } from '../../src/engine/replay/sweep';
import { getDefaultStrategyId } from '../../src/engine/strategies/descriptors';
import { getStrategy } from '../../src/engine/strategies/registry';
import { getSessionInfo } from '../../src/engine/strategies/types';
import { getFired, getFiredWords } from '../../src/ui/replay/sweep-chart';
import { CORPUS, corpusOrSkip } from '../helpers/corpus';

// The Sweep panel on a real Cline task: its chart's "compactions fired" line lay flat at 0 and its
// compactions column read 0 at every value, beside "extra 32" at a 10k window: the Cline strategy
// truncates and never summarizes, and only compactions were counted.

describe.runIf(corpusOrSkip("the sweep's fired events on a Cline task"))(
  "the sweep's fired events on a Cline task (the corpus)",
  () => {
    it('counts its truncations as fired, says them so, and never shows more extra than fired', async () => {
      const path = join(CORPUS, 'CoreGems__Cline-Xray/task_sample__ui_messages.json');
      const session = await parseSession([createMemorySource('ui_messages.json', readFileSync(path))]);
      const prepared = prepareReplay(session);
      const id = getDefaultStrategyId(session.format, session.meta.agent);
      const { knobs } = getStrategy(id).getSessionKnobs(getSessionInfo(prepared));
      const sweep = await computeSweep(prepared, id, knobs, {
        knob: 'contextWindow',
        from: 10_000,
        to: 2_000_000,
        steps: 5,
      });
      expect(sweep.points.every((p) => p.events.compact === 0)).toBe(true);
      expect(sweep.points.some((p) => p.events.truncate > 0)).toBe(true);
      for (const p of sweep.points) {
        expect(getFired(p)).toBe(p.events.truncate);
        expect(p.extraSimulated + p.matchedReal).toBeLessThanOrEqual(getFired(p));
      }
      expect(getFiredWords(sweep.points)).toEqual({ one: 'truncation', many: 'truncations' });
    });
  },
);
