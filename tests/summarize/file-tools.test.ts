import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { requirePreset } from '../../src/engine/strategies/prompt-presets';
import { getPresetSettings } from '../helpers/preset-settings';
import { renderBuiltinSummary } from '../../src/engine/summarize/builtin';
import { computeSpanDigest } from '../../src/engine/summarize/digest';
import { prepareSummary } from '../../src/engine/summarize/prepare';
import { corpusOrSkip, FOREIGN } from '../helpers/corpus';

// The files a span's tool calls read or changed, named by each agent's own input key. A real Gemini
// CLI session (brexp/infra, 2025-11-04) read five files with six `read_file` calls whose input is
// `absolute_path`: its built-in summary said "No files were read or changed" and no file was a
// fact to keep (the "paths" kept were IAM role names).

const GEMINI = join(
  FOREIGN,
  'brexp__infra/.gemini/tmp/95ab8478b5fc136a91eda9228bafb63a3c8fa4b561663162a9579f8add166c22/chats/session-2025-11-04T04-10-9be208fe.json',
);

describe.skipIf(!corpusOrSkip('file tools of a real Gemini CLI span'))('file tools in a span', () => {
  it('a real Gemini CLI span: every file read_file read is in the digest, the facts and the built-in summary', async () => {
    const raw = readFileSync(GEMINI, 'utf8');
    // The files its read_file calls name, read here without the engine.
    const read = new Set<string>();
    for (const message of JSON.parse(raw).messages as {
      toolCalls?: { name: string; args: { absolute_path?: string } }[];
    }[])
      for (const call of message.toolCalls ?? [])
        if (call.name === 'read_file' && call.args.absolute_path) read.add(call.args.absolute_path);
    expect(read.size).toBe(5);
    const session = await parseSession([createMemorySource(basename(GEMINI), Buffer.from(raw))]);
    const preset = requirePreset('gemini-cli');
    const prepared = await prepareSummary(
      session,
      [createMemorySource(basename(GEMINI), Buffer.from(raw))],
      { kind: 'api-call', apiCallIndex: session.apiCalls.length - 1 },
      getPresetSettings('gemini-cli'),
    );
    const digest = computeSpanDigest(prepared.request.messages);
    expect(new Set(digest.files.map((f) => f.path))).toEqual(read);
    const factPaths = prepared.facts.filter((f) => f.category === 'path').map((f) => f.text);
    for (const path of read) expect(factPaths).toContain(path);
    const summary = renderBuiltinSummary(prepared.request, {
      sections: preset.sections,
      output: preset.output,
    });
    expect(summary).not.toContain('No files were read or changed');
    for (const path of read) expect(summary).toContain(path);
  });
});

// A real Cline task opened from its UI log alone (haram-333/fineye): its summary request carries
// each call as the model's text, `[tool] {"tool":"readFile","path":…}` (Cline's API takes calls as
// text too), and the built-in summary said "Summarized: 49 messages, 3 user messages, 0 tool
// calls" and "No files were read or changed" over 15 calls, 13 of them readFile; the person's
// feedback and answers, which Cline sends inside a tool's result, were not user messages.
const CLINE_UI = join(FOREIGN, 'haram-333__fineye/ui_messages.json');

describe.skipIf(!corpusOrSkip('tool calls of a real Cline UI log'))('tool calls written as text', () => {
  it("a real Cline UI log's span: its calls and the person's words counted, the files read listed", async () => {
    const raw = readFileSync(CLINE_UI, 'utf8');
    // The calls the UI log shows (complete ones), read here without the engine.
    const calls: { tool: string; path?: string }[] = [];
    for (const m of JSON.parse(raw) as { type: string; say?: string; text?: string; partial?: boolean }[])
      if (m.type === 'say' && m.say === 'tool' && m.partial !== true) calls.push(JSON.parse(m.text ?? '{}'));
    const read = new Set(calls.filter((c) => c.tool === 'readFile').map((c) => c.path));
    expect([calls.length, read.size]).toEqual([15, 13]);
    const session = await parseSession([createMemorySource(basename(CLINE_UI), Buffer.from(raw))]);
    const preset = requirePreset('cline-summarize-task');
    const prepared = await prepareSummary(
      session,
      [createMemorySource(basename(CLINE_UI), Buffer.from(raw))],
      { kind: 'api-call', apiCallIndex: session.apiCalls.length - 1 },
      getPresetSettings('cline-summarize-task'),
    );
    // The request's user texts that carry the person's words, by a plain match: the task, a
    // resumption, feedback on a completion, an answer to a question (these two wrapped in the
    // tool's result, "[attempt_completion] Result: … <feedback>…</feedback>"; the digest read
    // only the first two kinds: 3 of 10).
    const userTexts = prepared.request.messages
      .filter((m) => m.role === 'user')
      .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));
    const spoken = userTexts.filter((t) => /<task>|\[TASK RESUMPTION\]|<feedback>|<answer>/.test(t));
    expect([userTexts.length, spoken.length]).toEqual([25, 10]);
    const digest = computeSpanDigest(prepared.request.messages);
    expect(digest.toolCounts).toEqual({ readFile: 13, searchFiles: 2 });
    expect(digest.userMessages).toHaveLength(spoken.length);
    expect(new Set(digest.files.map((f) => f.path))).toEqual(read);
    const summary = renderBuiltinSummary(prepared.request, {
      sections: preset.sections,
      output: preset.output,
    });
    expect(summary).toContain('Summarized: 49 messages, 10 user messages, 15 tool calls.');
    expect(summary).not.toContain('No files were read or changed');
  });
});

it("OpenCode's filePath names the file its read, edit and write tools work on", () => {
  const digest = computeSpanDigest([
    { role: 'user', content: 'Fix the bug.' },
    {
      role: 'assistant',
      content: [
        { type: 'tool_use', id: 't1', name: 'read', input: { filePath: '/repo/src/a.ts' } },
        {
          type: 'tool_use',
          id: 't2',
          name: 'edit',
          input: { filePath: '/repo/src/b.ts', oldString: 'x', newString: 'y' },
        },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 't1', content: 'export const a = 1;' },
        { type: 'tool_result', tool_use_id: 't2', content: 'ok' },
      ],
    },
  ]);
  expect(digest.files.map((f) => [f.path, f.reads, f.edits])).toEqual([
    ['/repo/src/a.ts', 1, 0],
    ['/repo/src/b.ts', 0, 1],
  ]);
});
