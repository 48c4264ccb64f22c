import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, SAMPLES_DIR, test } from './fixtures';

// The replay on the bundled sample: knob changes re-run it in the worker and its events move on
// the timeline; an event card shows before/after, the summarizer request and what is restored.

const INDEX = path.join(SAMPLES_DIR, 'index.json');

async function afterCalls(markers: Locator): Promise<number[]> {
  return markers.evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-after-call'))));
}

/** Waits until the replay has settled (no run in flight, no placeholder shown). */
async function settled(page: Page): Promise<void> {
  await expect(page.getByTestId('replay-section')).toHaveAttribute('data-busy', 'false');
}

test.describe('replay', () => {
  test.skip(!fs.existsSync(INDEX), 'public/samples/index.json is not there yet (run the sample generator)');

  test("says it is busy until the run under the page's knobs is shown (a slow machine)", async ({ page }) => {
    // CI's failed run: `data-busy` read "false" before the first run had started, so the events and
    // comparison rows appeared after it and moved the page by a row. A 6× slower CPU widens that gap.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
    await page.goto('/');
    await expect(page.getByTestId('session-header')).toBeVisible();
    await settled(page);
    await expect(page.getByTestId('replay-events')).toBeVisible({ timeout: 1 });
    await expect(page.getByTestId('replay-compare')).toBeVisible({ timeout: 1 });
    const shown = await page.getByTestId('replay-event-count').textContent();
    // An edit waiting out the debounce is busy too, and "false" again means its run is shown. (The
    // "true" is awaited: at 6× throttling, a read 1 ms after the fill could come before the render.)
    await page.getByTestId('knob-pct').fill('50');
    await expect(page.getByTestId('replay-section')).toHaveAttribute('data-busy', 'true');
    await settled(page);
    await expect(page.getByTestId('replay-event-count')).not.toHaveText(shown!, { timeout: 1 });
  });

  test('moves its events when a knob changes', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByTestId('session-header')).toBeVisible();
    const section = page.getByTestId('replay-section');
    await expect(section).toBeVisible();
    await expect(page.getByTestId('replay-compare')).toBeVisible();
    const markers = page.locator('[data-testid="replay-marker"]');
    await expect(markers.first()).toBeVisible();
    await settled(page);
    const before = await afterCalls(markers);
    const compactsBefore = await afterCalls(
      page.locator('[data-testid="replay-marker"][data-kind="compact"]'),
    );

    // A lower auto-compact percentage makes the replay compact earlier and more often.
    await page.getByTestId('knob-pct').fill('50');
    const compacts = page.locator('[data-testid="replay-marker"][data-kind="compact"]');
    await expect(async () => {
      const now = await afterCalls(compacts);
      expect(now.length).toBeGreaterThan(compactsBefore.length);
    }).toPass();
    await settled(page);
    const lowered = await afterCalls(compacts);
    expect(lowered[0]!).toBeLessThan(Math.min(...before.filter((c) => c >= 0), Number.POSITIVE_INFINITY));
    // 50% of the v2.0 profile's effective window (200k − 32k) for the sample's 2.1.19.
    await expect(page.getByTestId('threshold-autocompact')).toHaveAttribute('data-value', '84000');

    // Back to the log's value: the events come back where they were.
    await page.getByTestId('knob-pct').fill('');
    await expect(async () => expect(await afterCalls(markers)).toEqual(before)).toPass();

    // A 1M window: no auto-compaction at all in this session.
    await page.getByTestId('knob-window').selectOption('1000000');
    await expect(async () => expect(await afterCalls(compacts)).toEqual([])).toPass();
    await page.getByTestId('knob-window').selectOption('200000');
    await expect(async () => expect(await afterCalls(markers)).toEqual(before)).toPass();
  });

  // The walk of session 15: 999999 typed in Max output turned the box red and nothing more; the
  // replay kept 64000 unsaid, and the bar's tooltip gave no range. Now the box says it was not
  // applied and why (aria-invalid, its title with the range), the readout unchanged.
  test('a knob typed out of its range says it is not applied, and its range; the reset clears it', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(page.getByTestId('session-header')).toBeVisible();
    await settled(page);
    const readout = page.getByTestId('threshold-readout');
    const before = await readout.textContent();
    const box = page.getByTestId('knob-max-output');
    await expect(box).toHaveAttribute('aria-invalid', 'false');
    await box.fill('999999');
    await expect(box).toHaveAttribute('aria-invalid', 'true');
    await expect(box).toHaveAttribute(
      'title',
      'Not applied: outside the range; the replay keeps the last valid value.\nRange: 1,000–200,000 tokens, step 1,000',
    );
    await settled(page);
    await expect(readout).toHaveText(before!);
    // The range is in the label's tooltip before anything is typed.
    expect(await page.locator('label.knob', { has: box }).getAttribute('title')).toContain(
      'Range: 1,000–200,000 tokens',
    );
    await box.fill('20000');
    await expect(box).toHaveAttribute('aria-invalid', 'false');
    await expect(box).not.toHaveAttribute('title');
    await settled(page);
    await expect(readout).not.toHaveText(before!);
    // The knobs drawer's boxes say it the same way.
    await page.getByTestId('replay-knobs-toggle').click();
    const pct = page.getByTestId('replay-knob-microcompactProtectTokens');
    await pct.fill('-1');
    await expect(pct).toHaveAttribute('aria-invalid', 'true');
    await expect(pct).toHaveAttribute('title', /^Not applied: outside the range\.\nRange: /);
    // Back to the log's knobs: every box shows the log's value again, one typed out of range too
    // (it stayed, red, when the knob's value had not changed: it never was applied).
    const reset = page.getByTestId('replay-reset-knobs');
    await reset.click();
    await expect(box).toHaveValue('64000');
    await expect(pct).not.toHaveValue('-1');
    await expect(pct).toHaveAttribute('aria-invalid', 'false');
    await box.fill('abc');
    await expect(box).toHaveAttribute('aria-invalid', 'true');
    await reset.click();
    await expect(box).toHaveValue('64000');
    await expect(box).toHaveAttribute('aria-invalid', 'false');
    await expect(readout).toHaveText(before!);
  });

  test('opens an event card with the summarizer request and the restored files', async ({ page }) => {
    await page.goto('/');
    // At its own knobs the sample's replay already auto-compacts once (where the log does, with the
    // log's summary, nothing restored); wait for the 60% run, which compacts earlier as well.
    const compacts = page.locator('[data-testid="replay-marker"][data-kind="compact"]');
    await expect(compacts.first()).toBeVisible();
    await page.getByTestId('knob-pct').fill('60');
    // Counted on the chip strip: the second compaction shares its call with a clearing (v2.1.68
    // edge case 6), and the chart draws the two as one cluster.
    const compactChips = page.locator('[data-testid="replay-event-chip"].kind-compact');
    await expect(async () => expect(await compactChips.count()).toBeGreaterThan(1)).toPass();
    await settled(page);
    // Just after the replay's first compaction the simulated history differs from the log's.
    const timelineBox = (await page.getByTestId('timeline').boundingBox())!;
    const markerBox = (await compacts.first().boundingBox())!;
    await page.mouse.move(markerBox.x + markerBox.width + 20, timelineBox.y + timelineBox.height / 2);
    await expect(page.getByTestId('timeline-tooltip-replay')).toHaveAttribute('data-kind', 'attributed');
    await expect(page.getByTestId('timeline-tooltip-replay')).toContainText('attributed per message');
    const compact = compacts.first();
    await compact.click();
    const card = page.getByTestId('replay-event-card');
    await expect(card).toBeVisible();
    await expect(card.getByTestId('replay-pre')).toContainText('tok');
    await expect(card.getByTestId('replay-post')).toContainText('tok');
    // How each figure was obtained: the log's usage before the first compaction, summed after it.
    await expect(card.getByTestId('replay-pre-source')).toHaveAttribute('data-kind', 'recorded');
    await expect(card.getByTestId('replay-pre-source')).toContainText('recorded usage');
    await expect(card.getByTestId('replay-post-source')).toHaveAttribute('data-kind', 'attributed');
    await expect(card.getByTestId('replay-post-source')).toContainText(
      /^summary [\d,]+ \(size model\) \+ restored [\d,]+ \+ base [\d,]+$/,
    );
    await expect(card.getByTestId('replay-restored').locator('li').first()).toBeVisible();
    const request = card.getByTestId('replay-request');
    await expect(request).toBeVisible();
    expect(Number(await request.getAttribute('data-tokens'))).toBeGreaterThan(1_000);
    await request.locator('summary', { hasText: 'Prompt' }).click();
    await expect(card.getByTestId('replay-request-prompt')).toContainText(
      'Your task is to create a detailed summary',
    );
    await page.getByTestId('replay-card-close').click();
    await expect(card).toHaveCount(0);
  });

  test('microcompact knobs clear tool results, marked in the transcript', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('[data-testid="replay-marker"]').first()).toBeVisible();
    await page.getByTestId('replay-knobs-toggle').click();
    await expect(page.getByTestId('replay-knobs')).toBeVisible();
    await page.getByTestId('replay-knob-microcompactEnabled').uncheck();
    const micro = page.locator('[data-testid="replay-marker"][data-kind="microcompact"]');
    await expect(micro).toHaveCount(0);
    await page.getByTestId('replay-knob-microcompactEnabled').check();
    await page.getByTestId('replay-knob-microcompactProtectTokens').fill('2000');
    await page.getByTestId('replay-knob-microcompactMinSavings').fill('2000');
    await expect(micro.first()).toBeVisible();
    await settled(page);
    // The first results of the session are among those cleared: marked at the top of the list.
    await expect(page.locator('[data-testid="replay-row-cleared"]').first()).toBeVisible();
    await page.locator('[data-testid="replay-event-chip"]').first().click();
    const card = page.getByTestId('replay-event-card');
    await expect(card).toHaveAttribute('data-kind', 'microcompact');
    await expect(card).toContainText('results, −');
    await page.getByTestId('replay-card-close').click();
    // Turning microcompact off removes the marks.
    await page.getByTestId('replay-knob-microcompactEnabled').uncheck();
    await expect(micro).toHaveCount(0);
    await expect(page.locator('[data-testid="replay-row-cleared"]')).toHaveCount(0);
    await page.getByTestId('replay-reset-knobs').click();
    await expect(micro.first()).toBeVisible();
  });

  test('compacts by hand at the selected message', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('[data-testid="replay-marker"]').first()).toBeVisible();
    await page.locator('[data-testid="transcript-row"]').nth(12).click();
    await page.getByTestId('replay-compact-here').click();
    const manual = page.locator('[data-testid="replay-marker"][data-kind="compact"][data-trigger="manual"]');
    await expect(manual).toHaveCount(1);
    await manual.click();
    await expect(page.getByTestId('replay-event-card')).toContainText('full compaction (manual)');
  });

  test('switches to another strategy', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('[data-testid="replay-marker"]').first()).toBeVisible();
    await page.getByTestId('replay-strategy').selectOption('api-clear-tool-uses');
    // Counted on the chip strip: on the chart, clearings a few calls apart share a cluster.
    const cleared = page.locator('[data-testid="replay-event-chip"].kind-microcompact');
    await expect(async () => expect(await cleared.count()).toBeGreaterThan(5)).toPass();
    await settled(page);
    await page.getByTestId('replay-strategy').selectOption('claude-code');
    await expect(async () => expect(await cleared.count()).toBeLessThan(5)).toPass();
  });
});
