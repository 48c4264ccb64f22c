import { at } from '../../src/engine/assert';
import { describe, expect, it } from 'vitest';
import { computeInspectReport } from '../../src/engine/inspect/report';
import { parseSession, readEntryRecord, readEntryText } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { generateSession } from '../../sample/generate-session';

const env = (extra: Record<string, unknown>) =>
  JSON.stringify({
    sessionId: 's1',
    cwd: '/p',
    version: '2.1.50',
    gitBranch: 'main',
    timestamp: '2026-02-01T10:00:00.000Z',
    ...extra,
  });

const user = (
  uuid: string,
  parentUuid: string | null,
  content: unknown,
  extra: Record<string, unknown> = {},
) =>
  env({ type: 'user', uuid, parentUuid, isSidechain: false, message: { role: 'user', content }, ...extra });

const assistant = (
  uuid: string,
  parentUuid: string,
  id: string,
  content: unknown[],
  usage: Record<string, number>,
) =>
  env({
    type: 'assistant',
    uuid,
    parentUuid,
    isSidechain: false,
    requestId: `req_${id}`,
    message: { id, role: 'assistant', model: 'claude-sonnet-4-6', content, usage },
  });

const usage = (input: number, cacheRead: number, output: number) => ({
  input_tokens: input,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: cacheRead,
  output_tokens: output,
});

async function parse(name: string, text: string, chunkBytes?: number) {
  const sources = [createMemorySource(name, text)];
  return { session: await parseSession(sources, { chunkBytes }), sources };
}

