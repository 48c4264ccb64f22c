import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import type { Session } from '../../src/engine/types';

// A small hand-written Claude Code session (main file + one subagent file) covering what the query
// functions care about: text, thinking, tool calls/results, a Task-spawned subagent, an image,
// a manual and an auto compaction, a microcompact that clears a result, metadata and an unknown type.

const SESSION_ID = '11111111-2222-3333-4444-555555555555';
let clock = Date.parse('2026-01-10T10:00:00.000Z');

function envelope(uuid: string, parentUuid: string | null, extra: Record<string, unknown> = {}) {
  clock += 1_000;
  return {
    parentUuid,
    isSidechain: false,
    userType: 'external',
    cwd: '/home/dev/project',
    sessionId: SESSION_ID,
    version: '2.1.12',
    gitBranch: 'main',
    uuid,
    timestamp: new Date(clock).toISOString(),
    ...extra,
  };
}

function usage(context: number, output = 50) {
  return {
    input_tokens: 10,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: context - 10,
    output_tokens: output,
  };
}

function assistant(
  uuid: string,
  parent: string,
  id: string,
  context: number,
  content: unknown[],
  extra = {},
) {
  return {
    ...envelope(uuid, parent, extra),
    type: 'assistant',
    requestId: `req_${id}`,
    message: {
      id: `msg_${id}`,
      role: 'assistant',
      model: 'claude-sonnet-4-6',
      content,
      usage: usage(context),
    },
  };
}

function user(uuid: string, parent: string | null, content: unknown, extra: Record<string, unknown> = {}) {
  return { ...envelope(uuid, parent, extra), type: 'user', message: { role: 'user', content } };
}

function toolResult(
  uuid: string,
  parent: string,
  toolUseId: string,
  text: string,
  extra: Record<string, unknown> = {},
) {
  return user(uuid, parent, [{ type: 'tool_result', tool_use_id: toolUseId, content: text }], extra);
}

export const SUMMARY_TEXT =
  'This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\nSummary:\n1. Primary Request and Intent: fix the FLAKY test in parser.ts.\n' +
  'x'.repeat(5_000);

