import { at } from '../../src/engine/assert';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeInspectReport } from '../../src/engine/inspect/report';
import { getLibraryRow } from '../../src/engine/library/library-row';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { CORPUS, foreignFiles } from '../helpers/corpus';

// Cline's ui_messages.json (FORMAT.md §12): a call per `api_req_started`, and each change of
// `conversationHistoryDeletedRange` a truncation (or, after a condense summary, a compaction),
// placed after the request before the one it shortened.

const DIR = resolve(__dirname, '../fixtures/cline-task');
const REAL_UI = join(CORPUS, 'CoreGems__Cline-Xray/task_sample__ui_messages.json');
if (!existsSync(REAL_UI)) console.warn(`Cline UI corpus test skipped: ${REAL_UI} is absent`);

interface UiMessage {
  type: string;
  say?: string;
  ask?: string;
  text?: string;
  conversationHistoryDeletedRange?: [number, number];
}

const read = (name: string) => readFileSync(join(DIR, name));
const source = (name: string, bytes: Uint8Array | string) =>
  createMemorySource(name, typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes);
const uiMessages = JSON.parse(read('ui_messages.json').toString('utf8')) as UiMessage[];

/** Context of each api_req_started, from the raw JSON: tokensIn + cacheWrites + cacheReads. */
function contextsOf(messages: UiMessage[]): number[] {
  return messages
    .filter((m) => m.say === 'api_req_started')
    .map((m) => {
      const info = JSON.parse(m.text ?? '{}') as Record<string, number>;
      return (info.tokensIn ?? 0) + (info.cacheWrites ?? 0) + (info.cacheReads ?? 0);
    });
}

/**
 * Each change of range in the raw JSON: the range, and the request it shortened (the last
 * api_req_started before the first message that carries it).
 */
function rangeChanges(messages: UiMessage[]): { range: [number, number]; request: number }[] {
  const changes: { range: [number, number]; request: number }[] = [];
  let requests = 0;
  let last = '';
  for (const m of messages) {
    const range = m.conversationHistoryDeletedRange;
    if (range && JSON.stringify(range) !== last) {
      last = JSON.stringify(range);
      changes.push({ range, request: requests - 1 });
    }
    if (m.say === 'api_req_started') requests++;
  }
  return changes;
}

