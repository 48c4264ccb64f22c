import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { DIALECTS } from '../src/engine/parse/dialects/registry';
import { getDefaultStrategyId } from '../src/engine/strategies/descriptors';
import type { DialectId } from '../src/engine/types';
import { CODEX_ROLLOUT } from '../tests/fixtures/codex-rollout';
import { buildOpenCodeFixtures } from '../tests/fixtures/make-opencode-fixtures';
import { type DropFile, dropFiles, expect, FIXTURES_DIR, openEmpty, test } from './fixtures';

// Every dialect of the registry (src/engine/parse/dialects/registry.ts), its fixture dropped on the
// page: the header names the agent, the timeline has the fixture's calls, the replay row runs the
// dialect's own strategy. What a parse yields (records, calls, compactions, detection under any
// file name) is pinned by the goldens and unit tests (tests/engine/*-golden, agent-dialects,
// anthropic-messages, cline, opencode…); here the page shows it. A dialect added to the registry
// without a case below fails the first test. Replaces agent-dialects, api-formats and dialects.

const fixture = (...parts: string[]): string => fs.readFileSync(path.join(FIXTURES_DIR, ...parts), 'utf8');
const file = (name: string, ...parts: string[]): DropFile => ({ name, content: fixture(...parts) });
const markers = (page: Page, kind: string) =>
  page.locator(`[data-testid="compaction-marker"][data-kind="${kind}"]`);

const PI = '2026-03-09T12-00-00-000Z_7d3f0a52-6c1e-4b8a-9f27-3e5d1c0b8a64.jsonl';
const GEMINI_JSONL = 'session-2026-03-09T11-00-5e6f7a8b.jsonl';
const GEMINI_JSON = 'session-2026-03-09T10-00-1a2b3c4d.json';
const TRACE = 'log-2026-03-09-10-00-00.jsonl';
const { session: OPENCODE } = buildOpenCodeFixtures();
const opencode = (files: [string, string][]): DropFile[] =>
  files.map(([p]) => ({ name: path.basename(p), content: fixture('opencode', p) }));
const CLINE_TASK = ['ui_messages.json', 'api_conversation_history.json', 'task_metadata.json'].map((name) =>
  file(name, 'cline-task', name),
);

interface Case {
  files: DropFile[];
  /** The timeline's calls (`data-calls`). */
  calls: number;
  /** What else the page shows of this format, beyond the header, calls and replay row. */
  more?: (page: Page) => Promise<void>;
}

