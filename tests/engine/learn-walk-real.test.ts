import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeLearnWalk } from '../../src/engine/learn/walk';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { CORPUS, corpusOrSkip } from '../helpers/corpus';

// Learn mode's walk on real logs (learn-walk.test.ts: on the bundled sample).

// A real Codex rollout's walk said the context "drops to 111,696; the next request carries that
// plus the new messages (109,637 tokens at the next call)", then "the next call reports 109,637
// tokens, 2,059 under it": the 2,059 was the log's drift at its compaction (its usage less its
// history priced per message) carried past the walk's own summary, which had summarized those
// messages (tests/replay/drift-after-own-summary.test.ts). The next call now starts from the
// estimate after, and the text says the next request carries it plus the new messages.
/** Learn mode's walk on a real Codex rollout with one compaction. */
async function getCodexWalk() {
  const path = join(
    CORPUS,
    'LAF-US__IDAHO-VAULT/codex__archived_sessions__rollout-2026-03-29T22-19-12-019d3cf7-965c-7fb0-8eca-afeca7fe7b00.jsonl',
  );
  const real = [createMemorySource('rollout.jsonl', readFileSync(path))];
  const parsed = await parseSession(real);
  return computeLearnWalk({
    session: parsed,
    sources: real,
    prepared: prepareReplay(parsed),
    strategyId: 'codex',
  });
}

describe.skipIf(!corpusOrSkip('learn walk on a real Codex rollout'))(
  'the context after, on a real log',
  () => {
    it('starts the next call from the estimate after, and says so', async () => {
      const walk = await getCodexWalk();
      const after = walk.steps.find((s) => s.id === 'after')!;
      const post = /drops to ([\d,]+)/.exec(after.lead)![1];
      expect(after.lead).toContain(
        `the next request carries that plus the new messages (${post} tokens at the next call)`,
      );
      expect(after.lead).not.toContain('under it');
    });

    it("names the agent's own wrapper and its size, and no other agent's estimate, for Codex", async () => {
      const walk = await getCodexWalk();
      // The wrapper's 100 tokens stood without a word of where they came from.
      const wrapper = walk.steps
        .find((s) => s.id === 'continuation')!
        .figures.find((f) => f.label === 'Wrapper around the summary')!;
      expect(wrapper.value).toBe(100);
      expect(wrapper.how).toContain('summary_prefix.md');
      // The request's size was "by Claude Code's estimate" on a Codex walk.
      const prompt = walk.steps.find((s) => s.id === 'prompt')!;
      expect(prompt.lead).not.toContain('Claude Code’s estimate');
      expect(prompt.lead).toContain('our estimate (characters / 4');
    });
  },
);
