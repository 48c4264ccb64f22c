import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LearnStep, LearnWalk } from '../../src/engine/learn/types';
import { computeLearnWalk } from '../../src/engine/learn/walk';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { CORPUS, corpusOrSkip, REAL_LOGS } from '../helpers/corpus';

// Learn mode's walk on real logs (learn-walk.test.ts: on the bundled sample).

// A real Codex rollout's walk said the context "drops to 111,696; the next request carries that
// plus the new messages (109,637 tokens at the next call)", then "the next call reports 109,637
// tokens, 2,059 under it": the 2,059 was the log's drift at its compaction (its usage less its
// history priced per message) carried past the walk's own summary, which had summarized those
// messages (tests/replay/drift-after-own-summary.test.ts). The next call now starts from the
// estimate after, and the text says the next request carries it plus the new messages.
/** Learn mode's walk of `strategyId` on a corpus file, following the `nth` compaction (0-based; absent: the default). */
async function getWalk(file: string, strategyId: string, nth?: number) {
  const real = [createMemorySource(file.split('/').pop()!, readFileSync(join(CORPUS, file)))];
  const parsed = await parseSession(real);
  const input = { session: parsed, sources: real, prepared: prepareReplay(parsed), strategyId };
  const walk = await computeLearnWalk(input);
  if (nth === undefined) return walk;
  return computeLearnWalk({ ...input, eventIndex: walk.compactions[nth]!.eventIndex });
}

const ROLLOUT_0329 =
  'LAF-US__IDAHO-VAULT/codex__archived_sessions__rollout-2026-03-29T22-19-12-019d3cf7-965c-7fb0-8eca-afeca7fe7b00.jsonl';
const ROLLOUT_0324 =
  'LAF-US__IDAHO-VAULT/codex__archived_sessions__rollout-2026-03-24T21-27-50-019d2308-c368-7ca0-8331-65a7d470352c.jsonl';
const VIBELIFE =
  'aistrad__work/claude__projects__-home-aiscend-work-vibelife__50c9003c-1dd6-44c5-a8bc-25b2265b4370.jsonl';

/** Learn mode's walk on a real Codex rollout with one compaction. */
const getCodexWalk = () => getWalk(ROLLOUT_0329, 'codex');

const stepOf = (walk: LearnWalk, id: string): LearnStep => walk.steps.find((s) => s.id === id)!;
const figureOf = (step: LearnStep, label: string) => step.figures.find((f) => f.label === label)?.value;

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

