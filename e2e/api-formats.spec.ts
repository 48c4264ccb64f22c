import fs from 'node:fs';
import path from 'node:path';
import { buildOpenCodeFixtures } from '../tests/fixtures/make-opencode-fixtures';
import { dropFiles, expect, FIXTURES_DIR, openEmpty, test } from './fixtures';

// Raw Anthropic Messages traffic and OpenCode's session storage, dropped (or pasted) on the page
// (fixtures from tests/fixtures/make-api-fixtures.ts and make-opencode-fixtures.ts): the header
// names the format, the timeline draws the calls and the events; renamed files still load.

const api = (name: string): string => fs.readFileSync(path.join(FIXTURES_DIR, 'api', name), 'utf8');
const TRACE = 'log-2026-03-09-10-00-00.jsonl';

test('a claude-trace log opens with its calls, its compaction, truncation and clearing', async ({ page }) => {
  await openEmpty(page);
  await dropFiles(page, [{ name: TRACE, content: api(TRACE) }]);
  await expect(page.getByTestId('session-header')).toContainText('Anthropic Messages API');
  await expect(page.getByTestId('not-transcript')).toHaveCount(0);
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-calls', '10');
  for (const kind of ['compact', 'truncate', 'microcompact'])
    await expect(page.locator(`[data-testid="compaction-marker"][data-kind="${kind}"]`)).toHaveCount(1);
  // Two requests have no usable response: their context is estimated, and the header says so.
  await expect(page.getByTestId('session-header')).toContainText('zero usage on 2 of 10 calls');
});

test('a request list dropped as unknown.json still loads', async ({ page }) => {
  await openEmpty(page);
  await dropFiles(page, [{ name: 'unknown.json', content: api('session.anthropic.json') }]);
  await expect(page.getByTestId('session-header')).toContainText('Anthropic Messages API');
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-calls', '4');
  await expect(page.locator('[data-testid="compaction-marker"][data-kind="compact"]')).toHaveCount(1);
});

test('one pasted Messages request opens as one estimated call', async ({ page }) => {
  await openEmpty(page);
  await page.getByTestId('paste-button').click();
  await page.getByTestId('paste-text').fill(api('request.json'));
  await page.getByTestId('paste-load').click();
  await expect(page.getByTestId('session-header')).toContainText('Anthropic Messages API');
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-calls', '1');
  await expect(page.getByTestId('session-header')).toContainText('context estimated');
  const row = page.getByTestId('transcript-row').filter({ hasText: 'Fix it and run the tests.' });
  await expect(row).toBeVisible();
});

const { session: OPENCODE } = buildOpenCodeFixtures();
const opencode = (files: [string, string][]) =>
  files.map(([p]) => ({
    name: path.basename(p),
    content: fs.readFileSync(path.join(FIXTURES_DIR, 'opencode', p), 'utf8'),
  }));

test('an OpenCode session’s files open as one session with its prune and compaction', async ({ page }) => {
  await openEmpty(page);
  // Dropped in reverse: the ids give the order.
  await dropFiles(page, opencode([...OPENCODE].reverse()));
  await expect(page.getByTestId('session-header')).toContainText('OpenCode');
  await expect(page.getByTestId('not-transcript')).toHaveCount(0);
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-calls', '8');
  await expect(page.locator('[data-testid="compaction-marker"][data-kind="compact"]')).toHaveCount(1);
  await expect(page.locator('[data-testid="compaction-marker"][data-kind="microcompact"]')).toHaveCount(1);
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
