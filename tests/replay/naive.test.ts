import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { computeNaiveReplay } from '../../src/engine/replay/naive';
import { prepareReplay } from '../../src/engine/replay/prepare';
import type { SummaryModelId } from '../../src/engine/replay/summary-size';
import {
  DEFAULT_CLAUDE_CODE_KNOBS,
  type ClaudeCodeKnobs,
} from '../../src/engine/strategies/claude-code-knobs';
import { STRATEGIES } from '../../src/engine/strategies/registry';
import { generateSession } from '../../sample/generate-session';
import { REPLAY_FIXTURES } from './replay-fixtures';
import { runReplay } from './run-replay';
import { growingSpec, parseFixture } from './transcript-fixture';

// The fast replay against the deliberately naive one (replay/naive.ts) on generated transcripts,
// over knob sets that exercise every mechanism the naive one models.

const KNOB_SETS: { name: string; knobs: Partial<ClaudeCodeKnobs>; model?: SummaryModelId }[] = [
  { name: 'defaults', knobs: {} },
  { name: 'ratio model', knobs: {}, model: 'ratio' },
  { name: 'microcompact v2.1.68', knobs: { microcompactEnabled: true } },
  {
    name: 'microcompact, small window',
    knobs: { microcompactEnabled: true, microcompactProtectTokens: 15_000, microcompactMinSavings: 8_000 },
  },
  {
    name: 'legacy microcompact',
    knobs: { microcompactEnabled: true, microcompactVariant: 'legacy', microcompactProtectTokens: 20_000 },
  },
  { name: '60% override', knobs: { autocompactPctOverride: 60 }, model: 'ratio' },
  {
    name: 'legacy profile, usage only',
    knobs: { profile: 'legacy', countPendingMessages: false, contextWindow: 150_000 },
  },
  { name: 'auto off', knobs: { autoCompactEnabled: false, microcompactEnabled: true } },
];

async function generated(seed: number, apiCalls: number) {
  const g = generateSession({ seed, apiCalls });
  return parseSession(g.files.map((f) => createMemorySource(f.name, f.text)));
}

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

/** Fast and naive replays of every knob set on one session; the number of events compared. */
function expectAgreement(prepared: ReturnType<typeof prepareReplay>, name: string): number {
  let events = 0;
  for (const set of KNOB_SETS) {
    const knobs = { ...DEFAULT_CLAUDE_CODE_KNOBS, microcompactEnabled: false, ...set.knobs };
    const { result } = runReplay(prepared, knobs, { summaryModel: set.model ?? 'recorded' });
    const naive = computeNaiveReplay(prepared, knobs, set.model ?? 'recorded');
    const label = `${name}, ${set.name}`;
    expect(Array.from(result.simulatedTokens), label).toEqual(naive.simulatedTokens);
    expect(Array.from(result.checkTokens), label).toEqual(naive.checkTokens);
    const fast = result.events
      .filter((e) => e.kind !== 'blocked')
      .map((e) => ({
        kind: e.kind,
        afterCallPos: e.afterCallPos,
        postTokens: e.kind === 'microcompact' ? 0 : e.postTokens,
        summaryTokens: e.summaryTokens,
        clearedToolIds: e.clearedToolIds ? [...e.clearedToolIds].sort() : undefined,
      }));
    const slow = naive.events.map((e) => ({
      ...e,
      summaryTokens: e.summaryTokens,
      clearedToolIds: e.clearedToolIds,
    }));
    expect(fast, label).toEqual(slow);
    events += fast.length;
  }
  return events;
}

describe('fast replay = naive replay: claude-code', () => {
  for (const seed of [3, 11]) {
    it(`agrees on a generated session (seed ${seed})`, async () => {
      const prepared = prepareReplay(await generated(seed, 450));
      expect(expectAgreement(prepared, `seed ${seed}`)).toBeGreaterThan(10);
    });
  }

  it('agrees where microcompact and a full compaction follow the same call (edge case 6)', async () => {
    const prepared = prepareReplay(
      (await parseFixture(growingSpec(9, { start: 25_000, stepTokens: 25_000 }))).session,
    );
    expect(expectAgreement(prepared, 'same turn')).toBeGreaterThan(0);
  });

  it.each(REPLAY_FIXTURES.filter((f) => f.name !== 'growing'))('agrees on $label', async ({ name, load }) => {
    const prepared = prepareReplay(await load());
    expect(expectAgreement(prepared, name)).toBeGreaterThan(0);
  });
});
