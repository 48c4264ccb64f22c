import fs from 'node:fs';
import path from 'node:path';
import { expect, SAMPLES_DIR, test } from './fixtures';

// The main-thread fallback (worker/engine-client.ts): where no Web Worker can start, the same
// engine handlers run on the page.

test.skip(
  !fs.existsSync(path.join(SAMPLES_DIR, 'index.json')),
  'public/samples/index.json is not there yet (run the sample generator)',
);

test('without Web Workers the engine runs on the page', async ({ page }) => {
  await page.addInitScript(() => {
    // A page where workers cannot start (a CSP without worker-src, an old embedded browser).
    Object.defineProperty(window, 'Worker', {
      value: function NoWorker() {
        throw new Error('Workers are not allowed here');
      },
    });
  });
  await page.goto('/');
  await expect(page.getByTestId('session-header')).toBeVisible({ timeout: 60_000 });
  await expect(page.locator('[data-testid="compaction-marker"]').first()).toBeVisible();
  // The replay runs too, and a knob re-runs it.
  const compacts = page.locator('[data-testid="replay-marker"][data-kind="compact"]');
  await expect(compacts.first()).toBeVisible();
  const before = await compacts.count();
  await page.getByTestId('knob-pct').fill('50');
  await expect(async () => expect(await compacts.count()).toBeGreaterThan(before)).toPass();
});
