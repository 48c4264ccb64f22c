import { writeBigSession } from './big-session';
import { expect, openEmpty, test } from './fixtures';

test('a load can be cancelled; the app stays usable', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const file = testInfo.outputPath('big-60mb.jsonl');
  const size = writeBigSession(file, 60_000, 120); // ~60 MB
  expect(size).toBeGreaterThan(50_000_000);
  await openEmpty(page);
  await page.getByTestId('file-input').setInputFiles(file);
  const progress = page.getByTestId('load-progress');
  await expect(progress).toBeVisible();
  await expect(page.getByTestId('load-bytes')).toContainText(/MB \/ \d+\.\d MB/);
  await page.getByTestId('cancel-load').click();
  await expect(progress).toBeHidden();
  await expect(page.getByTestId('load-notice')).toContainText('Cancelled');
  await expect(page.getByTestId('session-header')).toHaveCount(0);

  // The engine is free again: the sample loads.
  await page.getByTestId('open-sample').click();
  await expect(page.getByTestId('session-header')).toBeVisible({ timeout: 60_000 });
  const label = await page.getByTestId('session-header').textContent();

  // A cancelled load over it leaves it loaded and answering: a row's detail and raw line.
  await page.getByTestId('file-input').setInputFiles(file);
  await expect(progress).toBeVisible();
  await page.getByTestId('cancel-load').click();
  await expect(page.getByTestId('load-notice')).toContainText('Cancelled');
  await expect(page.getByTestId('session-header')).toHaveText(label ?? '');
  const row = page.getByTestId('transcript-row').nth(3);
  await row.click();
  await expect(page.getByTestId('entry-detail')).toHaveAttribute(
    'data-entry-index',
    (await row.getAttribute('data-entry-index')) ?? '',
  );
  await page.getByTestId('detail-tab-raw').click();
  await expect(page.getByTestId('raw-json')).toContainText('"type"');
});

test('100,000 entries: only visible rows are in the DOM and scrolling stays fast', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const file = testInfo.outputPath('big-100k.jsonl');
  writeBigSession(file, 34_000, 20); // 102,000 entries
  await openEmpty(page);
  await page.getByTestId('file-input').setInputFiles(file);
  await expect(page.getByTestId('session-header')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('stat-entries')).toContainText('102,000');
  await expect(page.getByTestId('transcript-row').first()).toBeVisible();
  const domRows = await page.getByTestId('transcript-row').count();
  expect(domRows).toBeLessThan(150);

  const list = page.getByTestId('transcript-list');
  const started = Date.now();
  for (let k = 1; k <= 20; k++) {
    await list.evaluate((el, f) => {
      el.scrollTop = el.scrollHeight * f;
    }, k / 20);
  }
  await expect(page.locator('[data-testid="transcript-row"][data-entry-index="101999"]')).toBeVisible();
  expect(Date.now() - started).toBeLessThan(10_000);
  expect(await page.getByTestId('transcript-row').count()).toBeLessThan(150);
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-calls', '34000');
});
