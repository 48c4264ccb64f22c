import { expect } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { computeNaiveReplay } from './reference/claude-code';
import type { prepareReplay } from '../../src/engine/replay/prepare';
import type { SummaryModelId } from '../../src/engine/replay/summary-size';
import {
  DEFAULT_CLAUDE_CODE_KNOBS,
  type ClaudeCodeKnobs,
} from '../../src/engine/strategies/claude-code/knobs';
import { generateSession } from '../../sample/generate-session';
import { runReplay } from './run-replay';
import { fieldsOf } from './events';

// The fast Claude Code replay against the deliberately naive one (tests/replay/reference/claude-code.ts),
// over knob sets that exercise every mechanism the naive one models: shared by naive.test.ts (small
// sessions, per commit) and naive.reference.test.ts (the big generated seeds and the sample, the
// `reference` stage).

export const KNOB_SETS: { name: string; knobs: Partial<ClaudeCodeKnobs>; model?: SummaryModelId }[] = [
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

/** A session of the sample generator; `initialContextTokens` starts it long (a resumed session). */
export async function generated(seed: number, apiCalls: number, initialContextTokens?: number) {
  const g = generateSession({ seed, apiCalls, initialContextTokens });
  return parseSession(g.files.map((f) => createMemorySource(f.name, f.text)));
}

export /** Fast and naive replays of every knob set on one session; the number of events compared. */
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
