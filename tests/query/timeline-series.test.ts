import { describe, expect, it } from 'vitest';
import { computeTimelineSeries } from '../../src/engine/query/timeline-series';
import { parseFixtureSession } from './session-fixture';

describe('computeTimelineSeries', () => {
  it('has one point per main-conversation API call, as typed arrays', async () => {
    const session = await parseFixtureSession();
    const series = computeTimelineSeries(session);
    expect(series.contextTokens).toBeInstanceOf(Float64Array);
    expect(Array.from(series.contextTokens)).toEqual([
      20_000, 26_000, 30_000, 170_000, 40_000, 45_000, 42_000, 25_000,
    ]);
    expect(series.peakContextTokens).toBe(170_000);
    expect(series.callIndex.length).toBe(8);
    expect(Number.isFinite(series.timestampMs[0])).toBe(true);
  });

  it('puts compaction markers between the calls before and after them', async () => {
    const session = await parseFixtureSession();
    const { markers } = computeTimelineSeries(session);
    expect(markers.map((m) => [m.kind, m.trigger, m.x])).toEqual([
      ['compact', 'manual', 3.5],
      ['microcompact', 'auto', 5.5],
      ['compact', 'auto', 6.5],
    ]);
    expect(markers[0]).toMatchObject({ preTokens: 170_050, postTokens: 40_000 });
    expect(markers[1]).toMatchObject({ tokensSaved: 3_000 });
  });

  it('handles a session without calls', async () => {
    const session = await parseFixtureSession();
    const empty = { ...session, apiCalls: [], compactions: [] };
    const series = computeTimelineSeries(empty);
    expect(series.contextTokens.length).toBe(0);
    expect(series.markers).toEqual([]);
  });
});
