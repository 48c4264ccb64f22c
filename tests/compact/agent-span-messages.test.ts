import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeFileSource } from '../../src/cli/node-source';
import { buildCompactionRequest } from '../../src/engine/compact/build-request';
import { estimateApiMessagesTokens } from '../../src/engine/compact/normalize-messages';
import { isMainThreadEntry } from '../../src/engine/parse/main-thread';
import type { ApiBlock, ApiMessage } from '../../src/engine/compact/types';
import { getDialect } from '../../src/engine/parse/dialects/registry';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { computeSpanDigest, stripInlineReasoning } from '../../src/engine/summarize/digest';
import {
  corpusFilesOf,
  corpusOrSkip,
  foreignFiles,
  REAL_LOGS,
  restoredRealLogFiles,
} from '../helpers/corpus';
import { cpuMs } from '../helpers/cpu-time';
import { runCli } from '../helpers/run-cli';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

// The summary request of another agent's log (compact/span-messages.ts with each dialect's
// `createMessageReader`). It was empty: the request read every record as Claude Code's, so a Codex,
// Gemini CLI, pi or Cline span sent 0 messages (1 for a Gemini chat) and the summarizer, the
// retention score and the erosion chain saw nothing. Held here on the corpus's real logs: whole
// texts, every call paired with its result as the API requires, roles alternating.

/** Every string under a JSON value. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) strings(v, out);
  return out;
}

const blocksOf = (m: ApiMessage): ApiBlock[] => (typeof m.content === 'string' ? [] : m.content);

/** Calls and results pair as the Messages API requires; roles alternate. */
function expectWellFormed(messages: ApiMessage[]): void {
  for (const [i, m] of messages.entries()) {
    if (i > 0) expect(m.role, `message ${i} repeats the role before it`).not.toBe(messages[i - 1]!.role);
    if (m.role !== 'user') continue;
    const results = blocksOf(m).flatMap((b) => (b.type === 'tool_result' ? [String(b.tool_use_id)] : []));
    const calls =
      i > 0 ? blocksOf(messages[i - 1]!).flatMap((b) => (b.type === 'tool_use' ? [String(b.id)] : [])) : [];
    for (const id of results)
      expect(calls, `result ${id} answers a call of the message before`).toContain(id);
    // Tool results come first in their message.
    const firstOther = blocksOf(m).findIndex((b) => b.type !== 'tool_result');
    if (firstOther >= 0)
      expect(
        blocksOf(m)
          .slice(firstOther)
          .some((b) => b.type === 'tool_result'),
      ).toBe(false);
  }
}

corpusOrSkip('Summary requests of other agents’ real logs');
const files = [
  // Every real log of the other agents (Gemini CLI's prompt log aside: no conversation), Cline's UI
  // logs among them.
  ...foreignFiles().filter((f) => /\.(jsonl|json)$/.test(f) && !/logs\.json$/.test(f)),
  ...corpusFilesOf('cline-ui'),
  ...corpusFilesOf('codex-cli'),
  ...corpusFilesOf('cline'),
  // A Cline task opened as its folder: the UI log is the main file.
  join(__dirname, '../fixtures/cline-task/ui_messages.json'),
  // Codex rollouts restored from public repositories (.real-logs/), the early unwrapped format among them.
  ...restoredRealLogFiles().filter((f) => /rollout-.*\.jsonl$/.test(f)),
  // Raw Messages API traffic: the fixtures (a claude-trace log of Claude Code among them).
  join(__dirname, '../fixtures/api/log-2026-03-09-10-00-00.jsonl'),
  join(__dirname, '../fixtures/api/session.anthropic.json'),
  join(__dirname, '../fixtures/api/claude-code/log-2025-08-04-14-20-00.jsonl'),
];

describe.skipIf(files.length === 0)('summary requests of other agents’ real logs', () => {
  it.each(files.map((f) => [basename(f), f]))('%s', async (_name, path) => {
    const source = createNodeFileSource(path);
    const session = await parseSession([source]);
    expect(
      getDialect(session.format)?.createMessageReader,
      `${session.format} has a message reader`,
    ).toBeDefined();
    const upto = session.entries.length - 1;
    // The span a compaction at the end would summarize: from the last boundary, as the page asks.
    const request = await buildCompactionRequest(session, [source], {
      uptoEntryIndex: upto,
      variant: 'full',
    });
    const inSpan = session.entries.slice(request.fromEntryIndex, upto + 1);
    const main = inSpan.filter((e) => isMainThreadEntry(session, e));
    // The person's messages and the model's, when the span holds them.
    for (const role of ['user', 'assistant'] as const)
      if (main.some((e) => e.role === role && e.blocks.some((b) => !(b.kind === 'thinking' && b.hidden))))
        expect(
          request.messages.some((m) => m.role === role),
          `a ${role} message`,
        ).toBe(true);
    expectWellFormed(request.messages);
    // Whole, not the 2,000-character previews the session keeps: every longer text of the span
    // is sent at its full length at least (a Cline result joined to its header is longer).
    const sent = strings(request.messages).map((t) => t.length);
    const longest = Math.max(0, ...sent);
    // (of the entries it sends: a truncation's range is left out, below)
    const sentEntries = new Set(request.entryIndices);
    for (const e of main.filter((x) => sentEntries.has(x.index)))
      for (const b of e.blocks)
        if ((b.kind === 'text' || b.kind === 'tool-result') && b.chars > 2_000 && !e.isMeta)
          expect(
            longest >= b.chars && sent.some((n) => n >= b.chars),
            `entry ${e.index}'s ${b.chars} chars are sent whole`,
          ).toBe(true);
  });
});

