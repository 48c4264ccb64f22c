import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, SAMPLES_DIR, test } from './fixtures';

// Text read against what lies behind it, light and dark, on the sample at 1280×720: the contrast
// ratio (WCAG 2's relative luminance) of each text's colour on its nearest opaque background. What a
// tester found: in light, the knobs bar's threshold readout in the chart's line colours ("warning =
// error" yellow at 1.6:1, "auto-compact" orange at 2:1), the markers' letters and the legend's
// glyphs at about 2:1; in dark, the META kind's label at 3.8:1. And the focus ring: a 1 px
// accent outline inside the edge did not show on a control that is accent itself (the primary
// Open files…, the pressed Rows, the chosen All chip).

const INDEX = path.join(SAMPLES_DIR, 'index.json');

/** Each element's text, its contrast ratio and its font size, for the elements `selector` finds. */
function getContrasts(page: Page, selector: string) {
  return page.evaluate((selector) => {
    const canvas = document.createElement('canvas').getContext('2d', { willReadFrequently: true })!;
    // Any CSS colour (oklab from color-mix included) as sRGB through a canvas pixel.
    const rgba = (css: string) => {
      canvas.clearRect(0, 0, 1, 1);
      canvas.fillStyle = css;
      canvas.fillRect(0, 0, 1, 1);
      const [r, g, b, a] = canvas.getImageData(0, 0, 1, 1).data;
      return { r: r!, g: g!, b: b!, a: a! / 255 };
    };
    const luminance = ({ r, g, b }: { r: number; g: number; b: number }) => {
      const f = (v: number) => {
        const c = v / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const background = (el: Element) => {
      for (let e: Element | null = el; e; e = e.parentElement) {
        const c = rgba(getComputedStyle(e).backgroundColor);
        if (c.a >= 0.99) return c;
      }
      return rgba(getComputedStyle(document.body).backgroundColor);
    };
    return [...document.querySelectorAll(selector)]
      .filter((el) => el.getClientRects().length > 0 && (el.textContent ?? '').trim() !== '')
      .map((el) => {
        const fg = rgba(getComputedStyle(el).color);
        const [a, b] = [luminance(fg), luminance(background(el))];
        return {
          text: (el.textContent ?? '').trim().slice(0, 30),
          ratio: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05),
        };
      });
  }, selector);
}

/** Pixels of `a` and `b` (PNGs of one size) whose colour differs by more than 60 in a channel. */
function countChanged(page: Page, a: Buffer, b: Buffer): Promise<number> {
  return page.evaluate(
    async ([a, b]) => {
      const pixels = async (base64: string) => {
        // Decoded here: the page's Content-Security-Policy refuses a fetch of a data: URL.
        const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
        const image = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
        const ctx = new OffscreenCanvas(image.width, image.height).getContext('2d')!;
        ctx.drawImage(image, 0, 0);
        return ctx.getImageData(0, 0, image.width, image.height).data;
      };
      const [pa, pb] = [await pixels(a!), await pixels(b!)];
      let changed = 0;
      for (let k = 0; k < pa.length; k += 4)
        if ([0, 1, 2].some((c) => Math.abs(pa[k + c]! - pb[k + c]!) > 60)) changed++;
      return changed;
    },
    [a.toString('base64'), b.toString('base64')],
  );
}

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`text contrast, ${scheme}`, () => {
    test.skip(!fs.existsSync(INDEX), 'public/samples/index.json is not there yet (run the sample generator)');

    test('threshold readout, markers, legend glyphs and kind labels read at 4.5:1 or more', async ({
      page,
    }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width: 1280, height: 720 });
      await page.goto('/');
      await expect(page.getByTestId('replay-section')).toHaveAttribute('data-busy', 'false');
      await expect(page.getByTestId('threshold-readout').locator('.threshold').first()).toBeVisible();
      const checked = [
        '.threshold-readout .threshold',
        '[data-testid="compaction-marker"]',
        '[data-testid="replay-marker"]',
        '.legend-item b',
        '.t-kind',
      ];
      for (const selector of checked) {
        const found = await getContrasts(page, selector);
        expect(found.length, selector).toBeGreaterThan(0);
        const low = found.filter((f) => f.ratio < 4.5).map((f) => `${f.text} ${f.ratio.toFixed(2)}`);
        expect(low, `${selector} under 4.5:1`).toEqual([]);
      }
    });

    test('opened, selected and pressed states read at 4.5:1 or more', async ({ page }) => {
      // Found on a walk with every text measured: in light, the open μ marker (white on its violet)
      // 2.80, its card's title in the marker's violet 2.63, the selected row's ok 4.07, the pressed
      // Learn hovered 4.37; in dark, the selected row's grey time, estimate and mark 4.05.
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width: 1280, height: 720 });
      await page.goto('/');
      await expect(page.getByTestId('replay-section')).toHaveAttribute('data-busy', 'false');
      await page.locator('[data-testid="compaction-marker"][data-kind="microcompact"]').first().click();
      await expect(page.getByTestId('compaction-card')).toBeVisible();
      await page.locator('.t-row:has(.t-status)').first().click();
      await page.getByTestId('learn-button').hover();
      for (const selector of [
        '[data-testid="compaction-marker"].open',
        '.compaction-card .card-title',
        '.t-row.selected .t-time',
        '.t-row.selected .t-est',
        '.t-row.selected .t-status',
      ]) {
        const found = await getContrasts(page, selector);
        expect(found.length, selector).toBeGreaterThan(0);
        const low = found.filter((f) => f.ratio < 4.5).map((f) => `${f.text} ${f.ratio.toFixed(2)}`);
        expect(low, `${selector} under 4.5:1`).toEqual([]);
      }
      await page.getByTestId('learn-button').click();
      await expect(page.getByTestId('learn-button')).toHaveAttribute('aria-pressed', 'true');
      const learn = await getContrasts(page, '[data-testid="learn-button"]');
      expect(learn.filter((f) => f.ratio < 4.5).map((f) => `${f.text} ${f.ratio.toFixed(2)}`)).toEqual([]);
    });

    test('the focus ring shows on accent-coloured controls too', async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width: 1280, height: 720 });
      await page.goto('/');
      await expect(page.getByTestId('replay-section')).toHaveAttribute('data-busy', 'false');
      for (const id of ['open-files', 'view-rows', 'filter-all', 'replay-knobs-toggle']) {
        const control = page.getByTestId(id);
        await page.locator('body').click({ position: { x: 640, y: 2 } });
        const before = await control.screenshot();
        // From the keyboard (Tab onto it), as :focus-visible asks.
        await control.focus();
        await page.keyboard.press('Shift+Tab');
        await page.keyboard.press('Tab');
        await expect(control).toBeFocused();
        const after = await control.screenshot();
        const box = (await control.boundingBox())!;
        // At least a ring's worth: most of the perimeter, 2 px wide.
        expect(await countChanged(page, before, after), id).toBeGreaterThan(box.width + box.height);
      }
    });
  });
}