describe('parseSession (Claude Code)', () => {
  const lines = [
    user('u1', null, 'Please add a --json flag'),
    assistant(
      'a1',
      'u1',
      'msg_1',
      [{ type: 'thinking', thinking: 'plan', signature: 'x' }],
      usage(10, 1000, 3),
    ),
    assistant(
      'a2',
      'a1',
      'msg_1',
      [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/p/cli.ts' } }],
      usage(10, 1000, 90),
    ),
    user('u2', 'a2', [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'export const x = 1;' }]),
    assistant('a3', 'u2', 'msg_2', [{ type: 'text', text: 'Done.' }], usage(5, 1200, 20)),
    env({
      type: 'system',
      subtype: 'compact_boundary',
      uuid: 'b1',
      parentUuid: null,
      logicalParentUuid: 'a3',
      content: 'Conversation compacted',
      compactMetadata: { trigger: 'auto', preTokens: 1225 },
    }),
    user('s1', 'b1', 'This session is being continued from a previous conversation…', {
      isCompactSummary: true,
      isVisibleInTranscriptOnly: true,
    }),
    env({
      type: 'attachment',
      uuid: 'at1',
      parentUuid: 's1',
      attachment: { type: 'file', filename: '/p/cli.ts', content: 'x'.repeat(40) },
    }),
    user('u3', 'at1', 'next'),
    assistant('a4', 'u3', 'msg_3', [{ type: 'text', text: 'ok' }], usage(300, 0, 2)),
    JSON.stringify({ type: 'summary', summary: 'Adding a flag', leafUuid: 'a4' }),
    JSON.stringify({ type: 'brand-new-record', payload: 1 }),
  ];
  const text = `${lines.join('\n')}\n`;

  it('deduplicates streamed responses and takes the largest output count', async () => {
    const { session } = await parse('s.jsonl', text);
    expect(session.apiCalls.map((c) => [c.messageId, c.contextTokens, c.usage.outputTokens])).toEqual([
      ['msg_1', 1010, 90],
      ['msg_2', 1205, 20],
      ['msg_3', 300, 2],
    ]);
  });

  it('finds the compaction, its summary, what was re-attached and the tokens after', async () => {
    const { session } = await parse('s.jsonl', text);
    expect(session.compactions).toHaveLength(1);
    const c = at(session.compactions, 0);
    expect(c).toMatchObject({
      kind: 'compact',
      trigger: 'auto',
      preTokens: 1225,
      postTokens: 300,
      apiCallBefore: 1,
      apiCallAfter: 2,
      line: 6,
    });
    expect(at(session.entries, c.summaryEntryIndex!).line).toBe(7);
    expect(c.reattachedEntryIndices.map((i) => at(session.entries, i).line)).toEqual([8]);
  });

  it('keeps and counts unknown records, and says so once', async () => {
    const { session } = await parse('s.jsonl', text);
    expect(session.entries).toHaveLength(12);
    expect(session.unknownTypes).toEqual({ 'brand-new-record': 1 });
    expect(session.issues).toEqual([
      expect.objectContaining({ line: 12, code: 'unknown-record', severity: 'info' }),
    ]);
    expect(at(session.entries, 11).kind).toBe('unknown');
  });

  it('reports the same session whatever the chunk size', async () => {
    const whole = computeInspectReport((await parse('s.jsonl', text)).session);
    for (const chunk of [1, 7, 64]) {
      expect(computeInspectReport((await parse('s.jsonl', text, chunk)).session)).toEqual(whole);
    }
  });

  it('pairs tool calls with results and counts user turns and tools', async () => {
    const { session } = await parse('s.jsonl', text);
    expect(session.toolPairs).toEqual({ matched: 1, unmatchedUses: 0, unmatchedResults: 0 });
    expect(session.toolCalls).toEqual({ Read: 1 });
    expect(session.userTurns).toBe(2);
    expect(at(session.entries, 2).blocks[0]).toMatchObject({ kind: 'tool-use', filePath: '/p/cli.ts' });
  });

  it('re-reads the full raw line of any entry', async () => {
    const { session, sources } = await parse('s.jsonl', text);
    expect(await readEntryText(sources, session, 4)).toBe(lines[4]);
    expect(await readEntryRecord(sources, session, 0)).toMatchObject({ uuid: 'u1' });
  });

  it('applies microcompact clearing by tool id without rewriting earlier lines', async () => {
    const micro = env({
      type: 'system',
      subtype: 'microcompact_boundary',
      uuid: 'm1',
      parentUuid: 'a3',
      content: 'Context microcompacted',
      microcompactMetadata: {
        trigger: 'auto',
        preTokens: 1205,
        tokensSaved: 5,
        compactedToolIds: ['toolu_1'],
        clearedAttachmentUUIDs: [],
      },
    });
    const { session } = await parse('m.jsonl', `${lines.slice(0, 5).join('\n')}\n${micro}\n`);
    expect(session.compactions).toMatchObject([
      { kind: 'microcompact', tokensSaved: 5, clearedToolIds: ['toolu_1'] },
    ]);
    expect(session.cleared.get('toolu_1')).toEqual({ toolUseId: 'toolu_1', compactionIndex: 0 });
    // The tool result itself is still the full text in the log.
    expect(at(session.entries, 3).blocks[0]).toMatchObject({
      kind: 'tool-result',
      text: 'export const x = 1;',
    });
  });
});