/** One case per dialect; a dialect read only with another names it (`with`). */
const CASES: Record<DialectId, Case | { with: DialectId }> = {
  // Derived from a real stream (tests/fixtures/claude-sdk-stream/derive.py): read as Claude Code.
  'claude-sdk-stream': {
    files: [file('og-system.jsonl', 'claude-sdk-stream', 'og-system.jsonl')],
    calls: 11,
    more: async (page) => {
      await expect(markers(page, 'compact')).toHaveCount(1);
      // The version is system/init's: the replay picks Claude Code's profile by it.
      await expect(page.getByTestId('session-header')).toContainText('2.1.41');
      // Its two runs' result records state a cost; the header shows their sum.
      await expect(page.getByTestId('stat-stated-cost')).toHaveText('$6.28 cost stated by the log');
    },
  },
  'gemini-cli-logs': {
    files: [file('logs.json', 'gemini-logs', 'logs.json')],
    calls: 0,
    // A prompt log holds no model call: the empty chart says what the file was read as, and the
    // manual /compact field, with no call to name, is off and not marked invalid.
    more: async (page) => {
      await expect(page.getByTestId('timeline-empty')).toHaveText(
        'No API calls with usage in this transcript, read as a Gemini CLI prompt log (logs.json: the prompts typed in a project, no model calls).',
      );
      await expect(page.getByTestId('replay-partial-at')).toBeDisabled();
      await expect(page.getByTestId('replay-partial-at')).toHaveAttribute('aria-invalid', 'false');
      // Said as a prompt log (its four prompts, each of its own session), not named by its first.
      await expect(page.getByTestId('header-prompt-log')).toHaveText(
        'Prompt log: 4 prompts over 4 sessions, no model calls',
      );
    },
  },
  'claude-code': {
    files: [file('tiny.jsonl', 'tiny.jsonl')],
    calls: 6,
    more: async (page) => expect(markers(page, 'compact')).toHaveCount(1),
  },
  'codex-cli': {
    files: [
      {
        name: 'rollout-2026-05-01T09-00-00-0196b1c2-aaaa-7bbb-8ccc-123456789abc.jsonl',
        content: CODEX_ROLLOUT,
      },
    ],
    calls: 3,
    more: async (page) => {
      await expect(markers(page, 'compact')).toHaveCount(1);
      // The `compacted` record is its own summary entry; this one's message is empty.
      await markers(page, 'compact').click();
      await expect(page.getByTestId('compaction-summary-note')).toHaveText(
        'No summary in this record: its `message` is empty.',
      );
    },
  },
  cline: {
    files: [file('api_conversation_history.json', 'cline-api_conversation_history.json')],
    // An assistant message's `metrics.tokens` is a call.
    calls: 4,
    more: async (page) => {
      // Each message its own row; the raw view re-reads this message's bytes only.
      const row = page.getByTestId('transcript-row').filter({ hasText: 'Thanks, also add a test.' });
      await expect(row).toBeVisible();
      await row.click();
      await page.getByTestId('detail-tab-raw').click();
      await expect(page.getByTestId('raw-json')).toContainText('Thanks, also add a test.');
      await expect(page.getByTestId('raw-json')).not.toContainText('read_file');
    },
  },
  'cline-ui': {
    // A task folder: one call per api_req_started of the UI log, none from the API history.
    files: CLINE_TASK,
    calls: 8,
    more: async (page) => {
      const truncation = markers(page, 'truncate');
      await expect(truncation).toHaveCount(1);
      await expect(truncation).toHaveText('T');
      await expect(markers(page, 'compact')).toHaveCount(1);
      // The bars are the Cline strategy's, under its own name: maxAllowedSize, 200k − 40k for a
      // Claude model; none of Claude Code's.
      await expect(page.getByTestId('thresholds-hidden')).toHaveCount(0);
      await expect(page.getByTestId('threshold-maxallowed')).toHaveAttribute('data-value', '160000');
      await expect(page.getByTestId('threshold-maxallowed')).toHaveText('maxAllowedSize 160,000');
      await expect(page.getByTestId('threshold-autocompact')).toHaveCount(0);
      await expect(page.getByTestId('threshold-blocking')).toHaveCount(0);
      // The replay truncates after request 3 (161,000 ≥ 160,000).
      const replayed = page.locator('[data-testid="replay-marker"][data-kind="truncate"]');
      await expect(replayed.first()).toHaveAttribute('data-after-call', '3');
      await replayed.first().click();
      await expect(page.getByTestId('replay-event-card')).toContainText('truncation');
      await expect(page.getByTestId('replay-dropped')).toContainText('tok');
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('replay-event-card')).toHaveCount(0);
      await truncation.click();
      await expect(page.getByTestId('compaction-card')).toContainText(/truncation/i);
      await expect(page.getByTestId('compaction-range')).toHaveText('history 2–5');
      await page.keyboard.press('Escape');
      // Cline's own cost, as its task header sums it: the `cost` on each of its 8 requests.
      await expect(page.getByTestId('stat-stated-cost')).toHaveText('$0.280 cost stated by the log');
    },
  },
  'cline-task-metadata': { with: 'cline-ui' },
  'gemini-cli-json': {
    files: [file(GEMINI_JSON, 'agents', GEMINI_JSON)],
    calls: 3,
    more: async (page) =>
      expect(
        page.getByTestId('transcript-row').filter({ hasText: 'Thanks. Also document the flag' }),
      ).toBeVisible(),
  },
  'gemini-cli': {
    files: [file(GEMINI_JSONL, 'agents', GEMINI_JSONL)],
    calls: 3,
    more: async (page) => {
      await expect(page.getByTestId('stat-folded')).toContainText('2 copies folded');
      await expect(
        page.getByTestId('transcript-row').filter({ hasText: 'Thanks. Also document the flag' }),
      ).toBeVisible();
    },
  },
  pi: {
    // Six calls in the file; the series follows the main line, which leaves out the abandoned try's.
    files: [file(PI, 'agents', PI)],
    calls: 5,
    more: async (page) => {
      await expect(markers(page, 'compact')).toHaveCount(1);
      await markers(page, 'compact').click();
      await expect(page.getByTestId('compaction-card')).toContainText('52,400');
      // The summary pi keeps on the compaction entry itself.
      await expect(page.getByTestId('compaction-card')).toContainText('Split the formatter into format.ts');
    },
  },
  opencode: {
    // Dropped in reverse: the ids give the order.
    files: opencode([...OPENCODE].reverse()),
    calls: 8,
    more: async (page) => {
      await expect(markers(page, 'compact')).toHaveCount(1);
      await expect(markers(page, 'microcompact')).toHaveCount(1);
    },
  },
  'anthropic-messages': {
    // A claude-trace log.
    files: [file(TRACE, 'api', TRACE)],
    // The quota probe (max_tokens 1) is a side call, not one of the conversation's.
    calls: 9,
    more: async (page) => {
      for (const kind of ['compact', 'truncate', 'microcompact'])
        await expect(markers(page, kind)).toHaveCount(1);
      // Two requests have no usable response: their context is estimated, and the header says so.
      await expect(page.getByTestId('session-header')).toContainText('zero usage on 2 of 9 calls');
    },
  },
  'anthropic-messages-json': {
    files: [file('session.anthropic.json', 'api', 'session.anthropic.json')],
    calls: 4,
    more: async (page) => expect(markers(page, 'compact')).toHaveCount(1),
  },
};

