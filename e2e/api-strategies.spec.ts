import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, SAMPLES_DIR, test } from './fixtures';

// The Anthropic API's context management and the SDK's compactionControl on the bundled sample:
// each edit toggled from the knobs panel, its line drawn, what it clears marked in the transcript.

const INDEX = path.join(SAMPLES_DIR, 'index.json');

async function settled(page: Page): Promise<void> {
  await expect(page.getByTestId('replay-section')).toHaveAttribute('data-busy', 'false');
}

test.describe('API strategies', () => {
  test.use({ viewport: { width: 1280, height: 720 } });
  test.skip(!fs.existsSync(INDEX), 'public/samples/index.json is not there yet (run the sample generator)');

  test('the API edits toggle from the knobs panel, in one request', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('[data-testid="replay-marker"]').first()).toBeVisible();
    await page.getByTestId('replay-strategy').selectOption('api-clear-tool-uses');
    await settled(page);
    const toggle = page.getByTestId('replay-knobs-toggle');
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    const knobs = page.getByTestId('replay-knobs');
    await expect(knobs).toContainText('clear_thinking');
    await expect(knobs).toContainText('Compaction');

    // clear_tool_uses alone (its default): no compaction.
    const chips = page.locator('[data-testid="replay-event-chip"]');
    const compacts = page.locator('[data-testid="replay-event-chip"].kind-compact');
    await expect(async () => expect(await chips.count()).toBeGreaterThan(5)).toPass();
    expect(await compacts.count()).toBe(0);
    const toolOnly = await chips.count();

    // clear_thinking on: more clearings (each new turn drops the previous turn's thinking).
    await page.getByTestId('replay-knob-clearThinking').check();
    await expect(async () => expect(await chips.count()).toBeGreaterThan(toolOnly)).toPass();
    await settled(page);
    // The sample's first event is now a thinking clear (after API call 9).
    await chips.first().click();
    await expect(page.getByTestId('replay-event-card')).toContainText('clear_thinking');
    await expect(page.locator('[data-testid="replay-row-cleared"]').first()).toBeAttached();
    await page.keyboard.press('Escape');

    // Compaction on at the 50,000 minimum (a lower value is raised to it): compactions appear.
    await page.getByTestId('replay-knob-compaction').check();
    await page.getByTestId('replay-knob-compactTriggerTokens').fill('50000');
    await expect(async () => expect(await compacts.count()).toBeGreaterThan(0)).toPass();
    await page.getByTestId('replay-knob-pauseAfterCompaction').check();
    await settled(page);
    await compacts.first().click();
    await expect(page.getByTestId('replay-event-card')).toContainText('pause_after_compaction');
    await page.keyboard.press('Escape');
  });

  test('the SDK’s compactionControl compacts at 100,000', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('[data-testid="replay-marker"]').first()).toBeVisible();
    await page.getByTestId('replay-strategy').selectOption('anthropic-sdk-compaction');
    const compacts = page.locator('[data-testid="replay-event-chip"].kind-compact');
    await expect(async () => expect(await compacts.count()).toBeGreaterThan(0)).toPass();
    await settled(page);
    await compacts.first().click();
    const card = page.getByTestId('replay-event-card');
    await expect(card).toContainText('compactionControl');
    await expect(card).toContainText('4,096');
  });
});
