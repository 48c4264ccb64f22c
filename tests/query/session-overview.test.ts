import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { getSessionOverview } from '../../src/engine/query/session-overview';
import { parseFixtureSession } from './session-fixture';

describe('getSessionOverview', () => {
  it('summarizes counts, compactions and unknown types', async () => {
    const summary = getSessionOverview(await parseFixtureSession());
    expect(summary.format).toBe('claude-code');
    expect(summary.mainApiCalls).toBe(8);
    expect(summary.toolCalls).toMatchObject({ Read: 1, Task: 1, Bash: 1, Grep: 1, Glob: 1 });
    expect(summary.compactions.map((c) => `${c.kind}:${c.trigger}`)).toEqual([
      'compact:manual',
      'microcompact:auto',
      'compact:auto',
    ]);
    expect(summary.unknownTypes).toEqual({ 'brand-new-record': 1 });
    expect(summary.notTranscript).toBeUndefined();
    expect(summary.meta.cwd).toBe('/home/dev/project');
    expect(summary.clearedToolResults).toBe(1);
  });

  it('says when the input is not a transcript', async () => {
    const session = await parseSession([createMemorySource('data.json', '{"name":"x","values":[1,2,3]}\n')]);
    const summary = getSessionOverview(session);
    expect(summary.notTranscript?.code).toBe('not-a-transcript');
    expect(summary.notTranscript?.message).toContain('not a transcript');
  });
});
