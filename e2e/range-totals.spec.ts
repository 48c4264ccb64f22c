import fs from 'node:fs';
import path from 'node:path';
import { expect, SAMPLES_DIR, test } from './fixtures';

// Issue 24 item 9: a range selected on the timeline (shift-drag) shows its totals (calls, tokens,
// cost) in the legend row, at 1280×720 in light and dark; reset zoom puts the hint back.
// The figures themselves are checked against the raw records in tests/cost/range-totals.test.ts.

test.skip(!fs.existsSync(path.join(SAMPLES_DIR, 'index.json')), 'no bundled sample');

for (const scheme of ['light', 'dark'] as const) {
  test(`a shift-drag range shows its calls, tokens and cost (${scheme})`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto('/');
    await expect(page.getByTestId('session-header')).toBeVisible();
    const chart = page.getByTestId('timeline');
    await expect(page.getByTestId('range-totals')).toHaveCount(0);
    const box = (await chart.boundingBox())!;
    await page.keyboard.down('Shift');
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await page.keyboard.up('Shift');
    const range = await page.getByTestId('timeline-range').textContent();
    const [, first, last] = /calls ([\d,]+)–([\d,]+) of/
      .exec(range ?? '')!
      .map((s) => Number(s.replace(/,/g, '')));
    expect(last! - first!).toBeGreaterThan(20);
    const totals = page.getByTestId('range-totals');
    await expect(totals).toBeVisible();
    await expect(totals).toHaveAttribute('data-calls', /\d+/);
    const calls = Number(await totals.getAttribute('data-calls'));
    expect(calls).toBeGreaterThanOrEqual(last! - first! + 1);
    await expect(page.getByTestId('range-calls')).toHaveText(calls.toLocaleString('en-US'));
    await expect(page.getByTestId('range-cost')).toHaveText(/^\$\d+\.\d\d$/);
    await expect(totals).toHaveAttribute('title', new RegExp(`Calls ${first}–${last} shown`));
    // Wholly visible in the legend row, not cut, not over the legend's items.
    const t = (await totals.boundingBox())!;
    const legend = (await page.getByTestId('timeline-legend').boundingBox())!;
    const items = (await page.getByTestId('timeline-legend-items').boundingBox())!;
    expect(t.y).toBeGreaterThanOrEqual(legend.y - 1);
    expect(t.y + t.height).toBeLessThanOrEqual(legend.y + legend.height + 1);
    // Beside the legend's items or above them, never over them.
    expect(t.x + t.width <= items.x + 1 || t.y + t.height <= items.y + 1).toBe(true);
    // The legend's items still end inside the page.
    expect(items.x + items.width).toBeLessThanOrEqual(1280);
    expect(await totals.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    await page.screenshot({ path: testInfo.outputPath(`range-totals-${scheme}.png`) });
    await page.getByTestId('timeline-reset-zoom').click();
    await expect(totals).toHaveCount(0);
  });
}
