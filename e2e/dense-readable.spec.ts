import type { Page } from '@playwright/test';
import { makeDenseSession } from './dense-session';
import { dropFiles, expect, openEmpty, test } from './fixtures';

// Dense sessions read at 1280×720, as a tester walking the page found them: a compaction every
// five calls to the last one, so the marker lane is full from edge to edge.

/** 400 calls, a compaction after every fifth: 80 compactions (boxes 15 px apart: clustered), the last at the right edge. */
const DENSE = makeDenseSession(
  400,
  Array.from({ length: 80 }, (_, k) => k * 5 + 4),
);

async function openDense(page: Page): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openEmpty(page);
  await dropFiles(page, [{ name: 'dense.jsonl', content: DENSE.text }]);
  await expect(page.getByTestId('session-header')).toBeVisible();
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-calls', '400');
  await expect(page.getByTestId('replay-section')).toHaveAttribute('data-busy', 'false');
}

interface Box {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

test('a threshold label near the top goes under the marker lane, not behind its buttons', async ({
  page,
}) => {
  // "blocking 197k", 7 px above its line at the plot's top edge, reached into the marker lane and
  // was drawn behind the compaction buttons standing there (three of them over it).
  await openDense(page);
  const timeline = page.getByTestId('timeline');
  await expect(timeline).toHaveAttribute('data-threshold-labels', /blocking/);
  const { labels, buttons } = await timeline.evaluate((tl) => {
    const canvas = tl.querySelector('canvas')!.getBoundingClientRect();
    const sel =
      '[data-testid="compaction-marker"], [data-testid="compaction-cluster"], [data-testid="replay-marker"], [data-testid="replay-cluster"]';
    return {
      labels: JSON.parse(tl.getAttribute('data-threshold-labels')!) as ({
        text: string;
        folded: boolean;
      } & Box)[],
      buttons: [...tl.querySelectorAll(sel)].map((e) => {
        const r = e.getBoundingClientRect();
        return {
          x0: r.left - canvas.left,
          x1: r.right - canvas.left,
          y0: r.top - canvas.top,
          y1: r.bottom - canvas.top,
        };
      }),
    };
  });
  const drawn = labels.filter((l) => !l.folded);
  const blocking = drawn.find((l) => l.text.startsWith('blocking'));
  expect(blocking, 'the blocking label is drawn').toBeDefined();
  // The case at hand: buttons stand over the label's stretch of the chart.
  expect(buttons.filter((b) => b.x0 < blocking!.x1 && b.x1 > blocking!.x0).length).toBeGreaterThan(0);
  const covered = drawn.flatMap((l) =>
    buttons
      .filter((b) => b.x0 < l.x1 && b.x1 > l.x0 && b.y0 < l.y1 && b.y1 > l.y0)
      .map((b) => `${l.text} under a button at x ${Math.round(b.x0)}`),
  );
  expect(covered).toEqual([]);
});

test('the replay’s event chips are one Tab stop: the transcript is a few presses past the chart, ← → End reach every chip', async ({
  page,
}) => {
  // Each chip was a Tab stop: this session's 26 replay events were 26 presses between the chart and
  // the transcript (160 on a generated 3,000-call session).
  await openDense(page);
  const chips = page.getByTestId('replay-event-chip');
  const n = await chips.count();
  expect(n, 'a dense replay').toBeGreaterThan(20);
  await page.getByTestId('replay-partial-at').focus();
  const stops: string[] = [];
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press('Tab');
    stops.push(await page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? 'none'));
  }
  expect(stops.filter((s) => s === 'replay-event-chip')).toHaveLength(1);
  expect(stops, 'the transcript’s search a few presses on').toContain('search-input');
  // Back in the strip: the arrows walk it, End goes to the last, shown in the strip, Enter opens it.
  await chips.first().focus();
  await page.keyboard.press('ArrowRight');
  await expect(chips.nth(1)).toBeFocused();
  await page.keyboard.press('End');
  await expect(chips.nth(n - 1)).toBeFocused();
  await expect(chips.nth(n - 1)).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(chips.nth(n - 1)).toHaveClass(/\bopen\b/);
  // Shift+Tab leaves the strip back to the control before it; Tab comes back to the open chip.
  await page.keyboard.press('Escape');
  await chips.nth(n - 1).focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  await expect(chips.nth(n - 1)).toBeFocused();
});

test('the chart’s marker lanes are one Tab stop each: ← → End walk the boxes, a cluster’s list keeps its arrows', async ({
  page,
}) => {
  // Each marker box was a Tab stop: this session's 80 compactions and 26 replay events stood as
  // 66 boxes (40 and 26) between the chart and the replay's controls (72 on a generated 3,000-call session).
  await openDense(page);
  const boxes = page.locator('[data-testid="compaction-marker"], [data-testid="compaction-cluster"]');
  const n = await boxes.count();
  expect(n, 'a full lane').toBeGreaterThan(30);
  await page.getByTestId('timeline').focus();
  const stops: string[] = [];
  for (let i = 0; i < 5; i++) {
    await page.keyboard.press('Tab');
    stops.push(await page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? 'none'));
  }
  expect(stops.filter((s) => s.startsWith('compaction-'))).toHaveLength(1);
  expect(stops.filter((s) => s.startsWith('replay-marker') || s === 'replay-cluster')).toHaveLength(1);
  expect(stops, 'the replay’s switch a few presses on').toContain('replay-toggle');
  // Along the lane: → the next box, End the last one.
  await boxes.first().focus();
  await page.keyboard.press('ArrowRight');
  await expect(boxes.nth(1)).toBeFocused();
  await page.keyboard.press('End');
  await expect(boxes.nth(n - 1)).toBeFocused();
  // A cluster's list: Enter opens it, Tab enters it, an arrow there leaves the lane's focus alone,
  // Escape closes it back onto its box.
  const cluster = page.getByTestId('compaction-cluster').first();
  await cluster.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('marker-cluster-list')).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('marker-cluster-zoom')).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('marker-cluster-zoom')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('marker-cluster-list')).toHaveCount(0);
  await expect(cluster).toBeFocused();
});

test('the chart’s key hint, cut where the legend is full, carries its whole text', async ({ page }) => {
  // It read "wheel …" with nothing more to see (the fit-height button beside it at 1280 px).
  await openDense(page);
  const hint = page.getByTestId('timeline-hint');
  const { cut, text } = await hint.evaluate((el) => ({
    cut: el.scrollWidth > el.clientWidth + 1,
    text: el.textContent ?? '',
  }));
  expect(cut, 'cut at 1280 px on this session').toBe(true);
  await expect(hint).toHaveAttribute('title', text);
  expect(text).toContain('shift-drag select');
});
