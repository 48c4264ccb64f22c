import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { computeNaiveReplay } from './reference/claude-code';
import { prepareReplay } from '../../src/engine/replay/prepare';
import type { SummaryModelId } from '../../src/engine/replay/summary-size';
import {
  DEFAULT_CLAUDE_CODE_KNOBS,
  type ClaudeCodeKnobs,
} from '../../src/engine/strategies/claude-code/knobs';
import { generateSession } from '../../sample/generate-session';
import { REPLAY_FIXTURES } from './replay-fixtures';
import { runReplay } from './run-replay';
import { growingSpec, parseFixture } from './transcript-fixture';
import { fieldsOf } from './events';

// The fast replay against the deliberately naive one (tests/replay/reference/claude-code.ts) on generated transcripts,
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

// Cline's own naive reference (tests/replay/reference/cline.ts) is checked in tests/replay/cline-strategy.test.ts;
// OpenCode's prune (tests/replay/reference/opencode.ts: logs without compactions, auto-compaction off) in
// tests/replay/opencode-strategy.test.ts — its compaction is Claude Code's full summary at another line;
// Roo's sliding window (tests/replay/reference/roo.ts; its condense is a full summary as Claude Code's) in
// tests/replay/roo-strategy.test.ts; the summaries with a kept range after them, pi's
// (tests/replay/reference/pi.ts) in tests/replay/naive-pi.test.ts and boundary-scoring's
// (tests/replay/reference/boundary-scoring.ts, its scores shared) in tests/replay/naive-boundary-scoring.test.ts.
// Which strategies have a reference, and why the others have none: tests/engine/registry-structure.test.ts.

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
      .map(fieldsOf)
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
