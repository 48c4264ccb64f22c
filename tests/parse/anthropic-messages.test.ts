import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';
import { detectDialectFromName, detectDialectFromRecord } from '../../src/engine/parse/detect';
import {
  describeHistoryChange,
  fingerprintMessage,
} from '../../src/engine/parse/dialects/anthropic-messages/history-diff';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { getCallContext, getUsageCoverage } from '../../src/engine/query/usage-coverage';
import type { Session } from '../../src/engine/types';
import { getClaudeCodeSessionKnobs } from '../../src/engine/strategies/claude-code/session-knobs';
import { getDefaultStrategyId } from '../../src/engine/strategies/descriptors';
import { getSessionInfo } from '../../src/engine/strategies/types';
import { prepareReplay } from '../../src/engine/replay/prepare';
import {
  BROKEN_LOG,
  buildApiFixtures,
  CLAUDE_CODE_TRACE_LOG,
  ONE_REQUEST,
  REQUEST_LIST,
  TRACE_LOG,
} from '../fixtures/make-api-fixtures';
import { cpuMs } from '../helpers/cpu-time';

// Raw Anthropic Messages requests (src/engine/parse/dialects/anthropic-messages.ts) on fixtures
// written from the documented shapes (tests/fixtures/make-api-fixtures.ts).

const FIXTURES = resolve(__dirname, '../fixtures');
const text = (name: string): string => readFileSync(join(FIXTURES, name), 'utf8');
const baseName = (name: string): string => name.split('/').pop()!;

async function load(name: string, as = baseName(name), body = text(name)): Promise<Session> {
  return parseSession([createMemorySource(as, new TextEncoder().encode(body))]);
}

describe('raw Anthropic Messages fixtures', () => {
  it('equal a fresh build (regenerate with tests/fixtures/make-api-fixtures.ts)', () => {
    for (const [name, fresh] of Object.entries(buildApiFixtures())) expect(text(name), name).toBe(fresh);
  });
});

describe('detection', () => {
  it('by name: claude-trace logs and our *.anthropic.json(l) convention', () => {
    expect(detectDialectFromName('/p/.claude-trace/log-2026-03-09-10-00-00.jsonl')?.id).toBe(
      'anthropic-messages',
    );
    expect(detectDialectFromName('run.anthropic.jsonl')?.id).toBe('anthropic-messages');
    expect(detectDialectFromName('run.anthropic.json')?.id).toBe('anthropic-messages-json');
    expect(detectDialectFromName('log.jsonl')).toBeUndefined();
  });

  it('by structure: a request, a response, a pair, an array of them', () => {
    const request = { model: 'm', max_tokens: 10, messages: [] };
    const response = { type: 'message', role: 'assistant', content: [], usage: {} };
    expect(detectDialectFromRecord(request)?.id).toBe('anthropic-messages');
    expect(detectDialectFromRecord(response)?.id).toBe('anthropic-messages');
    expect(detectDialectFromRecord({ request: { body: request }, response: null, logged_at: 'x' })?.id).toBe(
      'anthropic-messages',
    );
    expect(detectDialectFromRecord([request, response])?.id).toBe('anthropic-messages-json');
  });

  it("does not take other dialects' records", () => {
    // A Claude Code assistant line holds a response-shaped `message`; Cline's history is an array
    // of `{role, content}`; neither is a request list.
    const claude = {
      type: 'assistant',
      uuid: 'u',
      message: { type: 'message', role: 'assistant', content: [] },
    };
    expect(detectDialectFromRecord(claude)?.id).toBe('claude-code');
    expect(detectDialectFromRecord([{ role: 'user', content: 'hi' }])?.id).toBe('cline');
    expect(detectDialectFromRecord({ messages: 'not a list', model: 'm' })).toBeUndefined();
  });

  it('reads each fixture the same under its name and renamed', async () => {
    for (const name of [TRACE_LOG, REQUEST_LIST, ONE_REQUEST, BROKEN_LOG]) {
      const own = await load(name);
      const renamed = await load(name, 'unknown');
      expect(renamed.entries.length, name).toBe(own.entries.length);
      expect(
        renamed.apiCalls.map((c) => c.contextTokens),
        name,
      ).toEqual(own.apiCalls.map((c) => c.contextTokens));
    }
  });
});

