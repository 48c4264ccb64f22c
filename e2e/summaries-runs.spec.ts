import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { createFixtureText } from '../tests/summarize/fixture';
import { dropFiles, expect, openEmpty, test } from './fixtures';

// Fifty-one runs of one transcript: imported, kept across a reload, listed in a box of their own
// that scrolls (the diff stays next to it), every name inside its cell, all of them exported.

const FIXTURE = createFixtureText();
/** A name with no space to wrap at, as a rename, a server's model id or an imported file can make. */
const LONG_NAME = `run-${'x'.repeat(140)}`;

async function openSummaries(page: Page) {
  await dropFiles(page, [{ name: 'fixture-session.jsonl', content: FIXTURE }]);
  await expect(page.getByTestId('session-header')).toBeVisible();
  await page.getByTestId('summaries-toggle').click();
  await expect(page.getByTestId('point-select')).toBeVisible();
}

async function exportRuns(page: Page): Promise<{ runs: { id: string; name: string }[] }> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('export-runs').click(),
  ]);
  return JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
}

test('summaries: 51 runs are kept across a reload, listed in their own scrolling box, names inside their cells, all exported', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  await openEmpty(page);
  await openSummaries(page);
  await page.getByTestId('run-summary').click();
  await expect(page.getByTestId('run-status')).toHaveText(/Done/);
  const one = await exportRuns(page);
  const base = one.runs[0]!;
  const runs = Array.from({ length: 50 }, (_, i) => ({
    ...base,
    id: `imported-${i}`,
    name: i === 0 ? LONG_NAME : `imported run ${i}`,
    createdAt: (base as unknown as { createdAt: number }).createdAt - (i + 1) * 60_000,
  }));
  await page.getByTestId('import-input').setInputFiles({
    name: 'runs.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify({ ...one, runs })),
  });
  await expect(page.getByTestId('runs-notice')).toContainText('Imported 50 runs');
  await expect(page.getByTestId('run-row')).toHaveCount(51);

  await page.reload();
  await openSummaries(page);
  await expect(page.getByTestId('run-row')).toHaveCount(51);

  // The long name wraps inside its cell (it ran over the Point column).
  const name = page.getByTestId('run-name').filter({ hasText: LONG_NAME });
  await name.scrollIntoViewIfNeeded();
  const [nameBox, cellBox] = await Promise.all([
    name.boundingBox(),
    page.locator('td.name-cell', { has: name }).boundingBox(),
  ]);
  expect(nameBox!.x + nameBox!.width).toBeLessThanOrEqual(cellBox!.x + cellBox!.width + 0.5);

  // The list scrolls in its own box: ticking the first and the last opens the diff right under it.
  const box = page.locator('.runs-scroll');
  expect(await box.evaluate((el) => el.scrollHeight > el.clientHeight + 100)).toBe(true);
  expect((await box.boundingBox())!.height).toBeLessThanOrEqual(321);
  await page.getByTestId('run-select').first().check();
  await page.getByTestId('run-select').last().check();
  await expect(page.getByTestId('run-diff')).toBeVisible();
  const listBottom = await box.evaluate((el) => el.getBoundingClientRect().bottom);
  const diffTop = await page.getByTestId('run-diff').evaluate((el) => el.getBoundingClientRect().top);
  expect(diffTop - listBottom).toBeLessThan(80);

  // Export with nothing ticked takes every run shown: 51, each once.
  await page.getByTestId('run-select').first().uncheck();
  await page.getByTestId('run-select').last().uncheck();
  const all = await exportRuns(page);
  expect(all.runs).toHaveLength(51);
  expect(new Set(all.runs.map((r) => r.id)).size).toBe(51);
  expect(all.runs.some((r) => r.name === LONG_NAME)).toBe(true);
});

test("summaries: a diff Monaco's worker could not compute says so, and ticking again retries", async ({
  page,
}) => {
  await openEmpty(page);
  await openSummaries(page);
  for (let i = 0; i < 2; i++) {
    await page.getByTestId('run-summary').click();
    await expect(page.getByTestId('run-row')).toHaveCount(i + 1);
  }
  await page.getByTestId('run-select').first().check();
  await page.getByTestId('run-select').last().check();
  const editor = page.getByTestId('run-diff-editor');
  await expect(editor).not.toHaveAttribute('data-changes', '');
  // The rejection Monaco's diff model leaves unawaited when its worker answers with no result (it
  // failed a CI run as an uncaught page error); the page-errors fixture checks none escapes.
  await page.evaluate(() => {
    void Promise.reject(new Error('no diff result available'));
  });
  await expect(page.getByTestId('run-diff-failed')).toContainText('could not compare');
  await page.getByTestId('run-select').last().uncheck();
  await page.getByTestId('run-select').last().check();
  await expect(editor).not.toHaveAttribute('data-changes', '');
  await expect(page.getByTestId('run-diff-failed')).toHaveCount(0);
});
