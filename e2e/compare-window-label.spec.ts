import fs from 'node:fs';
import path from 'node:path';
import { expect, openEmpty, REPO_ROOT, test } from './fixtures';

// The guide's **Compare…** draws "the model's window" across the chart. On a real session where
// one strategy's replay runs above the window (the API's clear_tool_uses: ▲ 283k over 200k), the
// window's label, drawn under the series, was hidden by that series' ticks ("model! wi… 200k" at
// 1280x720). It is drawn over them now, with a halo of the chart's background. Light and dark.
// Skipped when the corpus is absent.

const SESSION = path.join(
  REPO_ROOT,
  '../shared/corpus/LAF-US__IDAHO-VAULT/claude__projects__c--Users-loganf-Documents-IDAHO-VAULT__05541cb5-fe43-41c9-87ef-2a6d89bba271.jsonl',
);
const present = fs.existsSync(SESSION);

test.describe("Compare's model window label on a real session", () => {
  test.skip(!present, `the Claude Code corpus is absent (${SESSION})`);
  test.use({ viewport: { width: 1280, height: 720 } });

  for (const scheme of ['light', 'dark'] as const) {
    test(`over the series that cross it, ${scheme}`, async ({ page }, testInfo) => {
      await page.emulateMedia({ colorScheme: scheme });
      await openEmpty(page);
      await page.getByTestId('file-input').setInputFiles(SESSION);
      await expect(page.getByTestId('session-header')).toBeVisible();
      await page.getByTestId('compare-open').click();
      const panel = page.getByTestId('compare-panel');
      await panel.getByRole('button', { name: 'Run' }).click();
      const chart = page.getByTestId('compare-chart');
      await expect(chart.getByTestId('compare-series')).toHaveCount(3, { timeout: 30_000 });
      // A replay above the window, flagged: the case where a series crosses the label.
      await expect(chart.getByTestId('compare-over-window').first()).toBeVisible();
      const label = chart.getByTestId('compare-window-label');
      await expect(label).toHaveText('model window 200k');
      const drawn = await label.evaluate((el) => {
        const series = [
          ...(el as SVGTextElement).ownerSVGElement!.querySelectorAll('[data-testid="compare-series"]'),
        ];
        return {
          afterEverySeries: series.every(
            (s) => (s.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0,
          ),
          paintOrder: getComputedStyle(el).paintOrder,
          halo: getComputedStyle(el).strokeWidth,
        };
      });
      expect(drawn.afterEverySeries, 'painted over the series').toBe(true);
      expect(drawn.paintOrder).toMatch(/^stroke/);
      expect(drawn.halo).toBe('3px');
      await chart.screenshot({ path: testInfo.outputPath(`compare-window-${scheme}.png`) });
    });
  }
});
