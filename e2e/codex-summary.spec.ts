import fs from 'node:fs';
import path from 'node:path';
import { expect, openEmpty, REPO_ROOT, test } from './fixtures';

// The built-in summary of a real Codex rollout in the page (blubber/dotfiles, foreign corpus):
// it said "No files were read or changed", "No shell commands were run" and "No tool call
// failed" where the session read 22 files with `sed -n`/`nl`, patched them with apply_patch and
// five commands exited non-zero. Skipped, saying so, without the corpus.

const ROLLOUT = path.join(
  REPO_ROOT,
  '../shared/corpus/foreign/blubber__dotfiles/.codex/sessions/2026/02/13/rollout-2026-02-13T04-58-13-019c5526-3753-7dc1-84fb-8e88ea6ab0fb.jsonl',
);
const present = fs.existsSync(ROLLOUT);
if (!present) console.warn('codex-summary e2e skipped: the foreign corpus is absent');

test.describe('the built-in summary of a real Codex rollout', () => {
  test.skip(!present, 'needs ../shared/corpus/foreign');
  test.use({ viewport: { width: 1280, height: 720 } });

  test('names the files read and patched, the commands and their failures', async ({ page }) => {
    await openEmpty(page);
    await page.getByTestId('file-input').setInputFiles(ROLLOUT);
    await expect(page.getByTestId('session-header')).toBeVisible({ timeout: 30_000 });
    await page.getByTestId('summaries-toggle').click();
    await expect(page.getByTestId('point-select')).toBeVisible();
    await page.getByTestId('run-summary').click();
    await expect(page.getByTestId('run-status')).toHaveText(/Done/, { timeout: 30_000 });
    const output = page.getByTestId('summary-output');
    await expect(output).toContainText('Built-in summary by CompactLab');
    await expect(output).toContainText('lib/panel/accounts/user.ex — edited ×3, read ×2');
    await expect(output).toContainText("`sed -n '1,260p' lib/panel/accounts/user.ex`");
    await expect(output).toContainText('`mix precommit` (failed)');
    for (const none of ['No files were read or changed', 'No shell commands were run', 'No tool call failed'])
      await expect(output).not.toContainText(none);
  });
});
