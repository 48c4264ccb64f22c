import { describe, expect, it } from 'vitest';
import type { SummariesInfo } from '../../src/engine/summarize/session-ops';
import type { SummaryRun } from '../../src/ui/summaries/runs-db';
import {
  getSummarySizes,
  getSuppliedSummarySizes,
  getSuppliedSummaryTokens,
} from '../../src/ui/summaries/summary-sizes';

const HASH = 'f'.repeat(64);

function run(
  id: string,
  point: SummaryRun['point'],
  summaryTokens: number,
  createdAt: number,
  starred = false,
  hash = HASH,
): SummaryRun {
  return {
    id,
    name: id,
    point,
    summaryTokens,
    createdAt,
    starred,
    transcript: { contentHash: hash, name: 'x' },
    summaryTokensSource: 'api',
  } as SummaryRun;
}

const info = {
  op: 'info',
  contentHash: HASH,
  hashKind: 'sha256',
  name: 'x.jsonl',
  compactions: [{ compactionIndex: 0, trigger: 'auto', line: 10, apiCallBefore: 4, hasSummary: true }],
  subagentCompactions: [
    {
      compactionIndex: 1,
      trigger: 'auto',
      line: 13,
      hasSummary: true,
      subagent: { id: 'a3144f31772d15038', type: 'Explore' },
      index: 0,
      total: 1,
    },
  ],
  apiCalls: [],
  agentPresetId: 'claude-code-full',
} satisfies SummariesInfo;

describe('summary sizes for the replay', () => {
  const runs = [
    run('old', { kind: 'api-call', apiCallIndex: 7, label: '' }, 1000, 1),
    run('new', { kind: 'api-call', apiCallIndex: 7, label: '' }, 1500, 2),
    run('starred', { kind: 'api-call', apiCallIndex: 9, label: '' }, 900, 1, true),
    run('later', { kind: 'api-call', apiCallIndex: 9, label: '' }, 3000, 5),
    run('real', { kind: 'compaction', compactionIndex: 0, label: '' }, 2200, 3),
    // A subagent's compaction summarizes the subagent's own context: no size for the main replay.
    run('subagent', { kind: 'compaction', compactionIndex: 1, label: '' }, 700, 4),
    run('other transcript', { kind: 'api-call', apiCallIndex: 7, label: '' }, 50, 9, false, 'e'.repeat(64)),
  ];

  it("takes the starred run for a point, else the newest; only this transcript's runs", () => {
    const sizes = getSummarySizes(runs, HASH);
    expect(sizes.get('api-call:7')?.runId).toBe('new');
    expect(sizes.get('api-call:9')?.runId).toBe('starred');
    expect(sizes.get('compaction:0')?.summaryTokens).toBe(2200);
  });

  it('keys them by API call, as ReplayOptions.suppliedSummaryTokens expects', () => {
    expect(getSuppliedSummaryTokens(runs, info)).toEqual({ 4: 2200, 7: 1500, 9: 900 });
    const sizes = getSuppliedSummarySizes(runs, info);
    expect(sizes[4]).toMatchObject({ runName: 'real', summaryTokens: 2200 });
    expect(sizes[9]).toMatchObject({ runName: 'starred', source: 'api' });
  });
});