describe('a claude-trace log', () => {
  it('is one call per request, side conversations apart, usage from each response', async () => {
    const s = await load(TRACE_LOG);
    expect(s.format).toBe('anthropic-messages');
    // 11 requests; the quota probe (`max_tokens: 1`) and the summary call (its own system prompt,
    // no tools) are side calls: sidechains, not main-thread calls (issue 18 item 4).
    expect(s.apiCalls).toHaveLength(9);
    expect(s.sidechains).toHaveLength(2);
    expect(s.sidechains.map((c) => c.apiCalls)).toEqual([1, 1]);
    // The streamed response (SSE in body_raw): usage from message_start + message_delta.
    const streamed = s.apiCalls.find((c) => c.messageId === 'msg_03')!;
    expect(streamed.contextTokens).toBe(6190);
    expect(streamed.usage.outputTokens).toBe(60);
  });

  it('names context editing, the compaction and the truncation', async () => {
    const s = await load(TRACE_LOG);
    expect(s.compactions.map((c) => [c.kind, c.trigger, c.preTokens, c.postTokens])).toEqual([
      // Server-side clearing: before it, the call's context plus what was cleared.
      ['microcompact', 'clear_tool_uses_20250919', 2060 + 2800, 2060],
      ['compact', 'client', 2100, 930],
      ['truncate', 'client', 930, 720],
    ]);
    const compact = s.compactions[1]!;
    expect(s.entries[compact.summaryEntryIndex!]?.isCompactSummary).toBe(true);
    // The truncation kept the summary and the read: the prompt between them was dropped.
    expect(s.compactions[2]?.deletedRange).toEqual([1, 1]);
  });

  it('estimates the context of requests without a response, from their messages', async () => {
    const s = await load(TRACE_LOG);
    const failed = s.apiCalls.find((c) => c.requestId === 'request-9')!;
    expect(s.entries[failed.firstEntryIndex]?.isApiError).toBe(true);
    const context = getCallContext(s, failed.index);
    expect(context.estimated).toBe(true);
    // Its messages since the compaction only (summary, prompt, read, result: ~90 tokens by
    // chars/4); counted from the start, the 3,065-char shell output alone would add ~1,000.
    // The base (system prompt and tools) is measured on the main thread's first call (3,212 for
    // ~12 tokens of messages), no longer on the quota probe.
    const messages = context.tokens - getUsageCoverage(s).estimateBaseTokens;
    expect(messages).toBeGreaterThan(50);
    expect(messages).toBeLessThan(500);
    expect(getUsageCoverage(s).zeroUsageCalls).toBe(2);
  });
});

describe('claude-trace extras', () => {
  it('a count_tokens request is kept as a row, not a call', async () => {
    const pair = {
      request: {
        timestamp: 1_773_050_400,
        method: 'POST',
        url: 'https://api.anthropic.com/v1/messages/count_tokens?beta=true',
        headers: {},
        body: { model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'hi' }] },
      },
      response: { timestamp: 1_773_050_401, status_code: 200, headers: {}, body: { input_tokens: 1234 } },
      logged_at: '2026-03-09T10:00:01.000Z',
    };
    const s = await load('x', 'log-2026-03-09-10-00-00.jsonl', `${JSON.stringify(pair)}\n`);
    expect(s.apiCalls).toHaveLength(0);
    expect(s.entries.map((e) => [e.kind, e.summaryText])).toEqual([
      ['meta', 'count_tokens: 1234 input tokens'],
    ]);
  });
});