describe('parseSession on bad input', () => {
  const good = user('u1', null, 'hello');
  const good2 = assistant('a1', 'u1', 'msg_1', [{ type: 'text', text: 'hi' }], usage(1, 2, 3));

  it('lists each bad line with its number, code and reason, and loads the rest', async () => {
    const text = [
      good,
      'this is not json',
      env({ type: 'user', uuid: 'u9', parentUuid: 'u1', message: { role: 'user', content: 42 } }),
      `${good2}${JSON.stringify({ type: 'last-prompt', lastPrompt: 'hello', leafUuid: 'a1' })}`,
      '{"type":"summary","summary":"cut off mid-str{"type":"last-prompt","lastPrompt":"x","leafUuid":"a1"}',
      '{"type":"user","uuid":"u10","mess',
    ].join('\n');
    const { session } = await parse('broken.jsonl', text);
    const issues = session.issues.map((i) => [i.line, i.code, i.severity, i.path]);
    expect(issues).toEqual([
      [2, 'not-json', 'error', undefined],
      [3, 'wrong-shape', 'error', 'message.content'],
      [4, 'concatenated-records', 'warning', undefined],
      [5, 'concatenated-records', 'error', undefined],
      [6, 'truncated-line', 'error', undefined],
    ]);
    expect(at(session.issues, 1).message).toBe(
      'At message.content: expected a string or an array of blocks, got a number',
    );
    expect(at(session.issues, 0).message).toMatch(/^Line 2 is not JSON: .* — starts "this is not json"$/);
    expect(session.entries.map((e) => e.type)).toEqual([
      'user',
      'user',
      'assistant',
      'last-prompt',
      'last-prompt',
    ]);
    expect(session.apiCalls).toHaveLength(1);
  });

  it('says plainly when a file is not a transcript', async () => {
    const prose = await parse('notes.txt', 'Dear diary,\nToday I compacted nothing.\n');
    expect(prose.session.entries).toHaveLength(0);
    expect(prose.session.issues).toEqual([
      expect.objectContaining({ code: 'not-a-transcript', severity: 'error', line: 0 }),
    ]);
    expect(at(prose.session.issues, 0).message).toMatch(
      /^notes\.txt is not a transcript: none of its first lines is JSON/,
    );

    const pkg = await parse('package.json', '{\n  "name": "x",\n  "version": "1.0.0"\n}\n');
    expect(at(pkg.session.issues, 0).message).toBe(
      'package.json is not a transcript: it is a JSON object (keys: name, version), not one record per line',
    );

    const jsonLines = await parse('data.jsonl', '{"a":1}\n{"b":2}\n');
    expect(at(jsonLines.session.issues, 0).message).toMatch(
      /lines are JSON, but none is a Claude Code, Codex CLI, Gemini CLI, pi or Anthropic Messages API record/,
    );
  });

  it('names other dialects instead of misreading them', async () => {
    // The Agent SDK's stream-json is Claude Code's, not misread as its session file (tests/parse/sdk-stream.test.ts).
    const stream = await parse('stream.jsonl', '{"type":"system","subtype":"init","session_id":"s-1"}\n');
    expect(stream.session.format).toBe('claude-sdk-stream');
    expect(stream.session.issues).toEqual([]);
    expect(stream.session.entries.map((e) => `${e.kind}/${e.subtype}`)).toEqual(['system/init']);
    // Cline's UI log is read as the task's calls and events (tests/parse/cline-ui.test.ts).
    const clineUi = await parse(
      'ui_messages.json',
      '[{"ts":1760000000000,"type":"say","say":"text","text":"hi"}]\n',
    );
    expect(clineUi.session.format).toBe('cline-ui');
    expect(clineUi.session.issues).toEqual([]);
    // A `text` before any request is the task Cline says first: the person's (ui-messages.ts).
    expect(clineUi.session.entries.map((e) => e.kind)).toEqual(['user']);
    // Cline's API history is a whole JSON document, read as records (tests/parse/cline.test.ts).
    const cline = await parse(
      'api_conversation_history.json',
      '[{"role":"user","content":[{"type":"text","text":"hi"}]}]\n',
    );
    expect(cline.session.format).toBe('cline');
    expect(cline.session.issues).toEqual([]);
    expect(cline.session.entries.map((e) => e.kind)).toEqual(['user']);
    // Codex CLI rollouts are parsed (tests/parse/codex-cli.test.ts), not refused.
    const codex = await parse(
      'rollout-2026-01-01T00-00-00-x.jsonl',
      '{"timestamp":"2026-01-01T00:00:00.000Z","type":"session_meta","payload":{"cli_version":"0.120.0"}}\n',
    );
    expect(codex.session.format).toBe('codex-cli');
    expect(codex.session.issues).toEqual([]);
    expect(codex.session.meta).toMatchObject({ agent: 'Codex CLI', versions: ['0.120.0'] });
    const empty = await parse('empty.jsonl', '');
    expect(empty.session.issues).toEqual([
      expect.objectContaining({ code: 'empty-file', severity: 'warning' }),
    ]);
  });

  it('warns at a numeric uuid, parentUuid or logicalParentUuid, naming the line, and loads the rest', async () => {
    const { files } = generateSession({ seed: 3, apiCalls: 7 });
    const lines = at(files, 0).text.split('\n');
    const withUuid = (n: number) => lines.findIndex((l, i) => i >= n && /"uuid":"/.test(l));
    const [u, p, l] = [withUuid(2), withUuid(5), withUuid(8)];
    lines[u] = at(lines, u).replace(/"uuid":"[^"]*"/, '"uuid":12345');
    lines[p] = at(lines, p).replace(/"parentUuid":"[^"]*"/, '"parentUuid":678');
    lines[l] = at(lines, l).replace('{', '{"logicalParentUuid":9,');
    const clean = await parse('s.jsonl', at(files, 0).text);
    const { session } = await parse('s.jsonl', lines.join('\n'));
    expect(session.issues.map((i) => [i.line, i.code, i.severity, i.message])).toEqual([
      [u + 1, 'wrong-shape', 'warning', 'At uuid: expected a string, got a number'],
      [p + 1, 'wrong-shape', 'warning', 'At parentUuid: expected a string or null, got a number'],
      [l + 1, 'wrong-shape', 'warning', 'At logicalParentUuid: expected a string or null, got a number'],
    ]);
    expect(session.entries).toHaveLength(clean.session.entries.length);
    expect(session.apiCalls).toHaveLength(clean.session.apiCalls.length);
    expect(session.apiCalls.length).toBe(7);
  });

  it('stops with an AbortError-like rejection when cancelled', async () => {
    const controller = new AbortController();
    const text = `${good}\n`.repeat(2000);
    const promise = parseSession([createMemorySource('big.jsonl', text)], {
      chunkBytes: 1024,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.bytesRead > 4096) controller.abort(new Error('cancelled'));
      },
    });
    await expect(promise).rejects.toThrow('cancelled');
  });
});

