import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { computeReplay } from '../../src/engine/replay/compute-replay';
import { checkReplayInvariants } from './invariants';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { OPENCODE_STRATEGY } from '../../src/engine/strategies/opencode';
import { getSessionInfo } from '../../src/engine/strategies/types';
import {
  buildOpenCodeAccuracySession,
  type OpenCodeAccuracyPlan,
  OPENCODE_RULES_PLAN,
} from '../fixtures/make-opencode-fixtures';

// The OpenCode strategy on an OpenCode session (parse/dialects/opencode.ts) at the knobs the log
// implies: its real prune (tool outputs with time.compacted) and compaction (a compaction part
// answered by a summary: true message) against the replay's. The session is written from OpenCode's
// documented shapes by tests/fixtures/make-opencode-fixtures.ts, with the prune and compaction where
// OpenCode's rules put them (worked by hand there), or elsewhere.

async function replay(plan: OpenCodeAccuracyPlan) {
  const files = buildOpenCodeAccuracySession(plan);
  const session = await parseSession(
    files.map(([path, text]) => createMemorySource(path, new TextEncoder().encode(`${text}\n`))),
  );
  expect(session.format).toBe('opencode');
  const prepared = prepareReplay(session);
  const { knobs, notes } = OPENCODE_STRATEGY.getSessionKnobs(getSessionInfo(prepared));
  const result = computeReplay(prepared, 'opencode', knobs);
  expect(checkReplayInvariants(prepared, result)).toEqual([]);
  return { prepared, knobs, notes, result };
}

describe('OpenCode replay accuracy on an OpenCode session', () => {
  it('reads the log’s model and window: claude-sonnet-4-5, 200,000 with 32,000 of output, compacting at 168,000', async () => {
    const { knobs, notes } = await replay(OPENCODE_RULES_PLAN);
    expect(knobs.contextLimit).toBe(200_000);
    expect(knobs.maxOutputTokens).toBe(32_000);
    expect(notes.join('\n')).toMatch(/An OpenCode session \(claude-sonnet-4-5\)/);
    expect(notes.join('\n')).not.toMatch(/not an OpenCode session/);
  });

  it('reproduces the prune at call 13 and the compaction at call 20, where OpenCode’s rules put them', async () => {
    const { prepared, result } = await replay(OPENCODE_RULES_PLAN);
    const { outcomes, counts, expected, reproduced, extraEventIndices } = result.comparison;
    // The log's own events: the prune after turn 6's last call, the compaction after its summary request.
    expect(prepared.real.map((r) => [r.kind, r.afterCall])).toEqual([
      ['microcompact', 13],
      ['compact', 20],
    ]);
    expect(outcomes.map((o) => [o.kind, o.status, o.delta])).toEqual([
      ['microcompact', 'matched', 0],
      ['compact', 'matched', 0],
    ]);
    // The replay pruned the same two outputs (turns 0 and 1).
    const prune = result.events[outcomes[0]!.eventIndex!]!;
    expect(prune.kind).toBe('microcompact');
    expect(result.clearedToolIds).toEqual({
      toolu_r0: outcomes[0]!.eventIndex,
      toolu_r1: outcomes[0]!.eventIndex,
    });
    expect([expected, reproduced, counts.matched, extraEventIndices.length]).toEqual([1, 1, 1, 0]);
  });

  it('reports the mismatch when the log pruned a turn early and compacted two reads early', async () => {
    // Not OpenCode's rules at these knobs: after turn 5 only 11,000 tokens lie beyond the newest
    // 40,000 (not more than 20,000), and after read 3 the context is about 139k < 168,000.
    const { prepared, result } = await replay({ pruneAfterTurn: 5, compactAfterRead: 3 });
    expect(prepared.real.map((r) => [r.kind, r.afterCall])).toEqual([
      ['microcompact', 11],
      ['compact', 18],
    ]);
    const { outcomes, counts, expected, reproduced } = result.comparison;
    expect(outcomes.map((o) => o.status)).not.toContain('matched');
    expect(outcomes[1]!.status).toBe('missing');
    expect([expected, reproduced, counts.missing]).toEqual([1, 0, 1]);
    expect(outcomes[0]!.status).not.toBe('matched');
  });
});
