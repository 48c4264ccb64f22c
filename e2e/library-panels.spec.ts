import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, openEmpty, test } from './fixtures';
import { writeLibraryFolder } from './library-folder';

// The library's panels (What if…, Usage, Find in transcripts…) as a person meets them: at 1280×720
// with What if… replayed (its charts) and Usage open, the page was 789 px tall (the list kept its
// 12rem and the panels theirs) and scrolled as a whole; and Escape, which closes every other panel
// of the page, left these open.

async function openFolder(page: Page): Promise<void> {
  const root = path.join(os.tmpdir(), `compactlab-panels-e2e-${process.pid}`, 'projects');
  const folder = writeLibraryFolder(root);
  await openEmpty(page);
  await page.getByTestId('folder-input').setInputFiles(root);
  await expect(page.getByTestId('library-row')).toHaveCount(folder.sessions);
  await expect(page.getByTestId('library-scan')).toHaveCount(0);
}

/** The page fits its viewport: nothing scrolls the page, the list shows rows below the panels. */
async function expectFits(page: Page): Promise<void> {
  const { scroll, inner } = await page.evaluate(() => ({
    scroll: document.scrollingElement!.scrollHeight,
    inner: window.innerHeight,
  }));
  expect(scroll).toBeLessThanOrEqual(inner);
  const rows = (await page.getByTestId('library-rows').boundingBox())!;
  expect(rows.y + rows.height).toBeLessThanOrEqual(inner + 0.5);
  // At least three rows of the list stay in view.
  expect(rows.height).toBeGreaterThanOrEqual(3 * 30);
}

for (const viewport of [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
]) {
  test(`library panels fit ${viewport.width}×${viewport.height}: the panels scroll inside, the page does not`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(viewport);
    await openFolder(page);
    await page.getByTestId('library-whatif').click();
    await page.getByTestId('whatif-run').click();
    await expect(page.getByTestId('whatif-status')).toHaveAttribute('data-status', 'done', {
      timeout: 90_000,
    });
    await expect(page.locator('.whatif-chart').first()).toBeVisible();
    await expectFits(page);
    // The chart's last label is reached by scrolling the panel, and then shown whole.
    const label = page.locator('.whatif-chart svg text').last();
    await label.scrollIntoViewIfNeeded();
    const panel = (await page.getByTestId('whatif').boundingBox())!;
    const box = (await label.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(panel.y);
    expect(box.y + box.height).toBeLessThanOrEqual(panel.y + panel.height);
    await page.getByTestId('library-usage').click();
    await expect(page.getByTestId('usage-panel')).toBeVisible();
    await expectFits(page);
    await page.getByTestId('library-find-toggle').click();
    await expect(page.getByTestId('library-find-toggle')).toHaveAttribute('aria-expanded', 'true');
    await expectFits(page);
  });
}

test('Escape closes the library panels, the last opened first, and the focus goes back to its button', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openFolder(page);
  const whatIf = page.getByTestId('library-whatif');
  const usage = page.getByTestId('library-usage');
  const find = page.getByTestId('library-find-toggle');
  // From the keyboard: each button opened with Enter.
  await whatIf.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('whatif')).toBeVisible();
  await usage.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('usage-panel')).toBeVisible();
  await find.focus();
  await page.keyboard.press('Enter');
  await expect(find).toHaveAttribute('aria-expanded', 'true');
  // Escape from the find panel's box (it takes the focus as it opens): it closes, the focus back
  // on its button.
  await expect(page.getByTestId('library-find-input')).toBeFocused();
  await page.keyboard.type('beds');
  await page.keyboard.press('Escape');
  await expect(find).toHaveAttribute('aria-expanded', 'false');
  await expect(find).toBeFocused();
  await expect(page.getByTestId('usage-panel')).toBeVisible();
  await page.getByTestId('usage-view').focus();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('usage-panel')).toHaveCount(0);
  await expect(usage).toBeFocused();
  await expect(page.getByTestId('whatif')).toBeVisible();
  // From a control inside the what-if.
  await page.getByTestId('whatif-a').focus();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('whatif')).toHaveCount(0);
  await expect(whatIf).toHaveAttribute('aria-expanded', 'false');
  await expect(whatIf).toBeFocused();
});

test('a session opened from the library by the keyboard leaves the focus on the way back, not on <body>', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openFolder(page);
  const toggle = page.getByTestId('library-toggle');
  // A row (the session of most calls, not the broken one): the list focused, ↓, Enter.
  await page.getByTestId('library-sort-calls').click();
  await page.getByTestId('library-rows').focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('session-header')).toBeVisible();
  await expect(toggle).toHaveText('Library');
  await expect(toggle).toBeFocused();
  // Enter there goes back to the library; a find's result opens its session the same way.
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('library')).toBeVisible();
  await page.getByTestId('library-find-toggle').click();
  await expect(page.getByTestId('library-find-input')).toBeFocused();
  await page.keyboard.type('beds');
  await page.keyboard.press('Enter');
  const hit = page.getByTestId('library-find-hit').first();
  await expect(hit).toBeVisible({ timeout: 30_000 });
  await hit.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('session-header')).toBeVisible();
  await expect(toggle).toBeFocused();
});

test('a row listed from the last visit says how to open it, rather than doing nothing', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openFolder(page);
  await page.reload();
  await expect(page.getByTestId('library-reopen')).toBeVisible();
  await page.getByTestId('library-rows').focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  const notice = page.getByTestId('load-notice');
  await expect(notice).toHaveText(/files not open: Reopen projects to open its sessions/);
  await expect(page.getByTestId('library')).toBeVisible();
  // A click says the same.
  await page.getByTestId('library-row').nth(1).click();
  await expect(notice).toBeVisible();
  // Find in transcripts says why it can search nothing; its panel holds no empty band.
  await page.getByTestId('library-find-toggle').click();
  await expect(page.getByTestId('library-find-closed')).toHaveText(
    'Reopen the folder to search its sessions.',
  );
  await expect(page.getByTestId('library-find-run')).toBeDisabled();
  const panel = (await page.getByTestId('library-find').boundingBox())!;
  const bar = (await page.locator('.find-bar').boundingBox())!;
  expect(panel.y + panel.height - (bar.y + bar.height)).toBeLessThan(16);
});
