import fs from 'node:fs';
import path from 'node:path';
import { expect, SAMPLES_DIR, test } from './fixtures';

// Issue 21 item 4: "index -3 is out of range (length 380)" when the compare table widened the
// page. Every strategy compared on the sample at 1280×720, then at widths on both sides, the
// pointer swept over the timeline and the compare chart at each: no page error, no error screen.

const INDEX = path.join(SAMPLES_DIR, 'index.json');

test.describe('compare with every strategy, page widened and narrowed', () => {
  test.skip(!fs.existsSync(INDEX), 'public/samples/index.json is not there yet (run the sample generator)');

  test('hovering the charts at every width raises nothing', async ({ page }, testInfo) => {
    test.setTimeout(120_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto('/');
    await expect(page.getByTestId('session-header')).toBeVisible();
    await expect(page.getByTestId('replay-section')).toHaveAttribute('data-busy', 'false');
    await page.getByTestId('compare-open').click();
    const panel = page.getByTestId('compare-panel');
    await expect(panel).toBeVisible();
    const picks = panel.getByTestId('compare-pick');
    for (let i = 0; i < (await picks.count()); i++) await picks.nth(i).check();
    await panel.getByTestId('compare-run').click();
    await expect(panel).toHaveAttribute('data-running', 'false');
    const count = await picks.count();
    await expect(panel.getByTestId('compare-row')).toHaveCount(count);
    // Cost against compactions: a point per strategy, at the table's cost and compaction count.
    const points = panel.getByTestId('compare-cost-point');
    await expect(points).toHaveCount(count);
    const table = await panel
      .getByTestId('compare-row')
      .evaluateAll((rows) => rows.map((r) => [r.getAttribute('data-strategy'), r.getAttribute('data-cost')]));
    const chart = await points.evaluateAll((ps) =>
      ps.map((p) => [p.getAttribute('data-strategy'), p.getAttribute('data-cost')]),
    );
    expect(chart).toEqual(table);
    const own = points.and(page.locator('[data-strategy="claude-code"]'));
    expect(Number(await own.getAttribute('data-compactions'))).toBeGreaterThan(0);
    // Every strategy's row: wider than the drawer if its figures are, the strategy column stays
    // in view when the figures are scrolled to their end, each row still saying whose it is.
    const wrap = panel.getByTestId('compare-table').locator('..');
    await wrap.scrollIntoViewIfNeeded();
    await wrap.evaluate((w) => {
      w.scrollLeft = w.scrollWidth;
    });
    const sticky = await wrap.evaluate((w) => {
      const box = w.getBoundingClientRect();
      return [...w.querySelectorAll('td[data-col="strategy"]')].map((c) => {
        const r = c.getBoundingClientRect();
        return r.left >= box.left - 0.5 && r.right <= box.right + 0.5 && (c.textContent ?? '').length > 0;
      });
    });
    expect(sticky).toEqual(Array.from({ length: count }, () => true));
    await wrap.screenshot({ path: testInfo.outputPath('compare-table-all-scrolled.png') });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await panel.getByTestId('compare-cost-chart').scrollIntoViewIfNeeded();
      await page.screenshot({ path: testInfo.outputPath(`compare-cost-${scheme}.png`) });
    }
    await page.emulateMedia({ colorScheme: 'light' });

    for (const width of [1280, 2400, 800, 1280]) {
      await page.setViewportSize({ width, height: 720 });
      for (const target of [page.getByTestId('timeline'), panel]) {
        const box = await target.first().boundingBox();
        if (!box) continue;
        const y = box.y + Math.min(box.height - 4, 120);
        for (let x = box.x - 20; x < box.x + box.width + 20; x += 23) await page.mouse.move(x, y);
        await page.mouse.move(0, 0);
      }
      expect(errors, `at ${width}px`).toEqual([]);
      await expect(page.getByTestId('session-header')).toBeVisible();
    }
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.screenshot({ path: testInfo.outputPath('compare-all-1280.png') });
  });

  // The cause: a timeline squeezed narrower than its axis padding (0 px while the wide table laid
  // the page out) had a negative plot width; the replay line's decimation step came out negative
  // and walked the replay's calls backwards from 0 (-3 at 0 px on the sample's 380 calls).
  for (const widthPx of [0, 1, 30, 66]) {
    test(`a timeline ${widthPx} px wide draws the replay without an error`, async ({ page }) => {
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.setViewportSize({ width: 1280, height: 720 });
      await page.goto('/');
      await expect(page.getByTestId('replay-section')).toHaveAttribute('data-busy', 'false');
      await page.addStyleTag({
        content: `[data-testid="timeline"] { width: ${widthPx}px !important; min-width: 0 !important; flex: none !important; }`,
      });
      await expect(page.getByTestId('timeline')).toHaveJSProperty('clientWidth', widthPx);
      await page.waitForTimeout(300);
      await page.setViewportSize({ width: 1600, height: 720 });
      await page.waitForTimeout(300);
      expect(errors).toEqual([]);
      await expect(page.getByTestId('session-header')).toBeVisible();
    });
  }
});
