import { describe, expect, it } from 'vitest';
import { computeThresholds } from '../../src/engine/thresholds';
import { DEFAULT_CLAUDE_CODE_KNOBS } from '../../src/engine/strategies/claude-code/knobs';
import { getClaudeCodeSessionKnobs } from '../../src/engine/strategies/claude-code/session-knobs';
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

// Claude Code 2.1.x before 2.1.68 (issue 19 item 10): real logs whose microcompact and
// auto-compaction come after the same call never clear alone at the warning threshold before it.
// The cheap tier is tried when auto-compact is due (docs/sources.md#ccs-main-dispatcher), the full
// compaction after it (edge case 6). Knob `microcompactTrigger: 'with-auto-compact'`.
describe('microcompact tried when auto-compact is due (2.1.x before 2.1.68)', async () => {
  // 85k, 90k, … : the usage passes the warning threshold (147k) at call 13 and the trigger count
  // (usage, output and the next 5k Read) the auto-compact threshold (167k) only at call 16.
  const { session } = await parseFixture(growingSpec(20, { start: 85_000, stepTokens: 5_000 }));
  const t = computeThresholds(DEFAULT_CLAUDE_CODE_KNOBS);

  it('at the warning threshold (2.1.68) it clears on its own, calls before auto-compact is due', () => {
    const { result } = runReplay(session, { microcompactEnabled: true, microcompactTrigger: 'warning' });
    const micro = expectKind(result.events[0], 'microcompact');
    expect(micro.afterCallPos).toBe(13);
    expect(micro.checkTokens).toBeLessThan(t.autoCompact);
  });

  it('with-auto-compact: the clearing comes only with the compaction, at its call, before it', () => {
    const { result } = runReplay(session, {
      microcompactEnabled: true,
      microcompactTrigger: 'with-auto-compact',
    });
    const micro = expectKind(result.events[0], 'microcompact');
    const compact = expectKind(result.events[1], 'compact');
    expect(compact.trigger).toBe('auto');
    expect(micro.afterCallPos).toBe(16);
    expect(compact.afterCallPos).toBe(16);
    expect(micro.thresholdTokens).toBe(t.autoCompact);
    expect(micro.note).toMatch(/auto-compact is due/);
  });

  it('with auto-compact off it clears at the warning threshold (the 2.1.9–2.1.19 logs at 148,000)', () => {
    const off = {
      microcompactEnabled: true,
      microcompactTrigger: 'with-auto-compact' as const,
      autoCompactEnabled: false,
    };
    const { result } = runReplay(session, off);
    const micro = expectKind(result.events[0], 'microcompact');
    expect(micro.thresholdTokens).toBe(
      computeThresholds({ ...DEFAULT_CLAUDE_CODE_KNOBS, autoCompactEnabled: false }).warning,
    );
    expect(result.events.some((e) => e.kind === 'compact')).toBe(false);
  });

  it("the log's knobs: by version, and by the log's own boundaries", () => {
    const info = {
      versions: ['2.1.12'],
      models: ['claude-opus-4-5'],
      isSubagent: false,
      autoCompactions: 1,
      microcompactions: 1,
      continuedPeakTokens: 0,
    };
    expect(getClaudeCodeSessionKnobs(info).knobs.microcompactTrigger).toBe('with-auto-compact');
    expect(getClaudeCodeSessionKnobs({ ...info, versions: ['2.1.68'] }).knobs.microcompactTrigger).toBe(
      'warning',
    );
    // A newer log that cleared with its auto-compaction; an older one that cleared alone with auto-compact on.
    const withAuto = getClaudeCodeSessionKnobs({
      ...info,
      versions: ['2.1.90'],
      microcompactsWithAutoCompact: 1,
    });
    expect(withAuto.knobs.microcompactTrigger).toBe('with-auto-compact');
    expect(withAuto.notes.join('\n')).toMatch(/cleared after the same call as an auto-compaction/);
    const alone = getClaudeCodeSessionKnobs({ ...info, microcompactsAlone: 1 });
    expect(alone.knobs.microcompactTrigger).toBe('warning');
  });
});
