import fs from 'node:fs';
import path from 'node:path';
import { dropFiles, expect, FIXTURES_DIR, openEmpty, shoot, test } from './fixtures';

// Input formats other than Claude Code's JSONL, as the page shows them: a whole-document dialect
// (Cline's API history) reads as a session; a recognised but unread one says what it is.

test('a Cline task history opens as a session, each message its own row and raw record', async ({
  page,
}, testInfo) => {
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
  await shoot(page, testInfo, 'cline-history');
});

test('a recognised format the app does not read names itself and the formats it reads', async ({ page }) => {
  await openEmpty(page);
  await dropFiles(page, [
    { name: 'ui_messages.json', content: '[{"ts":1,"type":"say","say":"text","text":"hi"}]' },
  ]);
  const box = page.getByTestId('not-transcript');
  await expect(box).toBeVisible();
  await expect(box).toContainText('Cline UI messages');
  await expect(box).toContainText('~/.claude/projects/<project>/<session>.jsonl');
  await expect(box).toContainText('api_conversation_history.json');
});
