import { expect, test } from '@playwright/test';

for (const scheme of ['light', 'dark'] as const) {
  test(`shot ${scheme}`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto('/');
    await expect(page.getByTestId('session-header')).toBeVisible();
    await expect(page.getByTestId('threshold-autocompact')).toBeVisible();
    const widths = await page.locator('.knobs-bar > *').evaluateAll((els) =>
      els.map((e) => `${e.className}:${Math.round(e.getBoundingClientRect().width)}@${Math.round(e.getBoundingClientRect().top)}`),
    );
    const h = await page.locator(".knobs-bar").evaluate((e) => e.getBoundingClientRect().height); console.log(h, widths.join(' | '));
    await page.screenshot({ path: `/tmp/ui-shot-${scheme}.png` });
  });
}
