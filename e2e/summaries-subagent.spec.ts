import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { createFixtureText, FIRST_REQUEST } from '../tests/summarize/fixture';
import { getCutSelects } from './cut-selects';
import {
  type DropFile,
  dropFiles,
  expect,
  getSummaryTexts,
  openEmpty,
  REPO_ROOT,
  readCorpusSession,
  test,
} from './fixtures';

// The Summaries workbench's "Compaction point" offered the main thread's compactions only: a real
// session whose four subagents compacted their own contexts nine times could pick none of them.
// Each is offered now, under its subagent (its type, id and the Task call's description), with its
// own recorded summary and the history its log held before it (since its previous boundary, whose
// summary comes first), never the main thread's.

const CORPUS = path.join(REPO_ROOT, '../shared/corpus');
const VAULT = path.join(CORPUS, 'LAF-US__IDAHO-VAULT');
const PREFIX = 'claude__projects__c--Users-loganf-Documents-IDAHO-VAULT__';
const SESSION = '05541cb5-fe43-41c9-87ef-2a6d89bba271';

/** The session's files under the names Claude Code gives them (the corpus flattens its folders). */
const corpusSessionFiles = (): DropFile[] => readCorpusSession(VAULT, PREFIX, SESSION);

const AGENT = 'a5e1d2c3b4a59687f';
const TASK = 'Find where the lexer handles TOKEN_EOF in /repo/src/lexer.ts and report the line.';
const SUBAGENT_SUMMARY =
  'This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\nSummary:\n1. Primary Request and Intent: find the TOKEN_EOF handling (SUBAGENT-SUMMARY-7Q).';