export function buildMainLines(): string[] {
  clock = Date.parse('2026-01-10T10:00:00.000Z');
  const records: unknown[] = [
    { type: 'summary', summary: 'Fixing flaky tests', leafUuid: 'u9' },
    user('u1', null, 'Please fix the Flaky test in src/parser.ts'),
    assistant('a1', 'u1', '1', 20_000, [
      { type: 'thinking', thinking: 'Let me look at the parser first.', signature: 's' },
    ]),
    assistant('a2', 'a1', '1', 20_000, [
      {
        type: 'tool_use',
        id: 'toolu_read1',
        name: 'Read',
        input: { file_path: '/home/dev/project/src/parser.ts' },
      },
    ]),
    toolResult('u2', 'a2', 'toolu_read1', 'export function parse() { return 42; }'),
    assistant('a3', 'u2', '2', 26_000, [
      {
        type: 'tool_use',
        id: 'toolu_task1',
        name: 'Task',
        input: { description: 'search', prompt: 'Find the flaky test' },
      },
    ]),
    toolResult('u3', 'a3', 'toolu_task1', 'The flaky test is parser.test.ts', {
      toolUseResult: { status: 'completed', agentId: 'abc1234', content: [] },
    }),
    assistant('a4', 'u3', '3', 30_000, [
      { type: 'tool_use', id: 'toolu_bash1', name: 'Bash', input: { command: 'npm test -- --grep PARSER' } },
    ]),
    toolResult('u4', 'a4', 'toolu_bash1', 'FAIL parser.test.ts\n'.repeat(50)),
    user('u5', 'u4', [
      { type: 'text', text: 'Here is a screenshot' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo='.repeat(10) } },
    ]),
    assistant('a5', 'u5', '4', 170_000, [{ type: 'text', text: 'I see the failure in the screenshot.' }]),
    {
      ...envelope('b1', null, { logicalParentUuid: 'a5' }),
      type: 'system',
      subtype: 'compact_boundary',
      content: 'Conversation compacted',
      level: 'info',
      isMeta: false,
      compactMetadata: { trigger: 'manual', preTokens: 170_050 },
    },
    user('s1', 'b1', SUMMARY_TEXT, { isCompactSummary: true, isVisibleInTranscriptOnly: true }),
    user('c1', 's1', '<command-name>/compact</command-name>', { isMeta: true }),
    assistant('a6', 'c1', '5', 40_000, [
      {
        type: 'tool_use',
        id: 'toolu_grep1',
        name: 'Grep',
        input: { pattern: 'flaky', path: '/home/dev/project/tests' },
      },
    ]),
    toolResult('u6', 'a6', 'toolu_grep1', 'tests/parser.test.ts:12: it.skip("flaky")'),
    assistant('a7', 'u6', '6', 45_000, [{ type: 'text', text: 'Found it.' }]),
    {
      ...envelope('m1', 'a7'),
      type: 'system',
      subtype: 'microcompact_boundary',
      content: 'Context microcompacted',
      level: 'info',
      isMeta: false,
      microcompactMetadata: {
        trigger: 'auto',
        preTokens: 45_000,
        tokensSaved: 3_000,
        compactedToolIds: ['toolu_bash1'],
        clearedAttachmentUUIDs: [],
      },
    },
    assistant('a8', 'm1', '7', 42_000, [{ type: 'text', text: 'Continuing after microcompact.' }]),
    { ...envelope('x1', 'a8'), type: 'brand-new-record', payload: 1 },
    {
      ...envelope('b2', null, { logicalParentUuid: 'a8' }),
      type: 'system',
      subtype: 'compact_boundary',
      content: 'Conversation compacted',
      level: 'info',
      isMeta: false,
      compactMetadata: { trigger: 'auto', preTokens: 167_000 },
    },
    user('s2', 'b2', 'This session is being continued… Summary: second summary.', {
      isCompactSummary: true,
      isVisibleInTranscriptOnly: true,
    }),
    assistant('a9', 's2', '8', 25_000, [{ type: 'text', text: 'Back to work.' }]),
  ];
  return records.map((r) => JSON.stringify(r));
}

export function buildSubagentLines(): string[] {
  const sub = { isSidechain: true, agentId: 'abc1234' };
  return [
    user('sa1', null, 'Find the flaky test', sub),
    assistant('sa2', 'sa1', 'sub1', 9_000, [{ type: 'text', text: 'Searching the SUBAGENT way.' }], sub),
    assistant(
      'sa3',
      'sa2',
      'sub2',
      9_500,
      [{ type: 'tool_use', id: 'toolu_subglob', name: 'Glob', input: { pattern: '**/*.test.ts' } }],
      sub,
    ),
    toolResult('sa4', 'sa3', 'toolu_subglob', 'tests/parser.test.ts', sub),
  ].map((r) => JSON.stringify(r));
}

export const MAIN_NAME = `${SESSION_ID}.jsonl`;
export const SUBAGENT_NAME = `${SESSION_ID}/subagents/agent-abc1234.jsonl`;

export async function parseFixtureSession(withSubagent = true): Promise<Session> {
  const sources = [createMemorySource(MAIN_NAME, `${buildMainLines().join('\n')}\n`)];
  if (withSubagent) sources.push(createMemorySource(SUBAGENT_NAME, `${buildSubagentLines().join('\n')}\n`));
  return parseSession(sources);
}

/** Entry index of the record with this uuid. */
export function entryByUuid(session: Session, uuid: string): number {
  const index = session.entries.findIndex((e) => e.uuid === uuid);
  if (index < 0) throw new Error(`no entry ${uuid}`);
  return index;
}
