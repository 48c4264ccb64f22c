import fs from 'node:fs';
import path from 'node:path';
import { expect, SAMPLES_DIR, test } from './fixtures';

// The Custom strategy editor keeps the file that was run and its result while the rest of the
// replay strip changes (tester's report: with the editor open, picking "Custom: <label>" in the
// strip's Strategy list showed the bundled example clear-old-results.ts and dropped the results
// table, and Run would have run the example). At 1280×720, on the bundled sample.

const INDEX = path.join(SAMPLES_DIR, 'index.json');

const SIXTY = `import type { Strategy } from 'compactlab/strategy';

export default {
  id: 'sixty-keep5',
  label: '60% keep 5 results',
  knobs: [{ key: 'pct', label: 'Trigger', kind: 'number', unit: 'percent', default: 60, min: 10, max: 100 }],
  thresholds: (k) => [{ label: 'Trigger', tokens: Math.round((k.contextWindow * k.pct) / 100) }],
  step(view, k) {
    if (view.usageTokens < (k.contextWindow * k.pct) / 100) return [];
    return [{ kind: 'summarize', keepFrom: view.keepRecentFrom(20_000), note: 'summarized' }];
  },
} satisfies Strategy<{ pct: number; contextWindow: number }>;
`;

test.describe('custom strategy editor state', () => {
  test.skip(!fs.existsSync(INDEX), 'public/samples/index.json is not there yet (run the sample generator)');
  test.setTimeout(120_000);

  test('picking the custom strategy in the strip keeps the file that was run and its results', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/');
    await expect(page.getByTestId('session-header')).toBeVisible();
    const section = page.getByTestId('replay-section');
    await expect(section).toHaveAttribute('data-busy', 'false');

    await page.getByTestId('custom-open').click();
    const editor = page.getByTestId('custom-editor');
    await expect(editor.locator('.monaco-editor')).toBeVisible({ timeout: 30_000 });
    await page
      .getByTestId('custom-import')
      .setInputFiles({ name: 'sixty.ts', mimeType: 'text/plain', buffer: Buffer.from(SIXTY) });
    await expect(page.getByTestId('custom-name')).toHaveValue('sixty.ts');
    await page.getByTestId('custom-run').click();
    await expect(page.getByTestId('custom-table')).toBeVisible({ timeout: 60_000 });

    // Picked in the strip with the editor open: the strip replays it, the editor stays as it was.
    const select = page.getByTestId('replay-strategy');
    await select.selectOption({ label: 'Custom: 60% keep 5 results' });
    await expect(section).toHaveAttribute('data-strategy', 'sixty-keep5');
    await expect(section).toHaveAttribute('data-busy', 'false', { timeout: 60_000 });
    await expect(page.getByTestId('custom-name')).toHaveValue('sixty.ts');
    await expect(editor).toContainText("id: 'sixty-keep5'");
    await expect(editor).not.toContainText('clear-old-results');
    await expect(page.getByTestId('custom-table')).toBeVisible();
    await expect(page.getByTestId('custom-where-own')).toContainText('Custom: 60% keep 5 results');
    await page.screenshot({ path: 'test-results/custom-editor-state-strip.png' });

    // Another built-in picked, then the editor closed and opened again: still the file and its result.
    await select.selectOption('codex');
    await expect(section).toHaveAttribute('data-busy', 'false', { timeout: 60_000 });
    await page.getByRole('button', { name: 'Close the custom strategy' }).click();
    await page.getByTestId('custom-open').click();
    await expect(page.getByTestId('custom-name')).toHaveValue('sixty.ts');
    await expect(page.getByTestId('custom-table')).toBeVisible();

    // Run again runs that file (no example appears among the strategies), beside the log's own.
    await page.getByTestId('custom-run').click();
    await expect(page.getByTestId('custom-table')).toBeVisible({ timeout: 60_000 });
    await expect(select.locator('option[value="clear-old-results"]')).toHaveCount(0);
    await expect(select.locator('option[value="sixty-keep5"]')).toHaveCount(1);
    await expect(page.getByTestId('custom-where-own')).toContainText('Custom: 60% keep 5 results');
    await expect(page.getByTestId('custom-where').filter({ hasText: 'Codex' })).toHaveCount(1);
  });
});