describe('conversations', () => {
  it('a system prompt that changes on every request does not split the conversation', async () => {
    const tools = [{ name: 'bash', input_schema: { type: 'object' } }];
    const m1 = { role: 'user', content: 'list files' };
    const m2 = { role: 'assistant', content: [{ type: 'text', text: 'ok' }] };
    const m3 = { role: 'user', content: 'again' };
    const req = (n: number, messages: unknown[]) => ({
      model: 'm',
      max_tokens: 10,
      system: [
        { type: 'text', text: `x-request-header: ${n}` },
        { type: 'text', text: 'You are an agent.' },
      ],
      tools,
      messages,
    });
    const body = [req(1, [m1]), req(2, [m1, m2, m3])].map((r) => JSON.stringify(r)).join('\n');
    const s = await load('x', 'unknown', `${body}\n`);
    expect(s.apiCalls).toHaveLength(2);
    expect(s.sidechains).toHaveLength(0);
    // The second request's new messages only: one user prompt each, no history event.
    expect(s.entries.filter((e) => e.kind === 'user')).toHaveLength(2);
    expect(s.compactions).toEqual([]);
  });
});

describe('other layouts', () => {
  it('a JSON array of requests and responses: each response completes the request before it', async () => {
    const s = await load(REQUEST_LIST);
    expect(s.format).toBe('anthropic-messages-json');
    expect(s.apiCalls.map((c) => c.contextTokens)).toEqual([3212, 3290, 6250, 1260]);
    // The big shell output cleared in place before the fourth request.
    expect(s.compactions.map((c) => c.kind)).toEqual(['compact']);
    expect(s.entries[s.compactions[0]!.entryIndex]?.summaryText).toMatch(/1 message edited in place/);
  });

  it('one pasted request: one estimated call, whatever its name', async () => {
    for (const as of ['request.json', 'pasted.anthropic.json', 'unknown']) {
      const s = await load(ONE_REQUEST, as);
      expect(s.apiCalls, as).toHaveLength(1);
      expect(
        s.entries.filter((e) => e.kind === 'user' || e.kind === 'assistant'),
        as,
      ).toHaveLength(7);
      expect(getCallContext(s, 0).estimated, as).toBe(true);
      expect(s.issues, as).toEqual([]);
    }
  });

  it('a single request that is not JSON names the line', async () => {
    const body = '{\n  "model": "m"\n  "messages": []\n}\n';
    const s = await load('x', 'pasted.anthropic.json', body);
    expect(s.issues[0]).toMatchObject({ code: 'not-json', line: 3 });
    expect(s.issues[0]?.message).toMatch(/^pasted\.anthropic\.json is not JSON at line 3: /);
  });
});

describe('bad input', () => {
  it('names each bad line and reads the rest', async () => {
    const s = await load(BROKEN_LOG);
    expect(s.issues.map((i) => [i.line, i.code])).toEqual([
      [2, 'not-json'],
      [3, 'wrong-shape'],
      [4, 'unknown-record'],
      [5, 'concatenated-records'],
      [6, 'truncated-line'],
    ]);
    expect(s.issues[1]?.path).toBe('messages[0].content');
    expect(s.unknownTypes).toEqual({ ping: 1 });
    expect(s.apiCalls).toHaveLength(4);
  });

  it('compares histories in linear time', () => {
    const n = 50_000;
    const held = Array.from({ length: n }, (_, i) => fingerprintMessage({ role: 'user', content: `m${i}` }));
    const next = held.filter((_, i) => i % 2 === 0);
    // CPU time, not wall time (helpers/cpu-time.ts); 500 ms is far above the ~10 ms it takes.
    let change: ReturnType<typeof describeHistoryChange> | undefined;
    expect(cpuMs(() => (change = describeHistoryChange(held, next)), 1)).toBeLessThan(500);
    expect(change).toMatchObject({ kind: 'truncate', dropped: n / 2, replaced: 0 });
  });

  it('a moved cache_control marker is not a change of history', () => {
    const plain = { role: 'user', content: [{ type: 'text', text: 'x' }] };
    const marked = {
      role: 'user',
      content: [{ type: 'text', text: 'x', cache_control: { type: 'ephemeral' } }],
    };
    expect(fingerprintMessage(marked)).toBe(fingerprintMessage(plain));
    expect(fingerprintMessage({ role: 'user', content: 'x' })).toBe(fingerprintMessage(plain));
  });
});

