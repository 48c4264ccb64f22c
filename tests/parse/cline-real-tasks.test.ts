import { existsSync, readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeFileSource } from '../../src/cli/node-source';
import { buildCompactionRequest } from '../../src/engine/compact/build-request';
import { getSessionCalls } from '../../src/engine/cost/session-calls';
import { parseSession } from '../../src/engine/parse/parse-session';
import { FOREIGN, REAL_LOGS } from '../helpers/corpus';

// Cline's task history through the Anthropic provider (api-history.ts): `metrics.tokens.prompt` is
// the uncached input alone and `cached` the cache writes and reads on top of it. Two real tasks of
// gmfstu/Online-Card-Architecture (restored by scripts/restore-real-logs.mjs), each with its UI
// log, whose `api_req_started` records split the same counts: a plain count of that log is the
// reference. Read as a part of `prompt`, every call's context was 10 tokens, with a warning per call
// (47 and 36), in the folder too.

const TASKS = ['exported_conversation_1769053680585', 'exported_task_1769064454592'].map((t) =>
  join(REAL_LOGS, 'gmfstu__Online-Card-Architecture', t),
);
const present = TASKS.every((t) => existsSync(join(t, 'api_conversation_history.json')));
if (!present) console.warn(`the Cline real-task tests are skipped: ${TASKS[0]} is not restored`);

/** The UI log's `api_req_started` records' counts (tokensIn, tokensOut, cacheWrites, cacheReads). */
function uiRequests(task: string): Record<string, number>[] {
  const ui = JSON.parse(readFileSync(join(task, 'ui_messages.json'), 'utf8')) as {
    say?: string;
    text?: string;
  }[];
  return ui
    .filter((m) => m.say === 'api_req_started')
    .map((m) => JSON.parse(m.text ?? '{}') as Record<string, number>);
}

/** Per request of the UI log: tokensIn + cacheWrites + cacheReads (its request's context). */
const uiContexts = (task: string): number[] =>
  uiRequests(task).map((r) => (r.tokensIn ?? 0) + (r.cacheWrites ?? 0) + (r.cacheReads ?? 0));

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe.skipIf(!present)('Cline: a real task history through the Anthropic provider', () => {
  it.each(TASKS.map((t) => [basename(t), t]))(
    'reads each call of %s as its UI log counts it, without a warning',
    async (_, task) => {
      const expected = uiContexts(task);
      expect(expected.length).toBeGreaterThan(30);
      const alone = await parseSession([createNodeFileSource(join(task, 'api_conversation_history.json'))]);
      expect(alone.issues).toEqual([]);
      expect(alone.apiCalls.map((c) => c.contextTokens)).toEqual(expected);
      // `prompt` stays the uncached input; `cached` (writes and reads, one count here) the rest.
      expect(alone.apiCalls[0]!.usage).toMatchObject({ inputTokens: 10 });
      const folder = await parseSession(
        ['ui_messages.json', 'api_conversation_history.json', 'task_metadata.json'].map((f) =>
          createNodeFileSource(join(task, f)),
        ),
      );
      expect(folder.issues).toEqual([]);
      expect(folder.apiCalls.map((c) => c.contextTokens)).toEqual(expected);
      // The folder's billed usage is the UI log's, once: the history's metrics beside it are the
      // same requests (their output and cache counts were added a second time, $1.88 and $3.66
      // priced against the $1.05 and $2.20 the log states).
      const calls = getSessionCalls(folder);
      const requests = uiRequests(task);
      expect(calls.length).toBe(requests.length);
      const field = (k: string) => sum(requests.map((r) => r[k] ?? 0));
      expect({
        input: sum(calls.map((c) => c.input)),
        cacheWrite: sum(calls.map((c) => c.cacheWrite)),
        cacheRead: sum(calls.map((c) => c.cacheRead)),
        output: sum(calls.map((c) => c.output)),
      }).toEqual({
        input: field('tokensIn'),
        cacheWrite: field('cacheWrites'),
        cacheRead: field('cacheReads'),
        output: field('tokensOut'),
      });
    },
  );
});

// The task itself: Cline says it as `text` before its first request (ui-messages.ts), and the first
// request quotes it inside <task>. It was read as the model's words: no user turn in either task,
// and the foreign UI logs' tasks missing from their turns (haram-333 14 of 15, Jeehunter 3 of 4).
const FOREIGN_UI = ['haram-333__fineye', 'Jeehunter__mcp-vscode-server'].map((d) =>
  join(FOREIGN, d, 'ui_messages.json'),
);

/** The person's turns of a UI log, counted plainly: its task, then each feedback. */
function plainTurns(file: string): { task: string; turns: number } {
  const ui = JSON.parse(readFileSync(file, 'utf8')) as { say?: string; text?: string }[];
  const first = ui.findIndex((m) => m.say === 'api_req_started');
  const request = JSON.parse(ui[first]!.text!) as { request: string };
  const task = /^<task>\n([\s\S]*?)\n<\/task>/.exec(request.request)?.[1] ?? '';
  const said = ui.slice(0, first).filter((m) => m.say === 'text' || m.say === 'task');
  expect(said.map((m) => m.text)).toEqual([task]);
  const feedback = ui.filter((m) => m.say === 'user_feedback' || m.say === 'user_feedback_diff').length;
  return { task, turns: 1 + feedback };
}

