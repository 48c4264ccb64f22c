import fs from 'node:fs';
import path from 'node:path';
import { writeBigSession } from './big-session';
import { CORPUS_FILE, dropFiles, expect, openEmpty, SAMPLES_DIR, test } from './fixtures';

// The knob sweep: the replay re-run in the worker for each value of one knob, with progress and
// cancel; a value's button sets the knob and the main replay follows.

const INDEX = path.join(SAMPLES_DIR, 'index.json');

test.describe('knob sweep', () => {
  test('sweeps the auto-compact % on the sample; a value sets the knob', async ({ page }) => {
    test.skip(!fs.existsSync(INDEX), 'public/samples/index.json is not there yet (run the sample generator)');
    await page.goto('/');
    await expect(page.getByTestId('session-header')).toBeVisible();
    await expect(page.getByTestId('replay-compare')).toBeVisible();
    await page.getByTestId('sweep-open').click();
    await page.getByTestId('sweep-knob').selectOption('autocompactPctOverride');
    await page.getByTestId('sweep-from').fill('30');
    await page.getByTestId('sweep-to').fill('100');
    await page.getByTestId('sweep-steps').fill('15');
    await page.getByTestId('sweep-run').click();

    const rows = page.getByTestId('sweep-row');
    await expect(rows).toHaveCount(15);
    await expect(page.getByTestId('sweep-chart')).toHaveAttribute('data-points', '15');
    await expect(page.getByTestId('sweep-progress')).toHaveCount(0);
    const values = await rows.evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-value'))));
    expect(values[0]).toBe(30);
    expect(values[values.length - 1]).toBe(100);
    // A higher threshold never compacts more.
    const fired = await rows.evaluateAll((els) =>
      els.map((el) => Number(el.getAttribute('data-compactions'))),
    );
    for (let i = 1; i < fired.length; i++) expect(fired[i]!).toBeLessThanOrEqual(fired[i - 1]!);
    expect(fired[0]!).toBeGreaterThan(fired[fired.length - 1]!);

    // Each value's cost at list prices (issue 21), the cheapest marked once, its line on the chart.
    const costs = await rows.evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-cost'))));
    for (const c of costs) expect(c).toBeGreaterThan(0);
    await expect(page.locator('[data-testid="sweep-row"][data-cheapest="true"]')).toHaveCount(1);
    await expect(page.getByTestId('sweep-cost-line')).toHaveCount(1);
    await expect(page.getByTestId('sweep-cheapest')).toContainText(`$${Math.min(...costs).toFixed(2)}`);

    // 50%: the knobs bar shows it and the main replay runs it (the sweep's figure).
    const row = page.locator('[data-testid="sweep-row"][data-value="50"]');
    const expected = await row.getAttribute('data-compactions');
    const expectedCost = await row.getAttribute('data-cost');
    await row.getByRole('button').click();
    await expect(page.getByTestId('knob-pct')).toHaveValue('50');
    await expect(row).toHaveClass(/current/);
    await expect(page.getByTestId('replay-event-count')).toContainText(`${expected} compactions`);
    await expect(page.getByTestId('replay-section')).toHaveAttribute('data-busy', 'false');
    await expect(page.getByTestId('threshold-autocompact')).toHaveAttribute('data-value', '84000');
    // The strip shows the same cost beside the real one.
    await expect(page.getByTestId('replay-cost')).toHaveAttribute('data-usd', expectedCost!);
    await expect(page.getByTestId('replay-cost')).toContainText(/cost \$[\d.]+ · real \$[\d.]+/);
    // The sweep froze its knobs: the result stays.
    await expect(rows).toHaveCount(15);
  });

  test('a long sweep shows progress and can be cancelled', async ({ page }, testInfo) => {
    test.setTimeout(120_000);
    const file = testInfo.outputPath('big-sweep.jsonl');
    writeBigSession(file, 20_000, 40);
    await openEmpty(page);
    await page.getByTestId('file-input').setInputFiles(file);
    await expect(page.getByTestId('session-header')).toBeVisible({ timeout: 60_000 });
    await expect(page.getByTestId('replay-event-count')).toBeVisible({ timeout: 30_000 });
    await page.getByTestId('sweep-open').click();
    await page.getByTestId('sweep-knob').selectOption('contextWindow');
    await page.getByTestId('sweep-from').fill('100000');
    await page.getByTestId('sweep-to').fill('1000000');
    await page.getByTestId('sweep-steps').fill('200');
    await page.getByTestId('sweep-run').click();

    const progress = page.getByTestId('sweep-progress');
    await expect(progress).toBeVisible();
    await expect(async () =>
      expect(Number(await progress.getAttribute('data-done'))).toBeGreaterThan(0),
    ).toPass();
    expect(await progress.getAttribute('data-total')).toBe('200');
    await page.getByTestId('sweep-cancel').click();
    await expect(progress).toHaveCount(0);
    await expect(page.getByTestId('sweep-notice')).toContainText(/Cancelled after \d+ of 200 values/);
    await expect(page.getByTestId('sweep-row')).toHaveCount(0);
    // The worker is free again: the main replay still answers a knob change.
    await page.getByTestId('knob-pct').fill('60');
    await expect(page.getByTestId('replay-section')).toHaveAttribute('data-busy', 'false');
    await expect(page.getByTestId('sweep-run')).toBeEnabled();
  });

  // A real session's sweep, read as a person would at the two common screen sizes: each value's
  // row was three lines tall ("API call 1" and "6 of 6" wrapped in the drawer's 693 px; three rows
  // in view of the 190 px table) and its cost lay past the right edge, behind a sideways scroll.
  for (const { width, height, scheme } of [
    { width: 1280, height: 720, scheme: 'light' as const },
    { width: 1920, height: 1080, scheme: 'dark' as const },
  ]) {
    test(`a real session's sweep table: one line a value, its cost in view (${width}×${height}, ${scheme})`, async ({
      page,
    }) => {
      test.skip(!fs.existsSync(CORPUS_FILE), `corpus file not found at ${CORPUS_FILE}`);
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme: scheme });
      await openEmpty(page);
      await dropFiles(page, [
        { name: path.basename(CORPUS_FILE), content: fs.readFileSync(CORPUS_FILE, 'utf8') },
      ]);
      await expect(page.getByTestId('session-header')).toBeVisible();
      await page.getByTestId('sweep-open').click();
      await page.getByTestId('sweep-knob').selectOption('autocompactPctOverride');
      await page.getByTestId('sweep-from').fill('1');
      await page.getByTestId('sweep-to').fill('100');
      await page.getByTestId('sweep-steps').fill('20');
      await page.getByTestId('sweep-run').click();
      const rows = page.getByTestId('sweep-row');
      await expect(rows).toHaveCount(20, { timeout: 60_000 });
      const layout = await page.evaluate(() => {
        const wrap = document.querySelector('.sweep-table-wrap')!.getBoundingClientRect();
        const rowEls = [...document.querySelectorAll('[data-testid="sweep-row"]')];
        const lineHeightPx = Number.parseFloat(getComputedStyle(rowEls[0]!.querySelector('td')!).lineHeight);
        const costIndex = [...document.querySelectorAll('.sweep-table th')].findIndex(
          (th) => th.textContent?.trim() === 'cost',
        );
        return {
          lineHeightPx,
          rowHeightsPx: rowEls.map((r) => r.getBoundingClientRect().height),
          costRightPx: rowEls.map((r) => r.children[costIndex]!.getBoundingClientRect().right),
          wrapRightPx: wrap.right,
          firstCalls: rowEls.map((r) => r.lastElementChild!.textContent),
        };
      });
      for (const h of layout.rowHeightsPx) expect(h).toBeLessThan(1.5 * layout.lineHeightPx + 4);
      for (const right of layout.costRightPx) expect(right).toBeLessThanOrEqual(layout.wrapRightPx);
      // The first compaction's call under its column's name, a number alone.
      for (const call of layout.firstCalls) expect(call).toMatch(/^(\d[\d,]*|–)$/);
      await expect(rows.first()).toHaveAttribute('data-cost', /\d/);
    });
  }

  // A real Cline task on a model with no list price: the replay strip said "cost: no list price for
  // the log's 220 calls" and the sweep's cost column "$0.000" on every value.
  test("a session on a model with no list price: the sweep's cost says so, as the strip does", async ({
    page,
  }) => {
    const file = path.join(CORPUS_FILE, '../../mike4567__MRA04242026/api_conversation_history.json');
    test.skip(!fs.existsSync(file), `corpus file not found at ${file}`);
    await openEmpty(page);
    await dropFiles(page, [{ name: path.basename(file), content: fs.readFileSync(file, 'utf8') }]);
    await expect(page.getByTestId('replay-cost')).toContainText("no list price for the log's 220 calls");
    await page.getByTestId('sweep-open').click();
    await page.getByTestId('sweep-knob').selectOption('contextWindow');
    await page.getByTestId('sweep-from').fill('100000');
    await page.getByTestId('sweep-to').fill('200000');
    await page.getByTestId('sweep-steps').fill('3');
    await page.getByTestId('sweep-run').click();
    const rows = page.getByTestId('sweep-row');
    await expect(rows).toHaveCount(3, { timeout: 60_000 });
    const costs = await page.evaluate(() => {
      const index = [...document.querySelectorAll('.sweep-table th')].findIndex(
        (th) => th.textContent?.trim() === 'cost',
      );
      return [...document.querySelectorAll('[data-testid="sweep-row"]')].map((r) => {
        const cell = r.children[index] as HTMLElement;
        return { text: cell.textContent, title: cell.title };
      });
    });
    for (const c of costs) {
      expect(c.text).toBe('no price');
      expect(c.title).toBe("No list price for the log's 220 calls");
    }
    await expect(page.getByTestId('sweep-cheapest')).toHaveCount(0);
    await expect(page.getByTestId('sweep-cost-line')).toHaveCount(0);

    // Compare, the same: its table says "no price" and no cost chart is drawn (it drew four points
    // and "the log's real cost $0.000" on a $0–$1 axis).
    await page.getByTestId('compare-open').click();
    const panel = page.getByTestId('compare-panel');
    await expect(panel.getByTestId('compare-row')).toHaveCount(3, { timeout: 60_000 });
    await expect(panel).toHaveAttribute('data-running', 'false');
    for (const cell of await panel.locator('[data-testid="compare-row"] td[data-col="cost"]').all())
      await expect(cell).toHaveText('no price');
    await expect(panel.getByTestId('compare-cost-chart')).toHaveCount(0);
  });
});
