import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeFileSource } from '../../src/cli/node-source';
import { parseSession } from '../../src/engine/parse/parse-session';
import { computeReplay } from '../../src/engine/replay/compute-replay';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { getStrategy } from '../../src/engine/strategies/registry';
import { getSessionInfo } from '../../src/engine/strategies/types';
import { CORPUS } from '../helpers/corpus';

// The walk of session 15: a real Cline task replayed under pi's rules compacts mid-run and is still
// over the window after it; the event card said "the next call's check fires again and compacts the
// summary with what follows it (tengu_sm_compact_threshold_exceeded)", Claude Code's telemetry,
// for pi's compaction. The note is now the same words for every strategy.

const CLINE_TASK = join(CORPUS, 'CoreGems__Cline-Xray/task_sample__ui_messages.json');

describe.skipIf(!existsSync(CLINE_TASK))('a compaction still over its threshold (real Cline task)', () => {
  it('under pi: said without Claude Code’s telemetry', async () => {
    const id = 'pi';
    const prepared = prepareReplay(await parseSession([createNodeFileSource(CLINE_TASK)]));
    const strategy = getStrategy(id);
    const { knobs } = strategy.getSessionKnobs(getSessionInfo(prepared));
    const over = computeReplay(prepared, id, { ...knobs, contextWindow: 200_000 }).events.filter(
      (e) => e.kind === 'compact' && e.failure === 'over-threshold',
    );
    expect(over.length).toBeGreaterThan(0);
    for (const e of over) {
      expect(e.note).toMatch(/still [\d,]+ tokens after compacting, not under the [\d,]+ threshold/);
      expect(e.note).toContain("the strategy's next check fires again");
      expect(e.note).not.toMatch(/tengu_/);
    }
  });
});
