import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { makeDenseSession } from './dense-session';
import { dropFiles, expect, openEmpty, REPO_ROOT, test } from './fixtures';
import { expectWindowLabelClear } from './window-label';

// The timeline in dense sessions: zoom/pan with the transcript following, clustered markers that
// stay inside the chart, a legend, resizable panels, and ≥ 12 transcript rows at 1280×720.

const DENSE_CORPUS = path.join(
  REPO_ROOT,
  '../shared/corpus/LAF-US__IDAHO-VAULT/claude__projects__c--Users-loganf-Documents-IDAHO-VAULT__05541cb5-fe43-41c9-87ef-2a6d89bba271.jsonl',
);

/** Bursts of compactions a few calls apart, and single ones far apart: 400 calls, 13 compactions. */
const DENSE = makeDenseSession(400, [20, 21, 22, 23, 24, 25, 100, 101, 102, 250, 251, 330, 390]);

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

/** Every marker and cluster box lies inside the chart's box. */
async function expectMarkersInsideChart(page: Page): Promise<number> {
  const chart = await page.getByTestId('timeline').boundingBox();
  const boxes = await page
    .locator(
      '[data-testid="compaction-marker"], [data-testid="compaction-cluster"], [data-testid="replay-marker"], [data-testid="replay-cluster"]',
    )
    .evaluateAll((els) =>
      els.map((el) => {
        const r = el.getBoundingClientRect();
        return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
      }),
    );
  for (const b of boxes) {
    expect(b.left).toBeGreaterThanOrEqual(chart!.x);
    expect(b.right).toBeLessThanOrEqual(chart!.x + chart!.width);
    expect(b.top).toBeGreaterThanOrEqual(chart!.y);
    expect(b.bottom).toBeLessThanOrEqual(chart!.y + chart!.height);
  }
  return boxes.length;
}

async function openDense(page: Page): Promise<void> {
  await openEmpty(page);
  await dropFiles(page, [{ name: 'dense.jsonl', content: DENSE.text }]);
  await expect(page.getByTestId('session-header')).toBeVisible();
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-calls', '400');
}

test('at 1280×720 the transcript shows at least 12 rows', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/');
  await expect(page.getByTestId('session-header')).toBeVisible();
  await expect(page.getByTestId('transcript-row').first()).toBeVisible();
  await expect(page.getByTestId('timeline-legend')).toBeVisible();
  // The sample's first-run line (one line, dismissed once: e2e/help.spec.ts) dismissed, as after a first visit.
  await page.getByTestId('first-run-dismiss').click();
  const rows = await page.getByTestId('transcript-list').evaluate((list) => {
    const box = list.getBoundingClientRect();
    return [...list.querySelectorAll('[data-testid="transcript-row"]')].filter((r) => {
      const b = r.getBoundingClientRect();
      return b.top >= box.top - 0.5 && b.bottom <= box.bottom + 0.5;
    }).length;
  });
  expect(rows).toBeGreaterThanOrEqual(12);
});

test('wheel, keys and a shift-drag brush zoom and pan; the transcript follows', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openDense(page);
  const chart = page.getByTestId('timeline');
  expect(await viewOf(chart)).toEqual({ from: 0, to: 400 });
  await expect(page.getByTestId('timeline-reset-zoom')).toBeDisabled();

  // Wheel up over the middle of the plot zooms in around the pointer.
  const box = (await chart.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2);
  for (let k = 0; k < 5; k++) await page.mouse.wheel(0, -200);
  await expect.poll(async () => (await viewOf(chart)).to - (await viewOf(chart)).from).toBeLessThan(200);
  const zoomed = await viewOf(chart);
  expect(zoomed.from).toBeGreaterThan(0);
  expect(zoomed.to).toBeLessThan(400);
  await expect(page.getByTestId('timeline-range')).toContainText('of 400');
  // The transcript shows the first call of the visible range.
  const firstCall = Math.ceil(zoomed.from - 0.5);
  await expect.poll(() => firstVisibleEntry(page)).toBe(DENSE.callLines[firstCall]);

  // Keys, with the chart focused: → pans right, + zooms in, 0 resets.
  await chart.focus();
  await expect(chart).toBeFocused();
  await page.keyboard.press('ArrowRight');
  const panned = await viewOf(chart);
  expect(panned.from).toBeGreaterThan(zoomed.from);
  expect(panned.to - panned.from).toBeCloseTo(zoomed.to - zoomed.from, 1);
  await expect.poll(() => firstVisibleEntry(page)).toBe(DENSE.callLines[Math.ceil(panned.from - 0.5)]);
  await page.keyboard.press('+');
  const inner = await viewOf(chart);
  expect(inner.to - inner.from).toBeLessThan(panned.to - panned.from);
  await page.keyboard.press('-');
  expect((await viewOf(chart)).to - (await viewOf(chart)).from).toBeGreaterThan(inner.to - inner.from);
  await page.keyboard.press('0');
  expect(await viewOf(chart)).toEqual({ from: 0, to: 400 });
  await expect.poll(() => firstVisibleEntry(page)).toBe(0);

  // Shift-drag selects a range.
  await page.keyboard.down('Shift');
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.4, box.y + box.height / 2, { steps: 5 });
  await expect(page.getByTestId('timeline-brush')).toBeVisible();
  await page.mouse.up();
  await page.keyboard.up('Shift');
  const brushed = await viewOf(chart);
  expect(brushed.from).toBeGreaterThan(90);
  expect(brushed.to).toBeLessThan(170);

  // A plain drag pans; the reset control returns to all calls.
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  const dragged = await viewOf(chart);
  expect(dragged.from).toBeGreaterThan(brushed.from);

  // A click on the overview strip centres the view there; a drag on it selects a range.
  const overview = (await page.getByTestId('timeline-overview').boundingBox())!;
  await page.mouse.click(overview.x + overview.width * 0.8, overview.y + overview.height / 2);
  const centred = await viewOf(chart);
  expect((centred.from + centred.to) / 2).toBeCloseTo(320, -1);
  expect(centred.to - centred.from).toBeCloseTo(dragged.to - dragged.from, 1);
  await page.mouse.move(overview.x + overview.width * 0.1, overview.y + overview.height / 2);
  await page.mouse.down();
  await page.mouse.move(overview.x + overview.width * 0.25, overview.y + overview.height / 2, { steps: 4 });
  await page.mouse.up();
  const selected = await viewOf(chart);
  expect(selected.from).toBeCloseTo(40, -1);
  expect(selected.to).toBeCloseTo(100, -1);

  await page.getByTestId('timeline-reset-zoom').click();
  expect(await viewOf(chart)).toEqual({ from: 0, to: 400 });
});

