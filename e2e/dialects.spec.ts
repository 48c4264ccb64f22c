import fs from 'node:fs';
import path from 'node:path';
import { dropFiles, expect, FIXTURES_DIR, openEmpty, test } from './fixtures';

// Input formats other than Claude Code's JSONL, as the page shows them: a whole-document dialect
// (Cline's API history) reads as a session, a Cline task folder as one session with its calls and
// truncations; a recognised but unread one says what it is.

test('a Cline task history opens as a session, each message its own row and raw record', async ({ page }) => {
  const text = fs.readFileSync(path.join(FIXTURES_DIR, 'cline-api_conversation_history.json'), 'utf8');
  await openEmpty(page);
  await dropFiles(page, [{ name: 'api_conversation_history.json', content: text }]);
  await expect(page.getByTestId('session-header')).toBeVisible();
  await expect(page.getByTestId('session-header')).toContainText('Cline');
  const row = page.getByTestId('transcript-row').filter({ hasText: 'Thanks, also add a test.' });
  await expect(row).toBeVisible();
  await row.click();
  await page.getByTestId('detail-tab-raw').click();
  // The raw view re-reads this message's bytes only, not the whole document.
  await expect(page.getByTestId('raw-json')).toContainText('Thanks, also add a test.');
  await expect(page.getByTestId('raw-json')).not.toContainText('read_file');
});

test('a Cline task folder opens as one session: its calls, a truncation and a condense on the timeline', async ({
  page,
}) => {
  const names = ['ui_messages.json', 'api_conversation_history.json', 'task_metadata.json'];
  await openEmpty(page);
  await dropFiles(
    page,
    names.map((name) => ({
      name,
      content: fs.readFileSync(path.join(FIXTURES_DIR, 'cline-task', name), 'utf8'),
    })),
  );
  await expect(page.getByTestId('session-header')).toContainText('Cline');
  await expect(page.getByTestId('not-transcript')).toHaveCount(0);
  // One call per api_req_started of the UI log (8), none from the API history beside it.
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-calls', '8');
  const truncation = page.locator('[data-testid="compaction-marker"][data-kind="truncate"]');
  await expect(truncation).toHaveCount(1);
  await expect(truncation).toHaveText('T');
  await expect(page.locator('[data-testid="compaction-marker"][data-kind="compact"]')).toHaveCount(1);
  // The bars are the Cline strategy's, under its own name: maxAllowedSize, 200k − 40k for a
  // Claude model; none of Claude Code's.
  await expect(page.getByTestId('thresholds-hidden')).toHaveCount(0);
  await expect(page.getByTestId('threshold-maxallowed')).toHaveAttribute('data-value', '160000');
  await expect(page.getByTestId('threshold-maxallowed')).toHaveText('maxAllowedSize 160,000');
  await expect(page.getByTestId('threshold-autocompact')).toHaveCount(0);
  await expect(page.getByTestId('threshold-blocking')).toHaveCount(0);
  // The replay runs the Cline strategy: a truncation after request 3 (161,000 ≥ 160,000).
  await expect(page.getByTestId('replay-section')).toHaveAttribute('data-busy', 'false');
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
});

test('a recognised format the app does not read names itself and the formats it reads', async ({ page }) => {
  await openEmpty(page);
  await dropFiles(page, [
    { name: 'stream.jsonl', content: '{"type":"system","subtype":"init","session_id":"s-1"}\n' },
  ]);
  const box = page.getByTestId('not-transcript');
  await expect(box).toBeVisible();
  await expect(box).toContainText('Claude Agent SDK stream-json');
  await expect(box).toContainText('~/.claude/projects/<project>/<session>.jsonl');
  await expect(box).toContainText('api_conversation_history.json');
});
