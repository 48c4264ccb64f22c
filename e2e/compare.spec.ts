import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, SAMPLES_DIR, test } from './fixtures';

// The compare view on the bundled sample: several strategies on the same transcript in the worker,
// one line each on one chart (colour, dash and number), their threshold lines and events, and the
// table the CLI prints; all of it from the keyboard. And the timeline's bars under another
// strategy carry that strategy's own names.

const INDEX = path.join(SAMPLES_DIR, 'index.json');

async function openSample(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.emulateMedia({ colorScheme: scheme });
  await page.goto('/');
  await expect(page.getByTestId('session-header')).toBeVisible();
  await expect(page.getByTestId('replay-section')).toHaveAttribute('data-busy', 'false');
}

test.describe('compare strategies', () => {
  test.skip(!fs.existsSync(INDEX), 'public/samples/index.json is not there yet (run the sample generator)');

  // Once, in the light palette: a dark twin asserted the same and was there for its screenshot
  // (the compare view is compared in visual.spec.ts).
  test('three strategies, three lines and the table', async ({ page }) => {
    await openSample(page, 'light');
    const open = page.getByTestId('compare-open');
    await open.focus();
    await page.keyboard.press('Enter');
    await expect(open).toHaveAttribute('aria-expanded', 'true');
    const panel = page.getByTestId('compare-panel');
    await expect(panel).toBeVisible();
    // It starts with the log's own strategy and two others, already run.
    const picks = panel.getByTestId('compare-pick');
    await expect(panel.locator('[data-testid="compare-pick"]:checked')).toHaveCount(3);
    await expect(panel.locator('[data-testid="compare-pick"][data-strategy="claude-code"]')).toBeChecked();
    await expect(panel.getByTestId('compare-row')).toHaveCount(3);

    // Pick Claude Code, Cline and boundary scoring, with the keyboard only.
    const wanted = ['claude-code', 'cline', 'boundary-scoring'];
    for (const id of await picks.evaluateAll((els) => els.map((e) => e.getAttribute('data-strategy')!))) {
      const box = panel.locator(`[data-testid="compare-pick"][data-strategy="${id}"]`);
      if ((await box.isChecked()) !== wanted.includes(id)) {
        await box.focus();
        await page.keyboard.press('Space');
      }
    }
    await expect(panel.locator('[data-testid="compare-pick"]:checked')).toHaveCount(3);
    await panel.getByTestId('compare-run').focus();
    await page.keyboard.press('Enter');
    await expect(panel).toHaveAttribute('data-running', 'false');

    const series = panel.getByTestId('compare-series');
    await expect(series).toHaveCount(3);
    expect(await series.evaluateAll((els) => els.map((e) => e.getAttribute('data-strategy')))).toEqual(
      wanted,
    );
    // One point per main call on each line, and dash patterns that differ.
    const points = await series.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-points'))));
    expect(new Set(points).size).toBe(1);
    expect(points[0]).toBeGreaterThan(10);
    const dashes = await panel
      .locator('.strat-line')
      .evaluateAll((els) => els.map((e) => getComputedStyle(e).strokeDasharray));
    expect(new Set(dashes).size).toBe(3);
    // Each strategy's threshold lines, in its colour.
    for (const id of wanted)
      await expect(
        panel.locator(`[data-testid="compare-threshold"][data-strategy="${id}"]`).first(),
      ).toBeAttached();
    await expect(
      panel.locator('[data-testid="compare-threshold"][data-strategy="cline"][data-value="160000"]'),
    ).toHaveCount(1);
    // Events on their lines: the sample's one compaction under Claude Code, Cline's truncation.
    await expect(
      panel.locator(
        '[data-testid="compare-series"][data-strategy="claude-code"] [data-testid="compare-event"][data-kind="compact"]',
      ),
    ).toHaveCount(1);
    await expect(
      panel
        .locator(
          '[data-testid="compare-series"][data-strategy="cline"] [data-testid="compare-event"][data-kind="truncate"]',
        )
        .first(),
    ).toBeAttached();

    // The table: the CLI's columns, one row per strategy.
    const rows = panel.getByTestId('compare-row');
    await expect(rows).toHaveCount(3);
    await expect(panel.getByTestId('compare-table').locator('th[data-col="llm"]')).toHaveText('LLM calls');
    const claude = panel.locator('[data-testid="compare-row"][data-strategy="claude-code"]');
    await expect(claude.locator('td[data-col="real"]')).toHaveText('1/1');
    await expect(claude).toHaveAttribute('data-llm-calls', '1');
    await expect(
      panel.locator('[data-testid="compare-row"][data-strategy="boundary-scoring"]'),
    ).toHaveAttribute('data-llm-calls', '0');
    // Every row says how many of the log's real compactions its strategy reproduces, as the strip
    // says under that strategy (Cline truncates instead: none of the sample's one).
    await expect(
      panel.locator('[data-testid="compare-row"][data-strategy="cline"] td[data-col="real"]'),
    ).toHaveText('0/1');
    // Cost columns (issue 21): each strategy's replayed cost, the same real cost on every row.
    await expect(panel.getByTestId('compare-table').locator('th[data-col="cost"]')).toHaveText('cost');
    const realCosts = await rows.evaluateAll((els) => els.map((el) => el.getAttribute('data-real-cost')));
    expect(new Set(realCosts).size).toBe(1);
    expect(Number(realCosts[0])).toBeGreaterThan(0);
    await expect(claude.locator('td[data-col="cost"]')).toHaveText(/^\$[\d.]+$/);
    await panel.scrollIntoViewIfNeeded();

    // Escape closes the view.
    await page.keyboard.press('Escape');
    await expect(panel).toHaveCount(0);
  });

  test('the timeline’s bars are the selected strategy’s, under its names', async ({ page }) => {
    await openSample(page, 'dark');
    await expect(page.getByTestId('threshold-autocompact')).toHaveText(/^auto-compact /);
    await page.getByTestId('replay-strategy').selectOption('cline');
    const bar = page.getByTestId('threshold-maxallowed');
    await expect(bar).toHaveAttribute('data-value', '160000');
    await expect(bar).toHaveText('maxAllowedSize 160,000');
    await expect(page.getByTestId('threshold-autocompact')).toHaveCount(0);
    await expect(page.getByTestId('threshold-blocking')).toHaveCount(0);
    await page.getByTestId('replay-strategy').selectOption('claude-code');
    await expect(page.getByTestId('threshold-autocompact')).toBeVisible();
    await expect(page.getByTestId('threshold-maxallowed')).toHaveCount(0);
  });
});
