import fs from 'node:fs';
import path from 'node:path';
import { expect, openEmpty, test } from './fixtures';

// The guide's library **Usage** (cost or tokens by day) on a real OpenCode database opened as a
// folder: an OpenCode call (a `step-finish` part) states no time, so every call of the database
// fell on no day — "Cost by day · (no time) to (no time), 1 days with calls", one empty bar named
// "no time". Calls are dated by their message now: the two days of its 70 calls (49 and 21, the
// plain count of tests/corpus/opencode-usage-days.test.ts). 1280x720, light and dark (restored
// .real-logs/, skipped saying so when absent).

const FOLDER = path.join(
  import.meta.dirname,
  '..',
  '.real-logs/richardaiand__aiand-portfolio-web/.local/share/opencode',
);
const present = fs.existsSync(path.join(FOLDER, 'opencode.db'));
if (!present) console.warn('usage-opencode e2e skipped: .real-logs is not restored');

test.describe('usage by day of a real OpenCode database', () => {
  test.skip(!present, 'restore .real-logs first (node scripts/restore-real-logs.mjs)');
  test.use({ viewport: { width: 1280, height: 720 }, timezoneId: 'UTC' });

  for (const scheme of ['light', 'dark'] as const) {
    test(`its calls on their days, ${scheme}`, async ({ page }, testInfo) => {
      await page.emulateMedia({ colorScheme: scheme });
      await openEmpty(page);
      await page.getByTestId('folder-input').setInputFiles(FOLDER);
      await expect(page.getByTestId('library-row')).toHaveCount(3);
      await page.getByTestId('library-usage').click();
      const byDay = page.getByTestId('usage-chart-day');
      await expect(byDay).toContainText('2026-06-17 to 2026-06-18, 2 days with calls');
      await expect(byDay).not.toContainText('no time');
      await page.getByRole('radio', { name: 'Tokens' }).check();
      await page.getByRole('button', { name: 'Show as tables' }).click();
      const text = await page.getByTestId('library').innerText();
      expect(text).not.toContain('(no time)');
      await page.screenshot({ path: testInfo.outputPath(`usage-opencode-${scheme}.png`) });
    });
  }
});
