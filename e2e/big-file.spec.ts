import { writeBigSession } from './big-session';
import type { Locator, Page } from '@playwright/test';
import { expect, openEmpty, TIMING_BUDGETS, test } from './fixtures';

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

/** The timeline's zoomed range, in calls. */
async function viewOf(chart: Locator): Promise<{ from: number; to: number }> {
  return {
    from: Number(await chart.getAttribute('data-view-from')),
    to: Number(await chart.getAttribute('data-view-to')),
  };
}

/** Entry index of the first transcript row fully inside the list's viewport. */
async function firstVisibleEntry(page: Page): Promise<number> {
  return page.getByTestId('transcript-list').evaluate((list) => {
    const top = list.getBoundingClientRect().top;
    const rows = [...list.querySelectorAll<HTMLElement>('[data-testid="transcript-row"]')];
    const first = rows
      .filter((r) => r.getBoundingClientRect().top >= top - 1)
      .sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top)[0];
    return Number(first?.dataset.entryIndex ?? -1);
  });
}

// One 34,000-call, 102,000-entry session for both the timeline and the transcript (they were two
// tests, each loading it). The 10 s limits are budgets: held under `npm run bench` only.
test('34,000 calls and 102,000 entries: a wheel zoom the transcript follows; only visible rows in the DOM, scrolling reaches the end', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  const file = testInfo.outputPath('big-100k.jsonl');
  writeBigSession(file, 34_000, 20); // 3 entries per call: call x starts at entry 3x + 1
  await openEmpty(page);
  await page.getByTestId('file-input').setInputFiles(file);
  await expect(page.getByTestId('session-header')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('stat-entries')).toContainText('102,000');
  const chart = page.getByTestId('timeline');
  await expect(chart).toHaveAttribute('data-calls', '34000', { timeout: 60_000 });
  await expect(page.getByTestId('transcript-row').first()).toBeVisible();
  expect(await page.getByTestId('transcript-row').count()).toBeLessThan(150);

  // Zoom: the wheel over the chart narrows it to under 1,000 calls; the transcript follows.
  const box = (await chart.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.7, box.y + box.height / 2);
  let started = Date.now();
  for (let k = 0; k < 30; k++) await page.mouse.wheel(0, -150);
  await expect.poll(async () => (await viewOf(chart)).to - (await viewOf(chart)).from).toBeLessThan(1_000);
  const zoomMs = Date.now() - started;
  const view = await viewOf(chart);
  await expect.poll(() => firstVisibleEntry(page)).toBe(3 * Math.ceil(view.from - 0.5) + 1);
  expect(await page.getByTestId('transcript-row').count()).toBeLessThan(150);

  // Scroll: twenty jumps down the list reach its last entry, still with few rows in the DOM.
  const list = page.getByTestId('transcript-list');
  started = Date.now();
  for (let k = 1; k <= 20; k++) {
    await list.evaluate((el, f) => {
      el.scrollTop = el.scrollHeight * f;
    }, k / 20);
  }
  await expect(page.locator('[data-testid="transcript-row"][data-entry-index="101999"]')).toBeVisible();
  const scrollMs = Date.now() - started;
  expect(await page.getByTestId('transcript-row').count()).toBeLessThan(150);
  testInfo.annotations.push({ type: 'big session', description: JSON.stringify({ zoomMs, scrollMs }) });
  if (TIMING_BUDGETS) {
    expect(zoomMs, 'wheel zoom to under 1,000 calls').toBeLessThan(10_000);
    expect(scrollMs, 'twenty scroll jumps to the last entry').toBeLessThan(10_000);
  }
});