describe('Cline: the task a UI log opens with is the person’s', () => {
  const files = [
    ...(present ? TASKS.map((t) => join(t, 'ui_messages.json')) : []),
    ...FOREIGN_UI.filter(existsSync),
  ];
  if (files.length < 4) console.warn('Cline task-turn test: some real UI logs are absent, fewer cases');
  it.each(files.map((f) => [relative(f.startsWith(REAL_LOGS) ? REAL_LOGS : FOREIGN, f), f]))(
    '%s',
    async (_, file) => {
      const { task, turns } = plainTurns(file);
      const session = await parseSession([createNodeFileSource(file)]);
      expect(session.userTurns).toBe(turns);
      const first = session.entries.find((e) => e.kind === 'user' || e.kind === 'assistant');
      expect(first?.kind).toBe('user');
      expect(first?.blocks[0]).toMatchObject({ kind: 'text', chars: task.length });
      // A summary request over the log (from its last truncation or condense, if any) sends the
      // task at most once, in the first request's text: the model's side held it too before.
      const request = await buildCompactionRequest(session, [createNodeFileSource(file)], {
        uptoEntryIndex: session.entries.length - 1,
        variant: 'full',
      });
      const texts = (role: string): string[] =>
        request.messages
          .filter((m) => m.role === role)
          .flatMap((m) =>
            typeof m.content === 'string'
              ? [m.content]
              : m.content.flatMap((b) => ('text' in b && typeof b.text === 'string' ? [b.text] : [])),
          );
      expect(texts('assistant')).not.toContain(task);
      if (request.fromEntryIndex === 0)
        expect(texts('user')[0]?.startsWith(`<task>\n${task}\n</task>`)).toBe(true);
    },
  );
});

// A task folder's tool calls: the UI log shows each read, write and command, the API history the
// result (a read's or a write's only there). Paired by nothing, the folder said '0 matched, 35
// without result' (and '2 matched, 44 without') and the page marked every call 'no result'. The
// reference is a plain count of the history: its "[tool for 'target'] Result:" texts and
// tool_result blocks, one per call that ran.
const RESULT_HEADER = /^\[([\w-]+)(?: for '([\s\S]*?)')?\] Result:/;
/** The tools whose result header names the file the call's UI message names. */
const FILE_TOOLS = new Set(['read_file', 'write_to_file', 'replace_in_file']);

/** The results the history holds, in order: the tool and its target as the header names them. */
function historyResults(task: string): { tool: string; target?: string }[] {
  const history = JSON.parse(readFileSync(join(task, 'api_conversation_history.json'), 'utf8')) as {
    role: string;
    content: string | { type: string; text?: string }[];
  }[];
  return history.flatMap((m) =>
    m.role !== 'user' || typeof m.content === 'string'
      ? []
      : m.content.flatMap((b) => {
          if (b.type === 'tool_result') return [{ tool: 'tool_result' }];
          const header = b.type === 'text' ? RESULT_HEADER.exec(b.text ?? '') : null;
          return header ? [{ tool: header[1]!, target: header[2] }] : [];
        }),
  );
}

/** The UI log's tool calls, counted plainly (its `tool` and `command` messages). */
function uiToolCalls(task: string): number {
  const ui = JSON.parse(readFileSync(join(task, 'ui_messages.json'), 'utf8')) as {
    say?: string;
    ask?: string;
    partial?: boolean;
  }[];
  return ui.filter((m) => ['tool', 'command'].includes(m.say ?? m.ask ?? '') && m.partial !== true).length;
}

describe.skipIf(!present)('Cline: a task folder pairs its UI log’s calls with the history’s results', () => {
  it.each(TASKS.map((t) => [basename(t), t]))('%s', async (_, task) => {
    const results = historyResults(task);
    const calls = uiToolCalls(task);
    expect(results.length).toBeGreaterThan(30);
    const folder = await parseSession(
      ['ui_messages.json', 'api_conversation_history.json', 'task_metadata.json'].map((f) =>
        createNodeFileSource(join(task, f)),
      ),
    );
    expect(folder.toolPairs).toEqual({
      matched: results.length,
      unmatchedUses: calls - results.length,
      unmatchedResults: 0,
    });
    // Each pair is the call's own result: the header names the file the UI log's call names.
    let named = 0;
    for (const [id, useIndex] of folder.toolUseEntry) {
      const resultIndex = folder.toolResultEntry.get(id);
      if (resultIndex === undefined) continue;
      const use = folder.entries[useIndex]!.blocks[0]!;
      const result = folder.entries[resultIndex]!.blocks.find(
        (b) => b.kind === 'tool-result' && b.toolUseId === id,
      );
      // A command's output is in the UI log too (its two commands): the rest only in the history.
      if (folder.files[folder.entries[resultIndex]!.fileIndex]?.role === 'main') {
        expect(use).toMatchObject({ kind: 'tool-use', name: 'execute_command' });
        continue;
      }
      const header = result?.kind === 'tool-result' ? RESULT_HEADER.exec(result.text) : null;
      expect(header, id).not.toBeNull();
      // A search or a listing names its pattern or folder instead of a file.
      if (use.kind !== 'tool-use' || !use.filePath || !FILE_TOOLS.has(header![1]!)) continue;
      expect(header![2]?.endsWith(use.filePath.split('/').pop()!), `${id}: ${use.filePath}`).toBe(true);
      named++;
    }
    expect(named).toBeGreaterThan(25);
    // A request row's figures read as the page's others do ('8982 tokens in context' before).
    const request = folder.entries.find((e) => e.subtype === 'api_req_started' && e.usage);
    const context =
      request!.usage!.inputTokens +
      request!.usage!.cacheCreationInputTokens +
      request!.usage!.cacheReadInputTokens;
    expect(context).toBeGreaterThan(999);
    expect(request!.summaryText).toContain(`request: ${context.toLocaleString('en-US')} tokens in context`);
  });
});
