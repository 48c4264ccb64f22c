import { describe, expect, it } from 'vitest';
import { at } from '../../src/engine/assert';
import { computeInspectReport } from '../../src/engine/inspect/report';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';

// A subagent that compacts (Claude Code 2.1.81): its boundary is in its own log, and the summary
// call in an `agent-acompact-*` log beside it. The shape of a real session folder
// (adrianstanca1/vps-config): a subagent's compaction at 172,183 tokens, its next call at 15,299,
// its compaction call ending 0.3 s before the boundary (173,346 in, 5,272 out). Before, the
// subagent's compaction read "172,183 → —" with no cost: only main-thread boundaries were paired
// with compaction calls, and post tokens were read from the main thread's calls alone.

const SESSION = '5e5e5e5e-1111-4222-8333-444455556666';
const DIR = `${SESSION}/subagents`;
const time = (s: number) => new Date(Date.UTC(2026, 2, 21, 18, 0, s)).toISOString();
let n = 0;
const uuid = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;

function record(agentId: string | undefined, s: number, body: Record<string, unknown>): string {
  return JSON.stringify({
    parentUuid: null,
    isSidechain: agentId !== undefined,
    userType: 'external',
    cwd: '/root',
    sessionId: SESSION,
    version: '2.1.81',
    gitBranch: 'main',
    ...(agentId ? { agentId } : {}),
    uuid: uuid(),
    timestamp: time(s),
    ...body,
  });
}
const user = (agentId: string | undefined, s: number, content: string, extra = {}) =>
  record(agentId, s, { type: 'user', message: { role: 'user', content }, ...extra });
const answer = (agentId: string | undefined, s: number, id: string, context: number, output: number) =>
  record(agentId, s, {
    type: 'assistant',
    requestId: `req_${id}`,
    message: {
      model: 'claude-sonnet-4-6',
      id: `msg_${id}`,
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: 'Done.' }],
      stop_reason: 'end_turn',
      usage: {
        input_tokens: 1,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: context - 1,
        output_tokens: output,
      },
    },
  });

const SUB = 'a562625e12c50ac40';
const CALL = 'acompact-645cb129a2c883cb';
const files: [string, string][] = [
  [
    `${SESSION}.jsonl`,
    [user(undefined, 0, 'Fix the modules.'), answer(undefined, 1, 'main1', 20_000, 50)].join('\n'),
  ],
  [
    `${DIR}/agent-${SUB}.jsonl`,
    [
      user(SUB, 2, 'Fix batch B.'),
      answer(SUB, 3, 'sub1', 165_995, 400),
      record(SUB, 30, {
        type: 'system',
        subtype: 'compact_boundary',
        content: 'Conversation compacted',
        compactMetadata: { trigger: 'auto', preTokens: 172_183 },
      }),
      user(SUB, 31, 'This session is being continued from a previous conversation…', {
        isCompactSummary: true,
      }),
      answer(SUB, 32, 'sub2', 15_299, 200),
    ].join('\n'),
  ],
  [
    `${DIR}/agent-${CALL}.jsonl`,
    [
      user(CALL, 10, 'Your task is to create a detailed summary…'),
      answer(CALL, 29, 'call1', 173_346, 5_272),
    ].join('\n'),
  ],
];

describe('a compaction inside a subagent', () => {
  it('is paired with its compaction-call log and takes the next call of its own log as post tokens', async () => {
    const session = await parseSession(files.map(([name, text]) => createMemorySource(name, `${text}\n`)));
    expect(session.compactions).toHaveLength(1);
    const c = at(session.compactions, 0);
    expect(at(session.files, c.fileIndex).role).toBe('subagent');
    expect(c.preTokens).toBe(172_183);
    expect(c.postTokens).toBe(15_299);
    expect(at(session.files, c.callFileIndex!).role).toBe('compaction-call');
    const call = at(computeInspectReport(session).compactions, 0).compactionCall!;
    expect(call.usage.cacheReadInputTokens + call.usage.inputTokens).toBe(173_346);
    expect(call.usage.outputTokens).toBe(5_272);
    // The main thread's figures are untouched: its one call, no compaction on it.
    expect(session.apiCalls.map((a) => a.contextTokens)).toEqual([20_000]);
    expect(c.apiCallAfter).toBeUndefined();
  });
});
