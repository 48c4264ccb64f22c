import { describe, expect, it } from 'vitest';
import { computeThresholds } from '../../src/engine/thresholds';
import { DEFAULT_CLAUDE_CODE_KNOBS } from '../../src/engine/strategies/claude-code/knobs';
import { runReplay } from './run-replay';
import { growingSpec, parseFixture } from './transcript-fixture';
import { expectKind } from './events';

// claude-code-compaction-v2.1.68.txt, edge case 6: "Microcompact + compaction: both can fire in the
// same turn; microcompact runs inline during serialization, full compaction runs after".

describe('microcompact and a full compaction after the same call (edge case 6)', async () => {
  // 25k, 50k, … 150k: call 6's usage (150k) is over the warning threshold (147k) and, with the
  // Read result that follows it, its trigger count over the auto-compact threshold (167k); call 5
  // is under both. Every call adds a 25k-token Read result: old ones are worth clearing.
  const { session } = await parseFixture(growingSpec(9, { start: 25_000, stepTokens: 25_000 }));
  const t = computeThresholds(DEFAULT_CLAUDE_CODE_KNOBS);

  it('clears first, then compacts the cleared history', () => {
    const { prepared, result } = runReplay(session, { microcompactEnabled: true });
    const micro = expectKind(result.events[0], 'microcompact');
    const compact = expectKind(result.events[1], 'compact');
    expect(micro).toMatchObject({ kind: 'microcompact', afterCallPos: 5 });
    expect(compact).toMatchObject({ kind: 'compact', trigger: 'auto', mechanism: 'full', afterCallPos: 5 });
    expect(micro!.checkTokens).toBeGreaterThanOrEqual(t.warning);
    expect(compact!.checkTokens).toBeGreaterThanOrEqual(t.autoCompact);
    // Three old results beyond the 40k most recent, the last three kept.
    expect(micro!.clearedToolIds).toHaveLength(3);
    // The summary request is built over the cleared history: its span is smaller by what the
    // clearing saved, against the same replay without microcompact.
    const alone = expectKind(runReplay(prepared, { microcompactEnabled: false }).result.events[0], 'compact');
    expect(alone).toMatchObject({ kind: 'compact', afterCallPos: 5 });
    expect(alone.spanTokens! - compact!.spanTokens!).toBeCloseTo(micro!.savedTokens!, 0);
    // The trigger count is the usage, which the clearing does not lower: the compaction fires anyway.
    expect(compact!.checkTokens).toBe(alone.checkTokens);
    expect(compact!.postTokens).toBeLessThan(t.autoCompact);
    expect(result.events).toHaveLength(2);
  });

  it('under the legacy variant microcompact is tried instead of the full compaction, not with it', () => {
    const { result } = runReplay(session, { microcompactEnabled: true, microcompactVariant: 'legacy' });
    const atCall5 = result.events.filter((e) => e.afterCallPos === 5);
    expect(atCall5.map((e) => e.kind)).toEqual(['microcompact']);
  });
});