describe('Cline UI messages', () => {
  it('gives a call per api_req_started, the tool calls, the turns, a truncation and a condense', async () => {
    const session = await parseSession([source('ui_messages.json', read('ui_messages.json'))]);
    expect(session.format).toBe('cline-ui');
    expect(session.meta).toMatchObject({ agent: 'Cline', models: ['claude-sonnet-4-5'] });
    expect(session.apiCalls.map((c) => c.contextTokens)).toEqual(contextsOf(uiMessages));
    // The task and the feedback "Strings."; the command's output is a tool result.
    expect(session.userTurns).toBe(2);
    expect(session.toolCalls).toEqual({
      readFile: 1,
      editedExistingFile: 2,
      execute_command: 1,
      summarizeTask: 1,
    });
    expect(session.toolPairs.matched).toBe(1);
    expect(session.unknownTypes).toEqual({ 'say:workspace_snapshot': 1 });
    expect(session.issues.map((i) => i.code)).toEqual(['unknown-record']);

    const truncation = at(session.compactions, 0);
    const condense = at(session.compactions, 1);
    expect(session.compactions).toHaveLength(2);
    expect(truncation).toMatchObject({
      kind: 'truncate',
      trigger: 'auto',
      apiCallBefore: 3,
      apiCallAfter: 4,
      preTokens: 158_000,
      postTokens: 70_000,
      deletedRange: [2, 5],
    });
    // The truncation's event sits just before the first message carrying the new range.
    const firstWithRange = uiMessages.findIndex((m) => m.conversationHistoryDeletedRange !== undefined);
    expect(at(session.entries, truncation.entryIndex + 1).subtype).toBe(at(uiMessages, firstWithRange).say);
    expect(condense).toMatchObject({
      kind: 'compact',
      trigger: 'auto',
      apiCallBefore: 6,
      apiCallAfter: 7,
      preTokens: 120_000,
      postTokens: 18_000,
      deletedRange: [2, 12],
    });
    const summary = at(session.entries, condense.summaryEntryIndex ?? -1);
    expect(summary.blocks[0]).toMatchObject({ kind: 'tool-use', name: 'summarizeTask' });

    const report = computeInspectReport(session);
    expect(
      report.compactions.map(({ kind, apiCallBefore, deletedRange }) => ({
        kind,
        apiCallBefore,
        deletedRange,
      })),
    ).toEqual([
      { kind: 'truncate', apiCallBefore: 3, deletedRange: [2, 5] },
      { kind: 'compact', apiCallBefore: 6, deletedRange: [2, 12] },
    ]);
  });

  it('reads a renamed UI log by its structure', async () => {
    const session = await parseSession([source('task.json', read('ui_messages.json'))]);
    expect(session.format).toBe('cline-ui');
    expect(session.compactions.map((c) => c.kind)).toEqual(['truncate', 'compact']);
  });

  it('opens a task folder as one session: the UI log counts, the history and metadata are content', async () => {
    const names = ['api_conversation_history.json', 'task_metadata.json', 'ui_messages.json'];
    const folder = await parseSession(names.map((n) => source(`task-1/${n}`, read(n))));
    const alone = await parseSession([source('ui_messages.json', read('ui_messages.json'))]);
    expect(folder.format).toBe('cline-ui');
    expect(folder.files.map((f) => [f.role, f.dialect])).toEqual([
      ['content', 'cline'],
      ['content', 'cline-task-metadata'],
      ['main', 'cline-ui'],
    ]);
    expect(folder.issues.filter((i) => i.severity !== 'info')).toEqual([]);
    // Nothing counted twice: the history's tool uses, turns and messages are the UI log's too.
    const withoutFile = <T extends { fileIndex: number }>(list: T[]) =>
      list.map(({ fileIndex, ...rest }) => rest);
    expect(withoutFile(folder.apiCalls)).toEqual(withoutFile(alone.apiCalls));
    expect(folder.userTurns).toBe(alone.userTurns);
    expect(folder.toolCalls).toEqual(alone.toolCalls);
    expect(withoutFile(folder.compactions)).toEqual(withoutFile(alone.compactions));
    expect(folder.sidechains).toEqual([]);
    const history = JSON.parse(read('api_conversation_history.json').toString('utf8')) as unknown[];
    expect(folder.entries.filter((e) => e.fileIndex === 0)).toHaveLength(history.length);
    const metadata = folder.entries.filter((e) => e.fileIndex === 1).map((e) => e.summaryText);
    expect(metadata).toEqual([
      'file in context: src/report.ts (read_tool, active)',
      'file in context: src/cli.ts (cline_edited, active)',
    ]);
  });

  it('keeps the API history the main file when no UI log comes with it', async () => {
    const names = ['api_conversation_history.json', 'task_metadata.json'];
    const session = await parseSession(names.map((n) => source(n, read(n))));
    expect(session.files.map((f) => [f.role, f.dialect])).toEqual([
      ['main', 'cline'],
      ['main', 'cline-task-metadata'],
    ]);
  });

  it('takes a declined condense for no compaction, and the next range change for a truncation', async () => {
    const request = (context: number) =>
      JSON.stringify({ request: 'r', tokensIn: context, tokensOut: 10, cacheWrites: 0, cacheReads: 0 });
    const log = [
      { ts: 1, type: 'say', say: 'task', text: 'Do it' },
      { ts: 2, type: 'say', say: 'api_req_started', text: request(100) },
      { ts: 3, type: 'ask', ask: 'condense', text: 'Summary: did it.' },
      { ts: 4, type: 'say', say: 'user_feedback', text: 'No, keep going.' },
      { ts: 5, type: 'say', say: 'api_req_started', text: request(200) },
      { ts: 6, type: 'say', say: 'api_req_started', text: request(300) },
      { ts: 7, type: 'say', say: 'text', text: 'ok', conversationHistoryDeletedRange: [2, 3] },
    ];
    const session = await parseSession([source('ui_messages.json', JSON.stringify(log))]);
    expect(session.compactions).toHaveLength(1);
    expect(session.compactions[0]).toMatchObject({
      kind: 'truncate',
      apiCallBefore: 1,
      apiCallAfter: 2,
      preTokens: 200,
      postTokens: 300,
    });
  });

  it.skipIf(!existsSync(REAL_UI))('finds the real truncations at the requests they shortened', async () => {
    const bytes = readFileSync(REAL_UI);
    const messages = JSON.parse(bytes.toString('utf8')) as UiMessage[];
    const session = await parseSession([source('ui_messages.json', bytes)]);
    expect(session.format).toBe('cline-ui');
    expect(session.issues.filter((i) => i.severity !== 'info')).toEqual([]);
    const contexts = contextsOf(messages);
    expect(session.apiCalls.map((c) => c.contextTokens)).toEqual(contexts);
    const changes = rangeChanges(messages);
    expect(changes.length).toBeGreaterThan(0);
    expect(
      session.compactions.map(
        ({ kind, apiCallBefore, apiCallAfter, deletedRange, preTokens, postTokens }) => ({
          kind,
          apiCallBefore,
          apiCallAfter,
          deletedRange,
          preTokens,
          postTokens,
        }),
      ),
    ).toEqual(
      changes.map(({ range, request }) => ({
        kind: 'truncate',
        apiCallBefore: request - 1,
        apiCallAfter: request,
        deletedRange: range,
        preTokens: contexts[request - 1],
        postTokens: contexts[request],
      })),
    );
    // Each truncated request really carried less context than the one before it.
    for (const c of session.compactions) expect(c.postTokens!).toBeLessThan(c.preTokens!);
  });
});

