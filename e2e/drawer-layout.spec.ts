import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, SAMPLES_DIR, test } from './fixtures';

// The replay drawer (Knobs, Sweep, Compare) at 1280×720 and 1920×1080, what a tester found on the
// production build: every knob of every strategy (a custom one too) inside the drawer and the
// viewport, not past its right edge (the Microcompact group was 768 px wide in a 719 px drawer);
// Knobs alone exactly over the side panel, the transcript's toggle and columns left uncovered;
// Sweep and Compare widening the column with the transcript beside them, not under them; the
// Summaries dock, open, lying over the drawer.

const INDEX = path.join(SAMPLES_DIR, 'index.json');
const SHOTS = path.join(import.meta.dirname, '..', 'test-results', 'drawer-layout');
const SIZES = [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
] as const;

async function openSample(page: Page, size: { width: number; height: number }): Promise<void> {
  await page.setViewportSize(size);
  await page.goto('/');
  await expect(page.getByTestId('session-header')).toBeVisible();
  await expect(page.getByTestId('replay-section')).toHaveAttribute('data-busy', 'false');
}

/** The drawer's controls that do not lie inside it and the viewport, and whether it scrolls sideways. */
async function getOutside(drawer: Locator): Promise<{ sideways: boolean; outside: string[] }> {
  return drawer.evaluate((d) => {
    const box = d.getBoundingClientRect();
    const right = Math.min(box.right, window.innerWidth);
    const outside = [...d.querySelectorAll('input, select, textarea, button')]
      .filter((el) => el.getClientRects().length > 0)
      .flatMap((el) => {
        const r = el.getBoundingClientRect();
        const name = el.getAttribute('data-testid') ?? el.textContent?.trim() ?? el.tagName;
        return r.left < box.left - 0.5 || r.right > right + 0.5
          ? [
              `${name}: ${Math.round(r.left)}–${Math.round(r.right)} outside ${Math.round(box.left)}–${Math.round(right)}`,
            ]
          : [];
      });
    return { sideways: d.scrollWidth > d.clientWidth + 1, outside };
  });
}

/** The strategies the strip offers, the log's first. */
async function getStrategyIds(page: Page): Promise<string[]> {
  return page
    .getByTestId('replay-strategy')
    .locator('option')
    .evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value));
}

async function pickStrategy(page: Page, id: string): Promise<void> {
  await page.getByTestId('replay-strategy').selectOption(id);
  await expect(page.getByTestId('replay-section')).toHaveAttribute('data-strategy', id);
  await expect(page.getByTestId('replay-section')).toHaveAttribute('data-busy', 'false');
}

/** Right edge of what the transcript shows at its right end: its view toggle and its ctx column. */
async function getTranscriptRightEnd(page: Page): Promise<number> {
  const toggle = (await page.getByTestId('view-conversation').boundingBox())!;
  const ctx = (await page.locator('.t-header .t-ctx').boundingBox())!;
  return Math.max(toggle.x + toggle.width, ctx.x + ctx.width);
}