describe('a Cline history whose results are user text', () => {
  it('pairs each "[tool] Result:" text with the call before it, in order; other text stays', async () => {
    const history = [
      { role: 'user', content: [{ type: 'text', text: '<task>List the files</task>' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Looking.' },
          { type: 'tool_use', id: 't1', name: 'list_files', input: { path: '.' } },
          { type: 'tool_use', id: 't2', name: 'read_file', input: { path: 'a.ts' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: "[list_files for '.'] Result:" },
          { type: 'text', text: 'a.ts\nb.ts' },
          { type: 'text', text: "[read_file for 'a.ts'] Result:\nexport {}" },
          { type: 'text', text: '<environment_details>\n# Current Time\n</environment_details>' },
        ],
      },
    ];
    const source = createMemorySource('api_conversation_history.json', JSON.stringify(history));
    const session = await parseSession([source]);
    const request = await buildCompactionRequest(session, [source], {
      uptoEntryIndex: session.entries.length - 1,
      variant: 'full',
    });
    expect(request.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(request.messages[2]!.content).toEqual([
      { type: 'tool_result', tool_use_id: 't1', content: "[list_files for '.'] Result:\na.ts\nb.ts" },
      { type: 'tool_result', tool_use_id: 't2', content: "[read_file for 'a.ts'] Result:\nexport {}" },
      { type: 'text', text: '<environment_details>\n# Current Time\n</environment_details>' },
    ]);
  });
});

// OpenCode: a part is a record, its message's role is the entry's; a tool part is its call and its
// result. Through the CLI, as a person would ask: the fixture storage, the fixture database (made
// from a real one) and, when restored, the real database of .real-logs/.
const REAL_DB = join(REAL_LOGS, 'richardaiand__aiand-portfolio-web/.local/share/opencode/opencode.db');
const openCodeCases: [string, string][] = [
  ['fixture storage', join(__dirname, '../fixtures/opencode/storage')],
  ['fixture database', join(__dirname, '../fixtures/opencode/db/opencode.db')],
  ...(existsSync(REAL_DB)
    ? [['real database', `${REAL_DB}#ses_1279fce82ffeZOJhNwml1w1Fu4`] as [string, string]]
    : []),
];
describe('summary requests of OpenCode sessions', () => {
  it.each(openCodeCases)('%s', async (_name, path) => {
    const run = await runCli(['summarize', path, '--at', '1', '--json']);
    expect(run.code).toBe(0);
    const { request } = JSON.parse(run.text) as { request: { messages: ApiMessage[] } };
    expect(request.messages.some((m) => m.role === 'user')).toBe(true);
    expect(request.messages.some((m) => m.role === 'assistant')).toBe(true);
    expect(request.messages.some((m) => blocksOf(m).some((b) => b.type === 'tool_use'))).toBe(true);
    expectWellFormed(request.messages);
  });
});

// What the built-in summary reads as the person's requests in a Codex span: not the context Codex
// injects (developer instructions, environment, AGENTS.md; they led its "First request") but the
// user messages the rollout marks as typed (`event_msg` `user_message`), counted from the raw lines.
const codexWithCompaction = corpusFilesOf('codex-cli').filter((f) =>
  readFileSync(f, 'utf8').includes('"compacted"'),
);
describe.skipIf(codexWithCompaction.length === 0)(
  'the requests a Codex span holds (built-in summary)',
  () => {
    it.each(codexWithCompaction.map((f) => [basename(f), f]))('%s', async (_name, path) => {
      const lines = readFileSync(path, 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l));
      const compactedAt = lines.findIndex((r) => r.type === 'compacted');
      const typed = lines
        .slice(0, compactedAt)
        .filter((r) => r.type === 'event_msg' && r.payload?.type === 'user_message')
        .map((r) => String(r.payload.message).trim());
      const source = createNodeFileSource(path);
      const session = await parseSession([source]);
      const request = await buildCompactionRequest(session, [source], {
        uptoEntryIndex: session.compactions[0]!.entryIndex - 1,
        variant: 'full',
      });
      const requests = computeSpanDigest(request.messages).userMessages.filter((m) => m.kind === 'request');
      expect(requests.length).toBeGreaterThan(0);
      expect(requests[0]!.text.trim()).toBe(typed[0]);
      for (const m of requests)
        expect(typed, 'every request is one the person typed').toContain(m.text.trim());
    });
  },
);

/** The summary request of a real log's whole span, as the built-in summary reads it. */
async function requestOfWholeLog(path: string) {
  const source = createNodeFileSource(path);
  const session = await parseSession([source]);
  return buildCompactionRequest(session, [source], {
    uptoEntryIndex: session.entries.length - 1,
    variant: 'full',
  });
}

// Cline: a request's tool results ("[read_file for 'x'] Result:") and the environment details it
// appends are Cline's, not the person's; the built-in summary quoted them as the person's requests
// (32 "requests" in a real history span, where the person wrote 3).
const clineLogs = [...corpusFilesOf('cline'), ...corpusFilesOf('cline-ui')];
describe.skipIf(clineLogs.length === 0)('the requests a Cline span holds (built-in summary)', () => {
  it.each(clineLogs.map((f) => [basename(f), f]))('%s', async (_name, path) => {
    const request = await requestOfWholeLog(path);
    const requests = computeSpanDigest(request.messages).userMessages.filter((m) => m.kind === 'request');
    expect(requests.length).toBeGreaterThan(0);
    for (const m of requests) {
      expect(m.text).not.toMatch(/^\[[\w-]+(?: for [\s\S]*?)?\] Result:/);
      expect(m.text).not.toContain('<environment_details>');
    }
  });
});

// Cline keeps in its history file what a truncation dropped, and sends the history without the
// truncation's range: a summary request at a call holds no more than that call sent. On the real
// history (nine truncations) the span's messages came to up to 17× the call's recorded context.
const clineHistories = corpusFilesOf('cline');
describe.skipIf(clineHistories.length === 0)(
  'a Cline history span leaves out what truncations dropped',
  () => {
    it.each(clineHistories.map((f) => [basename(f), f]))('%s: at every call', async (_name, path) => {
      const source = createNodeFileSource(path);
      const session = await parseSession([source]);
      expect(session.compactions.some((c) => c.kind === 'truncate' && c.deletedRange)).toBe(true);
      for (const call of session.apiCalls) {
        const request = await buildCompactionRequest(session, [source], {
          uptoEntryIndex: call.lastEntryIndex,
          variant: 'full',
        });
        // The system prompt and the tools are the rest of what the call sent.
        expect(estimateApiMessagesTokens(request.messages), `call ${call.index}`).toBeLessThanOrEqual(
          call.contextTokens,
        );
      }
    });
  },
);

// Models behind OpenAI-compatible servers write their reasoning into the answer's text as
// `<think>…</think>` (a real pi session on Qwen and DeepSeek): the built-in summary quoted it as
// the session's decisions ("Wait, the user said…"). The digest reads an answer without it.
const thinkingLogs = foreignFiles().filter(
  (f) => f.endsWith('.jsonl') && readFileSync(f, 'utf8').includes('<think>'),
);
describe.skipIf(thinkingLogs.length === 0)('answers with inline reasoning (built-in summary)', () => {
  it.each(thinkingLogs.map((f) => [basename(f), f]))('%s', async (_name, path) => {
    const request = await requestOfWholeLog(path);
    // The request sends the answers as written; the digest reads them without the reasoning.
    expect(request.messages.some((m) => strings(m.content).some((s) => s.includes('<think>')))).toBe(true);
    const digest = computeSpanDigest(request.messages);
    for (const { text } of digest.assistantTexts) {
      expect(text).not.toContain('<think>');
      expect(text).not.toContain('</think>');
    }
  });
});

describe('stripInlineReasoning', () => {
  it('keeps what is outside the reasoning, drops an unclosed one to the end', () => {
    expect(stripInlineReasoning('<think>\nhmm\n</think>\n\nDone.')).toBe('\n\nDone.');
    expect(stripInlineReasoning('a<think>x</think>b<think>y</think>c')).toBe('abc');
    expect(stripInlineReasoning('answer <think>cut off')).toBe('answer ');
    // Reasoning the template opened in the prompt: the answer starts inside it.
    expect(stripInlineReasoning('Okay, the user wants…\n</think>\n\nDone.')).toBe('\n\nDone.');
    expect(stripInlineReasoning('plain answer')).toBe('plain answer');
  });

  it('is linear: a megabyte of openings without a close, of closes, of pairs', () => {
    for (const [text, kept] of [
      ['x<think>'.repeat(131_072), 'x'],
      // Only a close before any opening ends reasoning; later stray closes are text.
      ['</think>x'.repeat(131_072), `${'x</think>'.repeat(131_071)}x`],
      ['<think>a</think>b'.repeat(65_536), 'b'.repeat(65_536)],
    ] as const) {
      let out = '';
      // CPU time (helpers/cpu-time.ts): a hang detector, far above the few ms it takes; a
      // quadratic scan of 1 MB would take minutes.
      expect(cpuMs(() => (out = stripInlineReasoning(text)), 1)).toBeLessThan(1_000);
      expect(out).toBe(kept);
    }
  });
});
