import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeLearnWalk } from '../../src/engine/learn/walk';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { CORPUS, corpusOrSkip } from '../helpers/corpus';

// Learn mode's first step on a real Claude Code 2.0.67 session (dealerflow, compactions at lines 352
// and 552, preTokens 157,518 and 164,009): it gave the strategy's description, "Auto-compact at
// window − min(max output, 20k) − 13k (2.1.x)", 167,000 on its 200k window, and the next step's
// threshold was 155,000, the 32k reserve of the releases from 1.0.71 to 2.1.20. The overview now
// names the rule the log's version picks.

const DEALERFLOW = join(
  CORPUS,
  'reviewchaser__dealerflow/claude__projects__C--Users-georg-dealerflow__57c87a56-24c0-4296-be22-193aa3e1e16c.jsonl',
);

describe.skipIf(!corpusOrSkip('learn mode on a real 2.0.67 session'))(
  'learn mode, the threshold rule',
  () => {
    it("names the log's own threshold profile, the one its token check uses", async () => {
      const raw = readFileSync(DEALERFLOW);
      const sources = [createMemorySource(basename(DEALERFLOW), raw)];
      const session = await parseSession(sources);
      expect(session.meta.versions).toEqual(['2.0.67']);
      const walk = await computeLearnWalk({
        session,
        sources,
        prepared: prepareReplay(session),
        strategyId: 'claude-code',
      });
      const overview = walk.steps.find((s) => s.id === 'overview')!;
      expect(overview.lead).toContain(
        'Threshold profile of this log: 1.0.71–2.1.20: window − min(max output, 32k) − 13k.',
      );
      expect(overview.lead).not.toContain('(2.1.x)');
      const check = walk.steps.find((s) => s.id === 'check')!;
      // 200,000 − 32,000 − 13,000.
      expect(check.bar).toMatchObject({ thresholdLabel: 'auto-compact', thresholdTokens: 155_000 });
    });
  },
);