describe('subagent files', () => {
  it('groups a subagent file under the Task call whose result names its agent id', async () => {
    const main = [
      user('u1', null, 'research this'),
      assistant(
        'a1',
        'u1',
        'msg_1',
        [{ type: 'tool_use', id: 'toolu_t', name: 'Task', input: { prompt: 'go look' } }],
        usage(1, 100, 5),
      ),
      user('u2', 'a1', [{ type: 'tool_result', tool_use_id: 'toolu_t', content: 'found it' }], {
        toolUseResult: { agentId: 'abc1234', status: 'completed' },
      }),
    ].join('\n');
    const sub = [
      env({
        type: 'user',
        uuid: 'x1',
        parentUuid: null,
        isSidechain: true,
        agentId: 'abc1234',
        message: { role: 'user', content: 'go look' },
      }),
      env({
        type: 'assistant',
        uuid: 'x2',
        parentUuid: 'x1',
        isSidechain: true,
        agentId: 'abc1234',
        message: {
          id: 'msg_s',
          model: 'claude-haiku-4-5',
          role: 'assistant',
          content: [{ type: 'text', text: 'found it' }],
          usage: usage(3, 900, 4),
        },
      }),
    ].join('\n');
    const sources = [
      createMemorySource('s1/subagents/agent-abc1234.jsonl', sub),
      createMemorySource('s1.jsonl', main),
    ];
    const session = await parseSession(sources);
    expect(session.files.map((f) => f.role)).toEqual(['subagent', 'main']);
    expect(session.apiCalls).toHaveLength(1);
    expect(session.sidechains).toEqual([
      expect.objectContaining({
        agentId: 'abc1234',
        spawnedBy: 'toolu_t',
        apiCalls: 1,
        peakContextTokens: 903,
      }),
    ]);
    // Main file entries come first, whatever order the files were dropped in.
    expect(session.entries.slice(0, 3).every((e) => e.fileIndex === 1)).toBe(true);
    expect(session.entries.filter((e) => e.spawnedBy === 'toolu_t')).toHaveLength(2);
  });
});

