import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { computeReplay } from '../../src/engine/replay/compute-replay';
import { checkReplayInvariants } from './invariants';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { API_CONTEXT_EDITING_STRATEGY } from '../../src/engine/strategies/api-clear-tool-uses';
import { getSessionInfo } from '../../src/engine/strategies/types';
import { API_RULES_PLAN, type ApiAccuracyPlan, buildApiAccuracyLog } from '../fixtures/make-api-fixtures';

// api-clear-tool-uses on a raw Anthropic Messages log (parse/dialects/anthropic-messages.ts) at
// the knobs its requests state (`context_management.edits`): the responses' `applied_edits` are the
// log's own clearings, compared with the replay's. The log is written from the documented shapes by
// tests/fixtures/make-api-fixtures.ts, its server clearing at the stated trigger or at another one.

async function replay(plan: ApiAccuracyPlan) {
  const session = await parseSession([
    createMemorySource('log-2026-03-10-10-00-00.jsonl', new TextEncoder().encode(buildApiAccuracyLog(plan))),
  ]);
  expect(session.format).toBe('anthropic-messages');
  const prepared = prepareReplay(session);
  const { knobs, notes } = API_CONTEXT_EDITING_STRATEGY.getSessionKnobs(getSessionInfo(prepared));
  const result = computeReplay(prepared, 'api-clear-tool-uses', knobs);
  expect(checkReplayInvariants(prepared, result)).toEqual([]);
  return { session, prepared, knobs, notes, result };
}

describe('api-clear-tool-uses replay accuracy on a raw API log', () => {
  it('takes the request’s context_management.edits as the knobs', async () => {
    const { knobs, notes } = await replay(API_RULES_PLAN);
    expect(knobs).toMatchObject({
      clearToolUses: true,
      triggerTokens: 30_000,
      keepToolUses: 2,
      clearAtLeastTokens: 5_000,
      excludeTools: ['bash'],
      clearThinking: true,
      keepThinkingTurns: 2,
      keepAllThinking: false,
      compaction: true,
      compactTriggerTokens: 150_000,
    });
    expect(notes.join('\n')).toMatch(
      /The request's context_management\.edits: clear_tool_uses \(trigger 30,000/,
    );
  });

  it('reproduces each applied clear_tool_uses at its call: the first at call 5, then one per call to 9', async () => {
    const { session, prepared, result } = await replay(API_RULES_PLAN);
    // The log's clearings, with the results the server cleared (the oldest reads; bash excluded).
    const logged = session.compactions.map((c) => c.clearedToolIds);
    expect(logged).toEqual([
      ['toolu_r1', 'toolu_r2', 'toolu_r3'],
      ['toolu_r4'],
      ['toolu_r5'],
      ['toolu_r6'],
      ['toolu_r7'],
    ]);
    expect(prepared.real.map((r) => r.afterCall)).toEqual([5, 6, 7, 8, 9]);
    const { outcomes } = result.comparison;
    expect(outcomes.map((o) => [o.status, o.delta])).toEqual(Array.from({ length: 5 }, () => ['matched', 0]));
    // The replay cleared the same results, bash never, and its context is the log's at every call.
    expect(Object.keys(result.clearedToolIds).sort()).toEqual(logged.flat().sort());
    expect(Array.from(result.simulatedTokens)).toEqual(Array.from(prepared.recorded));
  });

  it('reports the log’s first clearing as missing when the server cleared below the stated trigger', async () => {
    const { prepared, result } = await replay({ statedTrigger: 30_000, appliedFrom: 20_000 });
    expect(prepared.real.map((r) => r.afterCall)).toEqual([4, 5, 6, 7, 8, 9]);
    const { outcomes } = result.comparison;
    expect(outcomes[0]).toMatchObject({ afterCallPos: 4, status: 'missing' });
    expect(outcomes.slice(1).every((o) => o.status === 'matched')).toBe(true);
  });
});
