import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { getPresetSettings } from '../helpers/preset-settings';
import {
  handleSummariesOp,
  type SummariesInfo,
  type SummariesPrepared,
} from '../../src/engine/summarize/session-ops';
import { createFixtureText, loadFixture } from './fixture';

describe('the Summaries operations the worker runs', () => {
  it("info: the transcript's content hash, its real compactions and main API calls", async () => {
    const { session, sources } = await loadFixture();
    const info = (await handleSummariesOp(session, sources, { op: 'info' })) as SummariesInfo;
    expect(info.contentHash).toBe(createHash('sha256').update(createFixtureText()).digest('hex'));
    expect(info.hashKind).toBe('sha256');
    expect(info.name).toBe('fixture-session.jsonl');
    expect(info.compactions).toEqual([
      expect.objectContaining({ compactionIndex: 0, trigger: 'auto', hasSummary: true, apiCallBefore: 4 }),
    ]);
    expect(info.apiCalls.map((c) => c.index)).toEqual(session.apiCalls.map((c) => c.index));
  });

  it('prepare: the exact request, and the recorded summary at a real compaction', async () => {
    const { session, sources } = await loadFixture();
    const prepared = (await handleSummariesOp(session, sources, {
      op: 'prepare',
      point: { kind: 'compaction', compactionIndex: 0 },
      settings: getPresetSettings('claude-code-full'),
    })) as SummariesPrepared;
    expect(prepared.request.messages.length).toBeGreaterThan(3);
    expect(prepared.recordedContinuation).toMatch(/^This session is being continued/);
    // Plain data: it survives a structured clone unchanged.
    expect(structuredClone(prepared)).toEqual(prepared);
  });
});
