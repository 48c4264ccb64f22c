import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeFileSource } from '../../src/cli/node-source';
import { computeInspectReport } from '../../src/engine/inspect/report';
import { parseSession } from '../../src/engine/parse/parse-session';
import { getRowSummary } from '../../src/engine/query/row-page';
import { computeTimelineSeries } from '../../src/engine/query/timeline-series';
import { corpusOrSkip, FOREIGN } from '../helpers/corpus';

// Issue 18 item 5: a request that failed or was cancelled before an answer (all-zero usage and the
// log's error or cancel marker) is a failed request, listed apart, not an API call of context 0;
// call numbers run over real calls. Pinned on the real logs that show it (../shared/corpus/foreign).

const present = corpusOrSkip('failed-requests test');

const CLINE_FAILED = 'haram-333__fineye/ui_messages.json';
const CLINE_CANCELLED = 'Jeehunter__mcp-vscode-server/ui_messages.json';
const PI_ERROR =
  'timerloggedout-spec__termux-monorepo/.pi/agent/sessions/--data-data-com.termux-files-home--/2026-05-07T13-49-54-044Z_019e02b3-bbeb-74cc-ab75-076b653c68a7.jsonl';

const load = (path: string) => parseSession([createNodeFileSource(join(FOREIGN, path))]);

describe.skipIf(!present)('failed requests are not API calls', () => {
  it('Cline: 7 of 31 requests failed while streaming (retried, then given up): 24 calls', async () => {
    const s = await load(CLINE_FAILED);
    expect(s.apiCalls).toHaveLength(24);
    expect(s.apiCalls.every((c) => c.contextTokens > 0)).toBe(true);
    expect(s.apiCalls.map((c) => c.index)).toEqual([...Array(24).keys()]);
    const failed = s.failedRequests ?? [];
    expect(failed.map((f) => f.reason)).toEqual(Array(7).fill('streaming_failed'));
    // Each falls between the real calls around it, in file order.
    for (const f of failed) {
      const before = s.apiCalls[f.afterApiCall];
      const after = s.apiCalls[f.afterApiCall + 1];
      if (before) expect(before.firstEntryIndex).toBeLessThan(f.entryIndex);
      if (after) expect(after.firstEntryIndex).toBeGreaterThan(f.entryIndex);
    }
    // 3 of them carry Cline's streamingFailedMessage.
    expect(failed.filter((f) => f.detail !== undefined)).toHaveLength(3);
    const report = computeInspectReport(s);
    expect(report.failedRequests).toHaveLength(7);
    expect(report.peakContextTokens).toBe(Math.max(...s.apiCalls.map((c) => c.contextTokens)));
  });

  it('Cline: a request the person cancelled before any usage: 60 calls and 1 failed request', async () => {
    const s = await load(CLINE_CANCELLED);
    expect(s.apiCalls).toHaveLength(60);
    expect(s.failedRequests?.map((f) => f.reason)).toEqual(['user_cancelled']);
  });

  it('pi: the last response, an HTTP 402 with usage all 0, is a failed request', async () => {
    const s = await load(PI_ERROR);
    expect(s.apiCalls).toHaveLength(14);
    expect(s.apiCalls.every((c) => c.contextTokens > 0)).toBe(true);
    const [failed, ...more] = s.failedRequests ?? [];
    expect(more).toEqual([]);
    expect(failed).toMatchObject({ reason: 'error', afterApiCall: 13, line: 46 });
    expect(failed?.detail).toMatch(/^402 "You have depleted your monthly included credits/);
  });

  it('the timeline marks it between calls and the transcript row labels it', async () => {
    const s = await load(PI_ERROR);
    const series = computeTimelineSeries(s);
    expect(series.contextTokens).toHaveLength(14);
    expect(series.failed).toEqual([
      expect.objectContaining({ x: 13.5, reason: 'error', entryIndex: s.failedRequests![0]!.entryIndex }),
    ]);
    const row = getRowSummary(s, s.failedRequests![0]!.entryIndex, 0);
    expect(row.failedRequest).toBe('error');
    expect(row.contextTokens).toBeUndefined();
  });
});
