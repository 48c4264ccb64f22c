import fs from 'node:fs';
import path from 'node:path';
import { expect, openEmpty, test } from './fixtures';

// A real Gemini CLI JSONL chat (AnthonyontheHub/TP-Tutor, restored into .real-logs/ by
// scripts/restore-real-logs.mjs; skipped, saying so, when absent) whose person cancelled two shell
// commands: the CLI wrote each cancelled call in a `gemini` message of its own, after "Request
// cancelled.", with no tokens. The page read them as 2 more API calls of context 0 (7); the chat's
// raw records hold 5 responses with tokens. The cancelled commands stay in the transcript.

const CHAT = path.join(
  import.meta.dirname,
  '..',
  '.real-logs',
  'AnthonyontheHub__TP-Tutor/.gemini/tmp/anthonyguera/chats/session-2026-04-24T23-16-c8b2cbd9.jsonl',
);
const present = fs.existsSync(CHAT);
if (!present) console.warn(`gemini-cancelled-tools e2e skipped: ${CHAT} is not restored`);

test.describe('a Gemini CLI chat with cancelled tool calls', () => {
  test.skip(!present, 'restore .real-logs first (node scripts/restore-real-logs.mjs)');
  test.use({ viewport: { width: 1280, height: 720 } });

  for (const scheme of ['light', 'dark'] as const) {
    test(`counts its 5 responses as the API calls and keeps the cancelled commands (${scheme})`, async ({
      page,
    }, testInfo) => {
      await page.emulateMedia({ colorScheme: scheme });
      await openEmpty(page);
      await page.getByTestId('file-input').setInputFiles(CHAT);
      await expect(page.getByTestId('session-header')).toBeVisible({ timeout: 30_000 });
      await expect(page.getByTestId('stat-api-calls')).toContainText('5 API calls');
      await page.getByTestId('filter-tool-call').click();
      const rows = page.locator('[data-testid="transcript-row"][data-kind="tool-call"]');
      await expect(rows).toHaveCount(3);
      await expect(rows.filter({ hasText: 'git clone' })).toHaveCount(1);
      await page.screenshot({ path: testInfo.outputPath(`gemini-cancelled-${scheme}.png`) });
    });
  }
});