test('a dense generated session clusters overlapping markers, all inside the chart', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openDense(page);
  const clusters = page.getByTestId('compaction-cluster');
  await expect(clusters.first()).toBeVisible();
  const counts = await clusters.evaluateAll((els) =>
    els.map((el) => Number((el as HTMLElement).dataset.count)),
  );
  const singles = await page.getByTestId('compaction-marker').count();
  expect(counts.every((c) => c >= 2)).toBe(true);
  // Every compaction is shown exactly once, as a marker or inside a cluster.
  expect(counts.reduce((a, b) => a + b, 0) + singles).toBe(DENSE.compactions);
  // The burst of 6 after calls 21–26 is one cluster whose box shows its count.
  expect(counts).toContain(6);
  await expect(clusters.first()).toContainText('6');
  await expectMarkersInsideChart(page);
  await expect(page.getByTestId('timeline-legend-items')).toContainText('auto');
  await expect(page.getByTestId('timeline-legend-items')).toContainText('blocked');
  await expect(page.getByTestId('legend-failed-request')).toHaveCount(0);
  // Markers this dense leave the window's label no gap: it is left out rather than under them.
  await expectWindowLabelClear(page);

  // The cluster lists its members; each opens its compaction card.
  await clusters.first().click();
  const list = page.getByTestId('marker-cluster-list');
  await expect(list.locator('li')).toHaveCount(6);
  await list.locator('li button').nth(2).click();
  await expect(page.getByTestId('compaction-card')).toBeVisible();
  await page.keyboard.press('Escape');

  // "Zoom to these" spreads the cluster into single markers.
  await clusters.first().click();
  await page.getByTestId('marker-cluster-zoom').click();
  await expect(page.locator('[data-testid="compaction-marker"]')).toHaveCount(6);
  await expect(clusters).toHaveCount(0);
  await expectMarkersInsideChart(page);

  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.getByTestId('timeline-reset-zoom').click();
  await expectMarkersInsideChart(page);
});

test('dragging the splitter changes the chart height, and it is remembered', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openDense(page);
  const chart = page.getByTestId('timeline');
  const before = (await chart.boundingBox())!.height;
  const splitter = (await page.getByTestId('chart-splitter').boundingBox())!;
  await page.mouse.move(splitter.x + 200, splitter.y + splitter.height / 2);
  await page.mouse.down();
  await page.mouse.move(splitter.x + 200, splitter.y + 60, { steps: 4 });
  await page.mouse.up();
  await expect.poll(async () => (await chart.boundingBox())!.height).toBeCloseTo(before + 58, -1);
  const after = (await chart.boundingBox())!.height;

  // The side panel splitter narrows the side panel.
  const side = page.locator('.side-panel');
  const sideBefore = (await side.boundingBox())!.width;
  const sideSplitter = (await page.getByTestId('side-splitter').boundingBox())!;
  await page.mouse.move(sideSplitter.x + 2, sideSplitter.y + 100);
  await page.mouse.down();
  await page.mouse.move(sideSplitter.x + 82, sideSplitter.y + 100, { steps: 4 });
  await page.mouse.up();
  await expect.poll(async () => (await side.boundingBox())!.width).toBeCloseTo(sideBefore - 80, -1);

  await openDense(page);
  expect((await page.getByTestId('timeline').boundingBox())!.height).toBeCloseTo(after, 0);
});

