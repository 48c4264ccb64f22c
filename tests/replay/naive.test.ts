import { describe, expect, it } from 'vitest';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { STRATEGIES } from '../../src/engine/strategies/registry';
import { expectAgreement, generated } from './naive-agreement';
import { REPLAY_FIXTURES } from './replay-fixtures';
import { growingSpec, parseFixture } from './transcript-fixture';

// The fast replay against the deliberately naive one (replay/naive.ts) on small generated
// transcripts and fixtures, per commit; the big seeds and the sample in naive.reference.test.ts.

/**
 * What the naive reference does not model, per registered strategy it skips; every other strategy
 * must have a case below.
 */
const NOT_MODELLED: Record<string, string> = {
  'api-clear-tool-uses':
    "the API's context_management edits (clear_thinking's kept turns, clear_tool_uses' trigger, keep, clear_at_least, exclude_tools, compact_20260112's trigger)",
  'anthropic-sdk-compaction':
    "the Anthropic SDK's compactionControl (a check only after tool calls, the whole history to one summary capped at 4,096 tokens)",
  codex: "Codex CLI's compaction (kept user messages under a token budget)",
  'gemini-cli':
    "Gemini CLI's character split, function-response budget and probe; its rules are checked in tests/replay/gemini-cli-strategy.test.ts",
};
// Cline's own naive reference (replay/naive-cline.ts) is checked in tests/replay/cline-strategy.test.ts;
// OpenCode's prune (replay/naive-opencode.ts: logs without compactions, auto-compaction off) in
// tests/replay/opencode-strategy.test.ts — its compaction is Claude Code's full summary at another line;
// Roo's sliding window (replay/naive-roo.ts; its condense is a full summary as Claude Code's) in
// tests/replay/roo-strategy.test.ts; the summaries with a kept range after them, pi's
// (replay/naive-pi.ts) in tests/replay/naive-pi.test.ts and boundary-scoring's
// (replay/naive-boundary-scoring.ts, its scores shared) in tests/replay/naive-boundary-scoring.test.ts.
const MODELLED = new Set(['claude-code', 'cline', 'opencode', 'roo', 'pi', 'boundary-scoring']);

describe('every registered strategy is checked against the naive reference or skipped with a reason', () => {
  it.each(STRATEGIES.map((s) => s.id))('%s', (id) => {
    expect(
      MODELLED.has(id) !== (NOT_MODELLED[id] !== undefined),
      `${id}: in exactly one of the two lists`,
    ).toBe(true);
  });
  for (const [id, what] of Object.entries(NOT_MODELLED))
    it.skip(`${id}: naive reference does not model ${what} yet`);
});

describe('fast replay = naive replay: claude-code', () => {
  // Small, per commit; the 450-call seeds and the sample: naive.reference.test.ts.
  // It starts at 100,000 tokens, so 120 calls reach every threshold (16 events over the knob sets).
  it('agrees on a small generated session (seed 3, 120 calls from 100,000 tokens)', async () => {
    const prepared = prepareReplay(await generated(3, 120, 100_000));
    expect(expectAgreement(prepared, 'seed 3, 120 calls')).toBeGreaterThan(10);
  });

  it('agrees where microcompact and a full compaction follow the same call (edge case 6)', async () => {
    const prepared = prepareReplay(
      (await parseFixture(growingSpec(9, { start: 25_000, stepTokens: 25_000 }))).session,
    );
    expect(expectAgreement(prepared, 'same turn')).toBeGreaterThan(0);
  });

  it.each(REPLAY_FIXTURES.filter((f) => f.name !== 'growing' && f.name !== 'sample'))(
    'agrees on $label',
    async ({ name, load }) => {
      const prepared = prepareReplay(await load());
      expect(expectAgreement(prepared, name)).toBeGreaterThan(0);
    },
  );
});