describe("Cline's own cost, stated on its request messages", () => {
  // Cline's task header sums `cost` over its request, deleted-requests and subagent-usage messages
  // (getApiMetrics, docs of COST_SAYS in ui-messages.ts). A real UI log with no model id had no
  // cost at all here (none to price it by), though Cline showed one.
  const uiLogs = [REAL_UI, ...foreignFiles().filter((p) => p.endsWith('ui_messages.json'))].filter((p) =>
    existsSync(p),
  );

  it.each(uiLogs.map((p) => [p.slice(p.lastIndexOf('corpus/') + 7), p]))(
    '%s: the sum of the costs its messages state',
    async (_name, path) => {
      const messages = JSON.parse(readFileSync(path, 'utf8')) as UiMessage[];
      let usd = 0;
      let records = 0;
      for (const m of messages) {
        if (m.type !== 'say' || !['api_req_started', 'deleted_api_reqs', 'subagent_usage'].includes(m.say!))
          continue;
        let info: { cost?: unknown } = {};
        try {
          info = JSON.parse(m.text ?? '');
        } catch {
          continue;
        }
        if (typeof info.cost !== 'number') continue;
        usd += info.cost;
        records++;
      }
      const session = await parseSession([source('ui_messages.json', readFileSync(path))]);
      if (records === 0) {
        expect(session.meta.statedCost).toBeUndefined();
        return;
      }
      expect(session.meta.statedCost?.records).toBe(records);
      expect(session.meta.statedCost?.usd).toBeCloseTo(usd, 9);
      expect(computeInspectReport(session).statedCost).toEqual(session.meta.statedCost);
      expect(getLibraryRow(session).statedCostUsd).toBe(session.meta.statedCost?.usd);
    },
  );

  it.skipIf(uiLogs.length === 0)('reads a cost from the real logs that state one', async () => {
    let stating = 0;
    for (const path of uiLogs) {
      const session = await parseSession([source('ui_messages.json', readFileSync(path))]);
      if ((session.meta.statedCost?.records ?? 0) > 0) stating++;
    }
    // The corpus' three real UI logs all write `cost` on their requests.
    expect(stating).toBe(uiLogs.length);
  });
});
