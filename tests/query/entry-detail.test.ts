import { at } from '../../src/engine/assert';
import { describe, expect, it } from 'vitest';
import { getEntryDetail } from '../../src/engine/query/entry-detail';
import { entryByUuid, parseFixtureSession } from './session-fixture';

describe('getEntryDetail', () => {
  it('links a tool call to its result and back', async () => {
    const session = await parseFixtureSession();
    const call = getEntryDetail(session, entryByUuid(session, 'a4'));
    expect(at(call.blocks, 0).pair).toMatchObject({
      toolName: 'Bash',
      status: 'cleared',
      entryIndex: entryByUuid(session, 'u4'),
    });
    const result = getEntryDetail(session, entryByUuid(session, 'u4'));
    expect(at(result.blocks, 0).pair).toMatchObject({
      toolName: 'Bash',
      status: 'cleared',
      entryIndex: entryByUuid(session, 'a4'),
    });
    expect(at(result.blocks, 0).pair!.inputPreview).toContain('npm test');
  });

  it('gives the API call with its delta from the previous main call', async () => {
    const session = await parseFixtureSession();
    const detail = getEntryDetail(session, entryByUuid(session, 'a4'));
    expect(detail.apiCall).toMatchObject({ contextTokens: 30_000, deltaTokens: 4_000, isMain: true });
    expect(getEntryDetail(session, entryByUuid(session, 'a1')).apiCall?.deltaTokens).toBeUndefined();
  });

  it('estimates blocks the way Claude Code does', async () => {
    const session = await parseFixtureSession();
    const detail = getEntryDetail(session, entryByUuid(session, 'u5'));
    expect(detail.blocks.map((b) => b.estimatedTokens)).toEqual([5, 2_000]);
    expect(detail.estimatedTokens).toBe(2_005);
    expect(detail.estimatedTokensWithSafety).toBe(Math.ceil(2_005 * (4 / 3)));
  });

  it('knows compaction boundaries and subagent spawners', async () => {
    const session = await parseFixtureSession();
    expect(getEntryDetail(session, entryByUuid(session, 'b2')).compactionIndex).toBe(2);
    const sub = getEntryDetail(session, entryByUuid(session, 'sa2'));
    expect(sub.spawnerEntryIndex).toBe(entryByUuid(session, 'a3'));
    expect(sub.depth).toBe(1);
    expect(sub.fileName).toContain('agent-abc1234');
    expect(() => getEntryDetail(session, 10_000)).toThrow(RangeError);
  });
});
