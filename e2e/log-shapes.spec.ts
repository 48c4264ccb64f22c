import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { dropFiles, expect, FIXTURES_DIR, openEmpty, test } from './fixtures';

// The log shapes of "Real logs read right" items 4–6 on the page: a session without usage, a
// 1M-context session and a rewind (fixtures from tests/fixtures/make-shape-fixtures.ts).

test.use({ viewport: { width: 1280, height: 720 } });

async function open(page: Page, name: string): Promise<void> {
  await openEmpty(page);
  await dropFiles(page, [{ name, content: fs.readFileSync(path.join(FIXTURES_DIR, name), 'utf8') }]);
  await expect(page.getByTestId('session-header')).toBeVisible();
  await expect(page.getByTestId('timeline')).toBeVisible();
}

/** Hovers call position `x` (0-based) of the chart and returns the tooltip's text. */
async function hoverCall(page: Page, x: number): Promise<string> {
  const chart = page.getByTestId('timeline');
  const box = (await chart.boundingBox())!;
  const n = Number(await chart.getAttribute('data-calls'));
  // geometry.ts: plot from 52 px to width − 14 px, point x at its centre.
  const px = 52 + ((x + 0.5) / n) * (box.width - 52 - 14);
  await page.mouse.move(box.x + px, box.y + box.height / 2);
  const tooltip = page.getByTestId('timeline-tooltip');
  await expect(tooltip).toBeVisible();
  return tooltip.innerText();
}

test('a session without usage says so and draws its context as estimated', async ({ page }) => {
  await open(page, 'zero-usage.jsonl');
  await expect(page.getByTestId('usage-warning')).toHaveText('zero usage on 7 of 8 calls: context estimated');
  await expect(page.getByTestId('estimated-legend')).toContainText('7 of 8 calls recorded no usage');
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-calls', '8');
  const measured = await hoverCall(page, 0);
  expect(measured).toContain('18,000');
  expect(measured).not.toContain('estimated');
  const estimated = await hoverCall(page, 5);
  expect(estimated).toContain('(estimated: no usage)');
  expect(estimated).toMatch(/context ~\d/);
  await expect(page.locator('body')).not.toContainText('→ 0 tokens');
});

test('a 1M-context session is drawn against a 1M window, with the reason', async ({ page }) => {
  await open(page, 'one-million.jsonl');
  const note = page.getByTestId('window-note');
  await expect(note).toHaveAttribute('data-window', '1000000');
  await expect(note).toHaveAttribute('data-source', 'model-id');
  await expect(note).toHaveAttribute(
    'title',
    /claude-sonnet-4-5-20250929\[1m\] names the extended \(1M\) context/,
  );
  await expect(page.getByTestId('knob-window')).toHaveValue('1000000');
  await expect(page.getByTestId('threshold-autocompact')).toHaveAttribute('data-value', '967000');
  await expect(page.getByTestId('usage-warning')).toHaveCount(0);
  expect(await hoverCall(page, 9)).not.toContain('over auto-compact');
  // The user overrides the window: the note says so.
  await page.getByTestId('knob-window').selectOption('200000');
  await expect(note).toContainText('overridden: 200k');
});

test('a rewind lists its fork and the timeline follows the branch picked', async ({ page }) => {
  await open(page, 'rewind.jsonl');
  const picker = page.getByTestId('branch-picker');
  await expect(picker.getByTestId('fork')).toHaveCount(1);
  await expect(picker.locator('[data-went-on="true"]')).toContainText('only the totals of 2025');
  await expect(picker.locator('[data-went-on="false"]')).toContainText('running balance');
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-calls', '4');
  await expect.poll(() => hoverCall(page, 3)).toMatch(/context 21,600 tok[\s\S]*replay 21,600/);
  await page.getByTestId('branch-select').selectOption('1');
  // The series and the replay both follow the abandoned branch's history.
  await expect.poll(() => hoverCall(page, 3)).toMatch(/context 36,000 tok[\s\S]*replay 36,000/);
  await page.getByTestId('branch-select').selectOption('0');
  await expect.poll(() => hoverCall(page, 3)).toContain('21,600');
});