/** A subagent's log (Claude Code 2.1 shape): its task, a read, an answer, its own compaction, more. */
function createSubagentLog(): string {
  let clock = Date.UTC(2026, 0, 2, 10, 0, 30);
  let parent: string | null = null;
  let n = 0;
  const record = (type: string, extra: Record<string, unknown>) => {
    n++;
    clock += 1_000;
    const uuid = `00000000-0000-4000-9000-${String(n).padStart(12, '0')}`;
    const r = {
      parentUuid: parent,
      isSidechain: true,
      agentId: AGENT,
      userType: 'external',
      cwd: '/repo',
      sessionId: 'fixture-session',
      version: '2.1.68',
      type,
      uuid,
      timestamp: new Date(clock).toISOString(),
      ...extra,
    };
    parent = uuid;
    return JSON.stringify(r);
  };
  const assistant = (id: string, content: unknown[], context: number) =>
    record('assistant', {
      requestId: `req_sub_${id}`,
      message: {
        id: `msg_sub_${id}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-haiku-4-5',
        content,
        stop_reason: 'end_turn',
        usage: {
          input_tokens: 10,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: context,
          output_tokens: 40,
        },
      },
    });
  return [
    record('user', { message: { role: 'user', content: TASK } }),
    assistant(
      '1',
      [{ type: 'tool_use', id: 'st1', name: 'Read', input: { file_path: '/repo/src/lexer.ts' } }],
      40_000,
    ),
    record('user', {
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'st1', content: 'case TOKEN_EOF: return done();' }],
      },
    }),
    assistant('2', [{ type: 'text', text: 'TOKEN_EOF is handled in lex() at line 88.' }], 41_000),
    record('system', {
      subtype: 'compact_boundary',
      content: 'Conversation compacted',
      level: 'info',
      compactMetadata: { trigger: 'auto', preTokens: 41_200 },
    }),
    record('user', { message: { role: 'user', content: SUBAGENT_SUMMARY }, isCompactSummary: true }),
    assistant('3', [{ type: 'text', text: 'Line 88 of src/lexer.ts.' }], 5_000),
  ].join('\n');
}

async function openSummaries(page: Page, files: DropFile[]) {
  await openEmpty(page);
  await dropFiles(page, files);
  await expect(page.getByTestId('session-header')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('summaries-toggle').click();
  await expect(page.getByTestId('point-select')).toBeVisible();
}

/** The point select's groups: each label and its options' values and texts. */
function readGroups(page: Page) {
  return page
    .getByTestId('point-select')
    .locator('optgroup')
    .evaluateAll((groups) =>
      groups.map((g) => ({
        label: (g as HTMLOptGroupElement).label,
        options: [...g.querySelectorAll('option')].map((o) => ({
          value: o.value,
          text: o.textContent ?? '',
        })),
      })),
    );
}

async function runWith(page: Page, summarizer: 'builtin' | 'recorded', runs: number) {
  await page.getByTestId(`summarizer-${summarizer}`).check();
  await page.getByTestId('run-summary').click();
  await expect(page.getByTestId('run-status')).toHaveText(/Done/, { timeout: 20_000 });
  await expect(page.getByTestId('run-row')).toHaveCount(runs);
}

test("a generated session: its subagent's compaction is a point, named by the subagent, its own span and summary", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openSummaries(page, [
    { name: 'fixture-session.jsonl', content: createFixtureText() },
    { name: `agent-${AGENT}.jsonl`, content: createSubagentLog() },
    {
      name: `agent-${AGENT}.meta.json`,
      // The description is the log's text: markup stays text, a bidi override shows as a marker.
      content: JSON.stringify({ agentType: 'Explore', description: 'Find the <b>EOF</b>\u202e handling' }),
    },
  ]);
  const select = page.getByTestId('point-select');
  // The default point is still the main thread's last compaction.
  await expect(select).toHaveValue('c:0');
  const groups = await readGroups(page);
  const sub = groups.find((g) => g.label.startsWith('Subagent'));
  expect(sub, JSON.stringify(groups)).toEqual({
    label: `Subagent Explore ${AGENT}: Find the <b>EOF</b>⟨U+202E⟩ handling (its own log)`,
    options: [{ value: 'c:1', text: `Explore ${AGENT.slice(0, 7)} · 1 of 1 · 41.2k` }],
  });
  expect(groups[0]!.options.map((o) => o.value)).toEqual(['c:0']);

  // Picked from the keyboard: the span is the subagent's history (its task, a read and its result,
  // its answer), not the main thread's.
  await select.focus();
  await page.keyboard.press('ArrowDown');
  await expect(select).toHaveValue('c:1');
  await expect(page.getByTestId('request-tokens')).toContainText(/^Request: 4 messages · /);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await getCutSelects(page.getByTestId('summaries-setup'))).toEqual([]);
  }
  await runWith(page, 'builtin', 1);
  const output = page.getByTestId('summary-output');
  await expect(output).toContainText(TASK);
  await expect(output).not.toContainText(FIRST_REQUEST);
  await expect(page.getByTestId('run-row').first()).toContainText(
    `subagent Explore ${AGENT}: compaction 1 of 1 (auto) at line 5`,
  );
  // Its recorded summary is the subagent's, not the main thread's.
  await runWith(page, 'recorded', 2);
  await expect(output).toContainText('SUBAGENT-SUMMARY-7Q');
  await expect(output).not.toContainText('make the build pass');
  await page.screenshot({ path: test.info().outputPath('subagent-point.png') });
});

test.describe('a real session with subagent compactions', () => {
  test.skip(!fs.existsSync(VAULT), `the corpus (../shared/corpus) is not here: ${VAULT}`);

  test("05541cb5: the subagents' 9 compactions are points under their 4 subagents; one runs with its own span and summary", async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width: 1280, height: 720 });
    const files = corpusSessionFiles();
    const logs = files.filter((f) => /^agent-[a-z0-9]+\.jsonl$/.test(f.name));
    expect(logs).toHaveLength(4);
    await openSummaries(page, files);
    const groups = (await readGroups(page)).filter((g) => g.label.startsWith('Subagent'));
    // A plain count of each log's boundary records and its meta file's type and description.
    expect(groups).toHaveLength(logs.length);
    for (const log of logs) {
      const id = /^agent-([a-z0-9]+)\.jsonl$/.exec(log.name)![1]!;
      const meta = JSON.parse(files.find((f) => f.name === `agent-${id}.meta.json`)!.content) as {
        agentType: string;
        description: string;
      };
      const group = groups.find((g) => g.label.includes(id));
      expect(group?.label, id).toBe(`Subagent ${meta.agentType} ${id}: ${meta.description} (its own log)`);
      const boundaries = log.content.split('\n').filter((l) => l.includes('"compact_boundary"')).length;
      expect(group!.options, id).toHaveLength(boundaries);
      for (const [i, o] of group!.options.entries())
        expect(o.text).toMatch(
          new RegExp(`^${meta.agentType} ${id.slice(0, 7)} · ${i + 1} of ${boundaries} · [\\d.]+k$`),
        );
    }
    expect(groups.flatMap((g) => g.options)).toHaveLength(9);

    // The third compaction of the subagent with three: its span starts with the second's summary.
    const log = logs.find(
      (f) => f.content.split('\n').filter((l) => l.includes('"compact_boundary"')).length === 3,
    )!;
    const id = /^agent-([a-z0-9]+)\.jsonl$/.exec(log.name)![1]!;
    const option = groups.find((g) => g.label.includes(id))!.options[2]!;
    await page.getByTestId('point-select').selectOption(option.value);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect(await getCutSelects(page.getByTestId('summaries-setup'))).toEqual([]);
    }
    const recorded = getSummaryTexts(log.content);
    expect(recorded).toHaveLength(3);
    await runWith(page, 'recorded', 1);
    const output = page.getByTestId('summary-output');
    // Past the opening sentence every summary shares.
    await expect(output).toContainText(recorded[2]!.slice(300, 420));
    await runWith(page, 'builtin', 2);
    await expect(page.getByTestId('run-row').first()).toContainText(
      `subagent Explore ${id}: compaction 3 of 3 (auto) at line`,
    );
    await page.screenshot({ path: test.info().outputPath('subagent-point-corpus.png') });
  });
});