test('every dialect of the registry has a case here', () => {
  expect(Object.keys(CASES).sort()).toEqual(DIALECTS.map((d) => d.id).sort());
});

for (const dialect of DIALECTS) {
  const c = CASES[dialect.id];
  if (c === undefined || 'with' in c) continue;
  test(`${dialect.label}: the header names ${dialect.agent}, ${c.calls} calls, the replay runs ${getDefaultStrategyId(dialect.id)}`, async ({
    page,
  }) => {
    await openEmpty(page);
    await dropFiles(page, c.files);
    await expect(page.getByTestId('session-header')).toContainText(dialect.agent ?? dialect.label);
    await expect(page.getByTestId('not-transcript')).toHaveCount(0);
    await expect(page.getByTestId('timeline')).toHaveAttribute('data-calls', String(c.calls));
    await expect(page.getByTestId('replay-strategy')).toHaveValue(getDefaultStrategyId(dialect.id));
    await expect(page.getByTestId('replay-section')).toHaveAttribute('data-busy', 'false');
    await c.more?.(page);
  });
}

test('one pasted Messages request opens as one estimated call', async ({ page }) => {
  await openEmpty(page);
  await page.getByTestId('paste-button').click();
  await page.getByTestId('paste-text').fill(fixture('api', 'request.json'));
  await page.getByTestId('paste-load').click();
  await expect(page.getByTestId('session-header')).toContainText('Anthropic Messages API');
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-calls', '1');
  await expect(page.getByTestId('session-header')).toContainText('context estimated');
  const row = page.getByTestId('transcript-row').filter({ hasText: 'Fix it and run the tests.' });
  await expect(row).toBeVisible();
});

test('an OpenCode message file alone says its parts are missing', async ({ page }) => {
  await openEmpty(page);
  const message = OPENCODE.find(([p]) => p.includes('/message/'))!;
  await dropFiles(page, opencode([message]));
  await expect(page.getByTestId('session-header')).toContainText('OpenCode');
  await page.getByTestId('stat-issues').click();
  await expect(page.getByTestId('issues-panel')).toContainText(
    'part files (part/<messageID>/*.json) were not opened',
  );
});
