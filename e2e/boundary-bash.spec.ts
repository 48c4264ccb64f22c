import fs from 'node:fs';
import path from 'node:path';
import { expect, SAMPLES_DIR, shoot, test } from './fixtures';

// The boundary-scoring strategy on the bundled sample: its event card charts the candidate
// splits with the chosen one marked; the side panel's "Bash outputs" tab lists long shell results.

const INDEX = path.join(SAMPLES_DIR, 'index.json');

test.describe('boundary scoring and bash outputs', () => {
  test.skip(!fs.existsSync(INDEX), 'public/samples/index.json is not there yet (run the sample generator)');

  test('charts the candidate boundaries of a boundary-scoring compaction', async ({ page }, testInfo) => {
    await page.goto('/');
    await expect(page.locator('[data-testid="replay-marker"]').first()).toBeVisible();
    await page.getByTestId('replay-strategy').selectOption('boundary-scoring');
    await expect(page.getByTestId('replay-section')).toHaveAttribute('data-busy', 'false');
    const chip = page.locator('[data-testid="replay-event-chip"].kind-compact').first();
    await expect(chip).toBeVisible();
    await chip.click();
    const card = page.getByTestId('replay-event-card');
    await expect(card).toContainText('split at message');
    const chart = card.getByTestId('boundary-scores');
    await expect(chart).toBeVisible();
    const bars = chart.getByTestId('boundary-score-bar');
    expect(await bars.count()).toBeGreaterThan(1);
    await expect(chart.locator('[data-testid="boundary-score-bar"][data-chosen="true"]')).toHaveCount(1);
    await shoot(page, testInfo, 'boundary-scores');
  });

  test('lists shell outputs over 5,000 characters in the Bash outputs tab', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByTestId('session-header')).toBeVisible();
    await page.getByTestId('tab-bash').click();
    const panel = page.getByTestId('bash-summaries-panel');
    await expect(panel).toBeVisible();
    await expect(panel).toContainText('shell results (Bash) over 5,000 characters');
    await expect(page.getByTestId('bash-summaries-total')).toHaveText(/^[\d,]+$/);
  });
});