describe('compactlab inspect', () => {
  it('reports the format, the calls and the events', async () => {
    for (const [name, format, calls, compactions] of [
      [TRACE_LOG, 'anthropic-messages', 9, 3],
      [REQUEST_LIST, 'anthropic-messages-json', 4, 1],
      [ONE_REQUEST, 'anthropic-messages', 1, 0],
    ] as const) {
      const out: string[] = [];
      expect(await main(['inspect', join(FIXTURES, name), '--json'], (t) => out.push(t))).toBe(0);
      const report = JSON.parse(out.join('\n'));
      expect([report.format, report.apiCalls.length, report.compactions.length], name).toEqual([
        format,
        calls,
        compactions,
      ]);
    }
  });
});

// Issue 18 item 4: a real claude-trace log of one Claude Code session (16 main-thread calls, one
// /compact) read as 43 compactions: the quota probe and each prompt's topic detection were taken
// into the main thread, and each side request that did not extend the one before became a
// `truncate` or `compact`. The fixture follows Claude Code's request shapes (make-api-fixtures.ts,
// claudeCodeTraceLog): main at the time read it as 3 compactions (two from topic detection), 10
// main-thread calls (the quota probe among them), agent "Anthropic Messages API", strategy
// api-clear-tool-uses.
describe('a claude-trace log of Claude Code', () => {
  it('keeps the quota probe, topic detection and the summary request apart from the main thread', async () => {
    const s = await load(CLAUDE_CODE_TRACE_LOG);
    // 14 requests: 1 quota probe, 3 topic detections, 1 summary request, 9 main-thread calls.
    expect(s.apiCalls).toHaveLength(9);
    expect(s.apiCalls.every((c) => c.model === 'claude-sonnet-4-20250514')).toBe(true);
    expect(s.sidechains.reduce((n, c) => n + c.apiCalls, 0)).toBe(5);
    expect(
      s.entries.filter(
        (e) =>
          e.kind === 'user' &&
          !e.isSidechain &&
          !e.isMeta &&
          !e.isCompactSummary &&
          e.blocks[0]?.kind === 'text',
      ),
    ).toHaveLength(2);
  });

  it('reads the /compact as one manual compaction, and nothing else as one', async () => {
    const s = await load(CLAUDE_CODE_TRACE_LOG);
    expect(s.compactions.map((c) => [c.kind, c.trigger, c.preTokens, c.postTokens])).toEqual([
      ['compact', 'manual', 19_184, 14_864],
    ]);
    const event = s.entries[s.compactions[0]!.entryIndex]!;
    expect(event.summaryText).toContain(
      "after Claude Code's summary request (request 11): manual, between turns at 10% of the window, far under auto-compact: a /compact",
    );
    expect(s.entries[s.compactions[0]!.summaryEntryIndex!]?.isCompactSummary).toBe(true);
  });

  it('is Claude Code 1.0.62: its strategy and its profile', async () => {
    const s = await load(CLAUDE_CODE_TRACE_LOG);
    expect(s.meta).toMatchObject({ agent: 'Claude Code', versions: ['1.0.62'] });
    expect(s.format).toBe('anthropic-messages');
    expect(getDefaultStrategyId(s.format, s.meta.agent)).toBe('claude-code');
    expect(getDefaultStrategyId(s.format)).toBe('api-clear-tool-uses');
    const { notes } = getClaudeCodeSessionKnobs(getSessionInfo(prepareReplay(s)));
    expect(notes).toContain('Threshold profile <1.0.71 (legacy) for Claude Code 1.0.62.');
  });

  it('names Claude Code from the body alone (a proxy log without headers)', async () => {
    const lines = text(CLAUDE_CODE_TRACE_LOG)
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.stringify(JSON.parse(l).request.body));
    const s = await load('x', 'run.anthropic.jsonl', `${lines.join('\n')}\n`);
    expect(s.meta.agent).toBe('Claude Code');
    expect(s.meta.versions).toEqual([]);
    expect(s.apiCalls).toHaveLength(9);
    // No responses: the main conversation's changes are still only the one after the summary request.
    expect(s.compactions.map((c) => [c.kind, c.trigger])).toEqual([['compact', 'auto']]);
  });
});