describe.skipIf(!corpusOrSkip('learn walk figures on real logs'))(
  'every figure of a walk, on real logs',
  () => {
    it('starts the next call from the context after the SDK compaction (a real Codex rollout: it read −6,125)', async () => {
      const walk = await getWalk(ROLLOUT_0324, 'anthropic-sdk-compaction', 2);
      const after = stepOf(walk, 'after');
      expect(walk.afterApiCall! + 1).toBe(67);
      expect(figureOf(after, 'Next call')).toBeCloseTo(figureOf(after, 'After')!, 6);
      expect(after.lead).not.toMatch(/-\d/);
    });

    it('adds up the after’s parts, the kept tail included (boundary scoring: 19,956 of 71,782)', async () => {
      for (const id of ['boundary-scoring', 'gemini-cli', 'pi']) {
        const after = stepOf(await getWalk(ROLLOUT_0324, id), 'after');
        const parts = after.figures
          .filter((f) =>
            /^(System prompt and tools|Summary message|Re-attached|Kept verbatim|Recent messages)/.test(
              f.label,
            ),
          )
          .reduce((sum, f) => sum + f.value, 0);
        expect(parts, id).toBeCloseTo(figureOf(after, 'After')!, 6);
        expect(figureOf(after, 'Recent messages left in place'), id).toBeGreaterThan(0);
      }
    });

    it('lists only what the count counts: Gemini CLI leaves the output out, Codex adds its own estimate', async () => {
      // Gemini CLI compares the last request's input: its count read "recorded usage 131,186 +
      // output 890 + the strategy's own count -890", an output listed then taken back.
      const gemini = stepOf(await getWalk(ROLLOUT_0324, 'gemini-cli'), 'check');
      const count = gemini.figures.find((f) => f.label === 'Count compared')!;
      expect(count.how).toBe('recorded usage');
      expect(count.value).toBe(figureOf(gemini, 'Simulated context sent'));
      expect(figureOf(gemini, 'Output of the response')).toBeGreaterThan(0);
      expect(gemini.figures.find((f) => f.label === 'Output of the response')!.how).toContain(
        'not counted by this strategy’s trigger',
      );
      expect(gemini.lead).toContain('the size of the request it just sent (its input, not the answer)');
      // Codex counts the output and more: each part listed, and its own estimate, adding up.
      const codex = stepOf(await getCodexWalk(), 'check');
      const parts = codex.figures.find((f) => f.label === 'Count compared')!;
      expect(parts.how).toBe("recorded usage 251,429 + output 1,637 + the strategy's own count 2,712");
      expect(parts.value).toBe(251_429 + 1_637 + 2_712);
      expect(codex.figures.find((f) => f.label === 'Output of the response')!.how).toContain(
        'counted (the next',
      );
    });

    it('tells the prune’s own count from the context, and draws no headroom against its minimum (OpenCode)', async () => {
      const walk = await getWalk(ROLLOUT_0324, 'opencode', 1);
      const check = stepOf(walk, 'check');
      const after = stepOf(walk, 'after');
      // The check said "Count compared 47,938" with the parts of the context, 153,067.
      expect(figureOf(check, 'Count compared')).toBe(47_938);
      expect(check.figures.find((f) => f.label === 'Count compared')!.how).toContain('prune');
      expect(figureOf(check, 'Context before')).toBe(figureOf(after, 'Before'));
      expect(check.lead).toContain('the context is then 153,067 tokens');
      // "Headroom to the threshold −85,863": the context after against the 20,000 minimum.
      expect(after.figures.some((f) => /threshold/i.test(f.label))).toBe(false);
      expect(check.bar!.thresholdLabel).toBe('OpenCode compaction');
      expect(check.bar!.checkTokens[check.bar!.focus]).toBe(153_067);
    });

    it('names the truncation that follows the duplicate-read notices at the same call (Cline)', async () => {
      const walk = await getWalk(VIBELIFE, 'cline', 0);
      const after = stepOf(walk, 'after');
      expect(walk.compactions[0]!.kind).toBe('replace');
      // It said "the next call reports 77,702 tokens, 71,440 under it (a call's own figure stands for the estimate)".
      expect(after.lead).toContain('the truncation at the same call then takes it to');
      expect(after.lead).not.toContain('under it');
    });

    it('counts the span’s records that are no message (a Codex rollout: 385 records, 154 read)', async () => {
      const walk = await getCodexWalk();
      const span = stepOf(walk, 'span');
      const filter = stepOf(walk, 'filter');
      expect(figureOf(filter, 'Records that are no message')! + figureOf(filter, 'Records read')!).toBe(
        figureOf(span, 'Records in the span'),
      );
    });

    it('gives Codex’s count with its own part (the parts summed 2,712 short)', async () => {
      const check = stepOf(await getCodexWalk(), 'check');
      const count = check.figures.find((f) => f.label === 'Count compared')!;
      expect(count.value).toBe(255_778);
      expect(count.how).toBe("recorded usage 251,429 + output 1,637 + the strategy's own count 2,712");
    });
  },
);

// A real Gemini CLI chat (fabien-lessirard/dotfiles, restored into .real-logs) compacted once, by
// its notice "compressed from: 526049", after call 334 of 353, while its recorded calls peak at
// 500,657: Learn's walk said "Gemini CLI never compacts" beside the log's own drop, without a word
// of it. It now says where the log compacted.
const GEMINI_CHAT = join(
  REAL_LOGS,
  'fabien-lessirard__dotfiles/.gemini/tmp/dashboard-mictlan/chats/session-2026-02-23T08-58-c9da8256.json',
);
if (!existsSync(GEMINI_CHAT))
  console.warn(`the Learn walk on a real Gemini chat is skipped: ${GEMINI_CHAT} is not restored`);

describe.skipIf(!existsSync(GEMINI_CHAT))('Learn on a log that compacted where the replay does not', () => {
  it('says where the log compacted, by its own count', async () => {
    const real = [createMemorySource(GEMINI_CHAT.split('/').pop()!, readFileSync(GEMINI_CHAT))];
    const session = await parseSession(real);
    const [logged] = session.compactions;
    expect(session.compactions).toHaveLength(1);
    const walk = await computeLearnWalk({
      session,
      sources: real,
      prepared: prepareReplay(session),
      strategyId: 'gemini-cli',
    });
    const check = stepOf(walk, 'check');
    expect(check.title).toBe('The token check: never reached');
    expect(check.lead).toContain('never compacts in the replay');
    expect(check.lead).toContain(
      `The log itself compacted once (after API call ${logged!.apiCallBefore! + 1}, at 526,049 tokens by its own count)`,
    );
  });
});
