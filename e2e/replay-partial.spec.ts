import fs from 'node:fs';
import path from 'node:path';
import { expect, SAMPLES_DIR, shoot, test } from './fixtures';

// A partial /compact in both directions (Prompt 2), at an API call typed in, around the selected
// message: the replay event says which part it kept and which prompt it sends.

test.skip(!fs.existsSync(path.join(SAMPLES_DIR, 'index.json')), 'the bundled sample is not generated yet');

test('partial /compact up to and from the selected message, at a chosen call', async ({ page }, testInfo) => {
  await page.goto('/');
  await expect(page.locator('[data-testid="replay-marker"]').first()).toBeVisible();
  await page.locator('[data-testid="transcript-row"]').nth(12).click();
  await expect(page.getByTestId('entry-number')).toContainText(/entry \d+/);
  // An API call before the selected message cannot hold it: the buttons stay off.
  const at = page.getByTestId('replay-partial-at');
  await at.fill('1');
  await expect(at).toHaveAttribute('aria-invalid', 'false');
  await expect(page.getByTestId('replay-partial-from')).toBeDisabled();
  await at.fill('120');
  await page.getByTestId('replay-partial-from').click();
  const chip = page.locator('[data-testid="replay-event-chip"][data-after-call="119"]');
  await expect(chip).toHaveCount(1);
  await chip.click();
  const card = page.getByTestId('replay-event-card');
  await expect(card).toContainText('partial compaction (manual)');
  await card.getByText('Prompt', { exact: true }).click();
  await expect(page.getByTestId('replay-request-prompt')).toContainText('RECENT portion');
  await expect(page.getByTestId('replay-request-prompt')).not.toContainText('[...]');
  await expect(page.getByTestId('replay-request-elisions')).toBeVisible();
  await shoot(page, testInfo, 'replay-partial-from');
  // The other direction at the same call replaces it (one manual compaction per call).
  await page.keyboard.press('Escape');
  await expect(card).toHaveCount(0);
  await page.getByTestId('replay-partial-here').click();
  await expect(chip).toHaveCount(1);
  await chip.click();
  await card.getByText('Prompt', { exact: true }).click();
  await expect(page.getByTestId('replay-request-prompt')).toContainText('conversation so far');
});

test('each subagent of the session has its own replay row, folded', async ({ page }, testInfo) => {
  await page.goto('/');
  await expect(page.locator('[data-testid="replay-marker"]').first()).toBeVisible();
  const list = page.getByTestId('replay-subagents');
  await expect(list).toBeVisible();
  await expect(list).toContainText(/Subagents \(\d+\) · \d+ compaction/);
  await list.locator('summary').focus();
  await page.keyboard.press('Enter');
  const rows = page.getByTestId('replay-subagent');
  await expect(async () => expect(await rows.count()).toBeGreaterThan(0)).toPass();
  await expect(rows.first()).toContainText(/calls · peak/);
  await shoot(page, testInfo, 'replay-subagents');
});
