import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/**
 * The window's label on the chart (its box in `data-window-label`, canvas pixels) lies under no
 * marker button; `null` when the markers left it no gap (draw-timeline.ts leaves it out then).
 * Returns whether it is drawn.
 */
export async function expectWindowLabelClear(page: Page): Promise<boolean> {
  const timeline = page.getByTestId('timeline');
  await expect(timeline).toHaveAttribute('data-window-label', /./);
  const label = JSON.parse((await timeline.getAttribute('data-window-label'))!) as Record<
    'x0' | 'x1' | 'y0' | 'y1',
    number
  > | null;
  if (label === null) return false;
  const canvas = (await timeline.locator('canvas').first().boundingBox())!;
  const buttons = page.locator('[data-testid="compaction-marker"], [data-testid="compaction-cluster"]');
  const boxes = await buttons.evaluateAll((els) =>
    els.map((e) => {
      const r = e.getBoundingClientRect();
      return { x0: r.left, x1: r.right, y0: r.top, y1: r.bottom };
    }),
  );
  const onPage = {
    x0: canvas.x + label.x0,
    x1: canvas.x + label.x1,
    y0: canvas.y + label.y0,
    y1: canvas.y + label.y1,
  };
  const over = boxes.filter(
    (b) => b.x0 < onPage.x1 && b.x1 > onPage.x0 && b.y0 < onPage.y1 && b.y1 > onPage.y0,
  );
  expect(over, 'marker buttons over the window label').toEqual([]);
  return true;
}
