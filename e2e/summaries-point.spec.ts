import fs from 'node:fs';
import path from 'node:path';
import { getCutSelects } from './cut-selects';
import { CORPUS_FILE, expect, SAMPLES_DIR, test } from './fixtures';

// The Summaries view's "Compaction point" at 1280×720: a real compaction's option read
// "Compaction 1 (auto) · line 454 · 212,7…", cut at the box's edge. Every option now shows whole
// in the box, light and dark, and still says what tells the points apart (number, trigger, line,
// size).

const INDEX = path.join(SAMPLES_DIR, 'index.json');

test('summaries: every compaction point shows whole in its select at 1280×720', async ({ page }) => {
  test.skip(!fs.existsSync(INDEX), 'public/samples/index.json is not there yet (run the sample generator)');
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto('/');
    await expect(page.getByTestId('session-header')).toBeVisible();
    await page.getByTestId('summaries-toggle').click();
    const select = page.getByTestId('point-select');
    await expect(select).toBeVisible();
    const options = await select
      .locator('option')
      .evaluateAll((els) =>
        els.map((e) => ({ value: (e as HTMLOptionElement).value, text: e.textContent ?? '' })),
      );
    const real = options.filter((o) => o.value.startsWith('c:'));
    expect(real.length).toBeGreaterThan(0);
    for (const o of real) expect(o.text).toMatch(/^Compaction \d+ \((auto|manual)\) · line [\d,]+/);
    // The real compactions, and the longest of the after-call points.
    const calls = options.filter((o) => o.value.startsWith('a:'));
    const longest = calls.reduce((a, b) => (b.text.length > a.text.length ? b : a), calls[0]!);
    for (const o of [...real, longest]) {
      await select.selectOption(o.value);
      expect(await getCutSelects(page.getByTestId('summaries-setup')), o.text).toEqual([]);
    }
  }
});

test('summaries: a real session’s compaction points show whole at 1280×720', async ({ page }) => {
  test.skip(!fs.existsSync(CORPUS_FILE), 'the corpus (../shared/corpus) is not here');
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/?sample=0');
  await page.getByTestId('file-input').setInputFiles(CORPUS_FILE);
  await expect(page.getByTestId('session-header')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('summaries-toggle').click();
  const select = page.getByTestId('point-select');
  await expect(select).toBeVisible();
  const values = await select
    .locator('option[value^="c:"]')
    .evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value));
  for (const v of values) {
    await select.selectOption(v);
    expect(await getCutSelects(page.getByTestId('summaries-setup'))).toEqual([]);
  }
});