describe('session memory', () => {
  const MEMORY = '# Session memory\n\n- Task: add --verbose to src/cli.ts\n- Done: parser tests\n';
  const transcript = [
    user('u1', null, 'hello'),
    assistant('a1', 'u1', 'm1', [{ type: 'text', text: 'hi' }], usage(10, 0, 5)),
  ].join('\n');

  it('keeps session-memory/summary.md as text, not as a transcript', async () => {
    const session = await parseSession([
      createMemorySource('s1/session-memory/summary.md', MEMORY),
      createMemorySource('s1.jsonl', `${transcript}\n`),
    ]);
    expect(session.sessionMemory).toEqual({
      name: 's1/session-memory/summary.md',
      text: MEMORY,
      chars: MEMORY.length,
    });
    expect(session.issues.filter((i) => i.severity === 'error')).toEqual([]);
    expect(session.files.map((f) => f.role)).toEqual(['session-memory', 'main']);
    expect(session.entries.every((e) => e.fileIndex === 1)).toBe(true);
    expect(session.apiCalls).toHaveLength(1);
  });

  it('takes any .md under session-memory next to a transcript, and the file alone', async () => {
    const withTranscript = await parseSession([
      createMemorySource('s1.jsonl', `${transcript}\n`),
      createMemorySource('proj/s1/session-memory/notes.md', MEMORY),
    ]);
    expect(withTranscript.sessionMemory?.name).toBe('proj/s1/session-memory/notes.md');
    const alone = await parseSession([createMemorySource('x/session-memory/summary.md', MEMORY)]);
    expect(alone.sessionMemory?.text).toBe(MEMORY);
    expect(alone.issues.some((i) => i.code === 'not-a-transcript')).toBe(false);
    // Any other Markdown file is still read as a (bad) transcript.
    const other = await parseSession([createMemorySource('notes.md', MEMORY)]);
    expect(other.sessionMemory).toBeUndefined();
    expect(other.issues.some((i) => i.code === 'not-a-transcript')).toBe(true);
  });
});

describe('compaction calls', () => {
  it('links a compaction call log to the boundary written right after it, with what it cost', async () => {
    const main = [
      user('u1', null, 'go'),
      assistant('a1', 'u1', 'msg_1', [{ type: 'text', text: 'working' }], usage(10, 170_000, 50)),
      env({
        type: 'system',
        subtype: 'compact_boundary',
        uuid: 'b1',
        parentUuid: null,
        timestamp: '2026-02-01T10:05:00.500Z',
        compactMetadata: { trigger: 'auto', preTokens: 170_060 },
      }),
    ].join('\n');
    const call = (output: number) =>
      env({
        type: 'assistant',
        uuid: `c${output}`,
        parentUuid: 'p',
        isSidechain: true,
        agentId: 'acompact-1234',
        timestamp: '2026-02-01T10:05:00.000Z',
        message: {
          id: 'msg_c',
          model: 'claude-sonnet-4-6',
          role: 'assistant',
          content: [{ type: 'text', text: '<summary>' }],
          usage: usage(3, 160_000, output),
        },
      });
    const session = await parseSession([
      createMemorySource('s1.jsonl', main),
      createMemorySource('s1/subagents/agent-acompact-1234.jsonl', [call(100), call(4_000)].join('\n')),
    ]);
    expect(at(session.files, 1).role).toBe('compaction-call');
    // Not part of the session's context: no API call of the main thread, no compaction of its own.
    expect(session.apiCalls).toHaveLength(1);
    expect(session.compactions).toHaveLength(1);
    expect(session.compactions[0]).toMatchObject({
      callFileIndex: 1,
      callUsage: {
        inputTokens: 3,
        cacheCreationInputTokens: 0,
        cacheReadInputTokens: 160_000,
        outputTokens: 4_000,
      },
    });
  });
});

describe('readEntryRecord on a recovered line', () => {
  it('returns each record of a concatenated line to its own entry', async () => {
    const a = JSON.stringify({ type: 'summary', summary: 'first', leafUuid: 'x' });
    const b = JSON.stringify({ type: 'last-prompt', lastPrompt: 'second', leafUuid: 'x' });
    const text = `${user('u1', null, 'hello')}\n${a}${b}\n`;
    const sources = [createMemorySource('c.jsonl', text)];
    const session = await parseSession(sources);
    expect(session.entries.map((e) => e.line)).toEqual([1, 2, 2]);
    expect(await readEntryRecord(sources, session, 1)).toMatchObject({ summary: 'first' });
    expect(await readEntryRecord(sources, session, 2)).toMatchObject({ lastPrompt: 'second' });
  });
});