test.describe('the replay drawer', () => {
  test.skip(!fs.existsSync(INDEX), 'public/samples/index.json is not there yet (run the sample generator)');

  for (const size of SIZES) {
    test(`at ${size.width}×${size.height}: every strategy's knobs lie inside the drawer, which lies over the side panel`, async ({
      page,
    }) => {
      test.setTimeout(120_000);
      await openSample(page, size);
      const side = (await page.locator('.side-panel').boundingBox())!;
      await page.getByTestId('replay-knobs-toggle').click();
      const drawer = page.getByTestId('replay-drawer');
      await expect(drawer.getByTestId('replay-knobs')).toBeVisible();
      // Over the side panel's column, no wider: the transcript's toggle and columns stay uncovered.
      const box = (await drawer.boundingBox())!;
      expect(Math.abs(box.x - side.x), 'the drawer starts where the side panel does').toBeLessThanOrEqual(1);
      expect(box.x + box.width).toBeLessThanOrEqual(size.width + 0.5);
      expect(box.y + box.height).toBeLessThanOrEqual(size.height);
      expect(await getTranscriptRightEnd(page)).toBeLessThanOrEqual(box.x + 0.5);
      for (const id of await getStrategyIds(page)) {
        await pickStrategy(page, id);
        await expect(drawer.getByTestId('replay-knobs')).toBeVisible();
        expect(await getOutside(drawer), id).toEqual({ sideways: false, outside: [] });
      }
      await pickStrategy(page, 'claude-code');
      await page.screenshot({ path: path.join(SHOTS, `knobs-${size.width}.png`) });
    });
  }

  test('a custom strategy’s knobs lie inside the drawer too', async ({ page }) => {
    test.setTimeout(120_000);
    await openSample(page, SIZES[0]);
    await page.getByTestId('custom-open').click();
    await expect(page.getByTestId('custom-editor').locator('.monaco-editor')).toBeVisible({
      timeout: 30_000,
    });
    const before = await getStrategyIds(page);
    await page.getByTestId('custom-run').click();
    await expect(page.getByTestId('custom-table')).toBeVisible({ timeout: 60_000 });
    const custom = (await getStrategyIds(page)).filter((id) => !before.includes(id));
    expect(custom).toHaveLength(1);
    await page.getByTestId('custom-open').click();
    await expect(page.getByTestId('custom-strategy')).toHaveCount(0);
    await pickStrategy(page, custom[0]!);
    await page.getByTestId('replay-knobs-toggle').click();
    const drawer = page.getByTestId('replay-drawer');
    await expect(drawer.getByTestId('replay-knobs')).toBeVisible();
    expect(await getOutside(drawer)).toEqual({ sideways: false, outside: [] });
  });

  for (const size of SIZES) {
    test(`at ${size.width}×${size.height}: Compare and Sweep widen the column, the transcript beside them keeps its columns`, async ({
      page,
    }) => {
      test.setTimeout(120_000);
      await openSample(page, size);
      await page.getByTestId('replay-knobs-toggle').click();
      await page.getByTestId('compare-open').click();
      const panel = page.getByTestId('compare-panel');
      await panel.getByTestId('compare-run').click();
      await expect(panel).toHaveAttribute('data-running', 'false');
      await expect(panel.getByTestId('compare-row')).toHaveCount(3);
      await page.getByTestId('sweep-open').click();
      const drawer = page.getByTestId('replay-drawer');
      await expect(drawer.getByTestId('sweep-panel')).toBeVisible();
      const box = (await drawer.boundingBox())!;
      expect(box.width).toBeGreaterThanOrEqual(Math.min(720, size.width * 0.3) - 1);
      // The transcript narrows beside the drawer: its toggle, its columns and its rows in view.
      const list = (await page.getByTestId('transcript-list').boundingBox())!;
      expect(list.x + list.width).toBeLessThanOrEqual(box.x + 0.5);
      expect(list.width).toBeGreaterThanOrEqual(420 - 8);
      expect(await getTranscriptRightEnd(page)).toBeLessThanOrEqual(box.x + 0.5);
      // The view toggle does not lie over the kind chips nor the row count (it did at 1920).
      const toggle = (await page.locator('.transcript-view-toggle').boundingBox())!;
      for (const other of [
        page.getByTestId('filter-all'),
        page.getByTestId('filter-compaction'),
        page.getByTestId('row-count'),
      ]) {
        const o = (await other.boundingBox())!;
        const apart =
          o.x + o.width <= toggle.x + 0.5 ||
          toggle.x + toggle.width <= o.x + 0.5 ||
          o.y + o.height <= toggle.y + 0.5 ||
          toggle.y + toggle.height <= o.y + 0.5;
        expect(apart, `${await other.getAttribute('data-testid')} apart from the view toggle`).toBe(true);
      }
      const scroll = await page.evaluate(() => document.scrollingElement!.scrollHeight);
      expect(scroll, 'the page does not scroll').toBeLessThanOrEqual(size.height);
      expect(await getOutside(drawer)).toEqual({ sideways: false, outside: [] });
      // Compare's chart and table are reached by scrolling the drawer, each then inside it.
      for (const part of [panel.getByTestId('compare-chart'), panel.getByTestId('compare-row').last()]) {
        await part.scrollIntoViewIfNeeded();
        const b = (await part.boundingBox())!;
        const d = (await drawer.boundingBox())!;
        expect(b.y).toBeGreaterThanOrEqual(d.y - 0.5);
        expect(b.y + Math.min(b.height, d.height)).toBeLessThanOrEqual(d.y + d.height + 0.5);
      }
      // The compare table fits the drawer: it took 1,441 px in a 693 px drawer at 1280×720, its
      // right half reached only by scrolling it sideways. Every column, every figure, in view.
      const table = panel.getByTestId('compare-table');
      await table.scrollIntoViewIfNeeded();
      const fit = await table.evaluate((t) => {
        const wrap = t.parentElement!;
        const box = wrap.getBoundingClientRect();
        const cells = [...t.querySelectorAll('th, td')];
        return {
          sideways: wrap.scrollWidth > wrap.clientWidth + 1,
          outside: cells.filter((c) => {
            const r = c.getBoundingClientRect();
            return r.left < box.left - 0.5 || r.right > box.right + 0.5;
          }).length,
          empty: [...t.querySelectorAll('td')].filter((c) => c.textContent!.trim() === '').length,
          columns: t.querySelectorAll('thead th').length,
        };
      });
      expect(fit).toEqual({ sideways: false, outside: 0, empty: 0, columns: 14 });
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await table
          .locator('..')
          .screenshot({ path: path.join(SHOTS, `compare-table-${size.width}-${scheme}.png`) });
      }
      await page.emulateMedia({ colorScheme: 'light' });
      await page.screenshot({ path: path.join(SHOTS, `compare-sweep-${size.width}.png`) });
    });
  }

  test('the Summaries dock, opened with the drawer open, lies over it; closing it shows the drawer again', async ({
    page,
  }) => {
    await openSample(page, SIZES[0]);
    await page.getByTestId('replay-knobs-toggle').click();
    await page.getByTestId('compare-open').click();
    const drawer = page.getByTestId('replay-drawer');
    await expect(drawer.getByTestId('compare-panel')).toBeVisible();
    const box = (await drawer.boundingBox())!;
    await page.getByTestId('summaries-toggle').click();
    await expect(page.getByTestId('point-select')).toBeVisible();
    // Whatever lies where the drawer was is the dock's.
    const points = [
      [box.x + 10, box.y + 10],
      [box.x + box.width / 2, box.y + box.height / 2],
      [box.x + box.width - 10, box.y + box.height - 10],
    ];
    const inDock = await page.evaluate(
      (pts) => pts.map(([x, y]) => !!document.elementFromPoint(x!, y!)?.closest('.summaries-dock')),
      points,
    );
    expect(inDock).toEqual([true, true, true]);
    await page.screenshot({ path: path.join(SHOTS, 'dock-over-drawer.png') });
    // Escape closes the dock (the topmost), and the drawer is there as it was.
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('summaries-toggle')).toHaveAttribute('aria-expanded', 'false');
    await expect(drawer.getByTestId('compare-panel')).toBeVisible();
    await expect(drawer.getByTestId('replay-knobs')).toBeVisible();
  });
});