test('a context far under its window: the height fits it on demand, from the keyboard too', async ({
  page,
}) => {
  // The bundled sample climbs to its thresholds: nothing to fit.
  await page.goto('/');
  await expect(page.getByTestId('session-header')).toBeVisible();
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-calls', /[1-9]/);
  await expect(page.getByTestId('timeline-fit-height')).toHaveCount(0);

  // A Gemini CLI chat peaks at 10,100 tokens of a 1,048,576 window.
  const file = path.join(REPO_ROOT, 'tests/fixtures/agents/session-2026-03-09T10-00-1a2b3c4d.json');
  await dropFiles(page, [{ name: path.basename(file), content: fs.readFileSync(file, 'utf8') }]);
  const chart = page.getByTestId('timeline');
  await expect(chart).toHaveAttribute('data-window', '1048576');
  expect(Number(await chart.getAttribute('data-y-max'))).toBeGreaterThan(1_048_576);
  const fit = page.getByTestId('timeline-fit-height');
  await expect(fit).toHaveAttribute('aria-pressed', 'false');
  await fit.focus();
  await page.keyboard.press('Enter');
  await expect(fit).toHaveAttribute('aria-pressed', 'true');
  await expect(fit).toHaveText('show the window');
  const fitted = Number(await chart.getAttribute('data-y-max'));
  expect(fitted).toBeGreaterThanOrEqual(10_100);
  expect(fitted).toBeLessThan(20_000);
  await fit.click();
  expect(Number(await chart.getAttribute('data-y-max'))).toBeGreaterThan(1_048_576);
});

test.describe('a dense real session', () => {
  test.skip(!fs.existsSync(DENSE_CORPUS), `corpus file not found at ${DENSE_CORPUS}`);

  test('shows clustered markers with counts, none outside the chart', async ({ page }) => {
    for (const [width, height] of [
      [1280, 720],
      [1920, 1080],
    ] as const) {
      await page.setViewportSize({ width, height });
      await openEmpty(page);
      await dropFiles(page, [
        { name: path.basename(DENSE_CORPUS), content: fs.readFileSync(DENSE_CORPUS, 'utf8') },
      ]);
      await expect(page.getByTestId('session-header')).toBeVisible();
      const cluster = page.getByTestId('compaction-cluster');
      await expect(cluster.first()).toBeVisible();
      expect(Number(await cluster.first().getAttribute('data-count'))).toBeGreaterThanOrEqual(2);
      // With the replay on (the default), its event markers are placed too.
      await expect(
        page.locator('[data-testid="replay-marker"], [data-testid="replay-cluster"]').first(),
      ).toBeVisible();
      expect(await expectMarkersInsideChart(page)).toBeGreaterThan(2);
      // The legend's hint is cut where the legend is long ('wheel zoom · drag pa…' at 1280 px,
      // with no way to read the rest): its tooltip holds it whole.
      const hint = page.getByTestId('timeline-hint');
      const text = (await hint.textContent())!;
      expect(text).toContain('shift-drag select');
      await expect(hint).toHaveAttribute('title', text);
      if (width === 1280) expect(await hint.evaluate((e) => e.scrollWidth > e.clientWidth)).toBe(true);
    }
  });

  // Keyboard only, on the real session's four compactions after its first four calls (one box):
  // a member chosen with Enter left the focus on <body> (the next Tab started over at the top bar),
  // and Escape inside the list did nothing.
  test('a cluster from the keyboard: Escape closes its list, a member opens its card, focus stays on the box', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await openEmpty(page);
    await dropFiles(page, [
      { name: path.basename(DENSE_CORPUS), content: fs.readFileSync(DENSE_CORPUS, 'utf8') },
    ]);
    const box = page.getByTestId('compaction-cluster').first();
    await expect(box).toHaveAttribute('data-count', '4');
    const list = page.getByTestId('marker-cluster-list');
    const card = page.getByTestId('compaction-card');
    await box.focus();
    await page.keyboard.press('Enter');
    await expect(list).toBeVisible();
    await page.keyboard.press('Tab'); // "zoom to these"
    await page.keyboard.press('Tab'); // the first member
    await expect(list.locator('.cluster-item').first()).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(list).toHaveCount(0);
    await expect(box).toBeFocused();

    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab'); // the second member
    await page.keyboard.press('Enter');
    await expect(card).toContainText('Compaction 2 of 6');
    await expect(list).toHaveCount(0);
    await expect(box).toBeFocused();

    // With the card open, Escape on the reopened list closes the list alone; the next, the card.
    await page.keyboard.press('Enter');
    await expect(list).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(list).toHaveCount(0);
    await expect(card).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(card).toHaveCount(0);
    await expect(box).toBeFocused();

    // "Zoom to these" spreads the box: the chart takes the focus, its keys go on working.
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    const chart = page.getByTestId('timeline');
    await expect(chart).toBeFocused();
    const to = Number(await chart.getAttribute('data-view-to'));
    await page.keyboard.press('-');
    await expect.poll(async () => Number(await chart.getAttribute('data-view-to'))).toBeGreaterThan(to);
  });
});
