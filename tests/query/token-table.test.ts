import { at } from '../../src/engine/assert';
import { describe, expect, it } from 'vitest';
import { computeTokenTable } from '../../src/engine/query/token-table';
import { estimateEntryTokens, estimateWithSafety } from '../../src/engine/tokens/estimate';
import { entryByUuid, parseFixtureSession } from './session-fixture';

describe('computeTokenTable', () => {
  it('puts the real context and its deltas next to Claude Code estimates', async () => {
    const session = await parseFixtureSession();
    const table = computeTokenTable(session);
    expect(Array.from(table.contextTokens)).toEqual([
      20_000, 26_000, 30_000, 170_000, 40_000, 45_000, 42_000, 25_000,
    ]);
    expect(Number.isNaN(table.deltaTokens[0])).toBe(true);
    expect(table.deltaTokens[1]).toBe(6_000);
    // First call: only the opening user message precedes it.
    const u1 = at(session.entries, entryByUuid(session, 'u1'));
    expect(table.estimatedDeltaTokens[0]).toBe(estimateWithSafety(estimateEntryTokens(u1)));
  });

  it('resets the estimated context at a compaction boundary', async () => {
    const session = await parseFixtureSession();
    const table = computeTokenTable(session);
    // Call 5 (index 4) follows the first boundary: its estimate covers the summary and what follows.
    expect(at(table.estimatedContextTokens, 4)).toBeLessThan(at(table.estimatedContextTokens, 3));
    const s1 = at(session.entries, entryByUuid(session, 's1'));
    expect(at(table.estimatedContextTokens, 4)).toBeGreaterThanOrEqual(
      estimateWithSafety(estimateEntryTokens(s1)),
    );
    // The estimate never includes the subagent's messages.
    expect(table.callIndex.length).toBe(8);
  });
});
