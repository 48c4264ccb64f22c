import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, SAMPLES_DIR, test } from './fixtures';

// The few views worth comparing pixel by pixel against committed goldens
// (e2e/__screenshots__/visual.spec.ts/*.png): the bundled sample's timeline at 1280×720 in light
// and dark, and the compare view. The tolerance (playwright.config.ts, toHaveScreenshot) lets
// font antialiasing pass; a moved panel, a lost marker or a changed palette fails. Run times are
// masked. After a deliberate visual change:
//   npx vite build && npx playwright test e2e/visual.spec.ts --update-snapshots
// and look at the new PNGs before committing them.

const INDEX = path.join(SAMPLES_DIR, 'index.json');

async function openSample(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.emulateMedia({ colorScheme: scheme });
  await page.goto('/');
  await expect(page.getByTestId('session-header')).toBeVisible();
  await expect(page.locator('[data-testid="replay-marker"]').first()).toBeVisible();
  await expect(page.getByTestId('replay-section')).toHaveAttribute('data-busy', 'false');
}

test.describe('compared screenshots', () => {
  test.skip(!fs.existsSync(INDEX), 'public/samples/index.json is not there yet (run the sample generator)');

  for (const scheme of ['light', 'dark'] as const) {
    test(`the sample's timeline at 1280×720 (${scheme})`, async ({ page }) => {
      await openSample(page, scheme);
      await expect(page).toHaveScreenshot(`sample-timeline-${scheme}.png`, {
        mask: [page.getByTestId('replay-event-count')],
      });
    });
  }

  test('the compare view on the sample (light)', async ({ page }) => {
    await openSample(page, 'light');
    await page.getByTestId('compare-open').click();
    const panel = page.getByTestId('compare-panel');
    await expect(panel.getByTestId('compare-row')).toHaveCount(3);
    await expect(panel).toHaveAttribute('data-running', 'false');
    // The whole page: the drawer beside the transcript, the header and the timeline above it.
    await expect(page).toHaveScreenshot('compare-view-light.png', {
      mask: [panel.locator('span.muted').filter({ hasText: / ms$/ }), page.getByTestId('replay-event-count')],
    });
  });
});
