import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { STRATEGIES } from '../src/engine/strategies/registry';
import { expect, SAMPLES_DIR, test } from './fixtures';

// Every strategy of the registry (src/engine/strategies/registry.ts) replays the bundled sample in
// one page: picked in the replay row, it settles with its events counted; then what its event card
// and knobs panel show that no other strategy's do. Where its events fall is pinned by the replay
// goldens (tests/golden/replay) and its unit tests; here the page shows them. One sample load for
// all (was api-strategies, opencode-gemini, the Roo test of roo-pi and the boundary chart of
// boundary-bash, one load each).

const INDEX = path.join(SAMPLES_DIR, 'index.json');

async function settled(page: Page): Promise<void> {
  await expect(page.getByTestId('replay-section')).toHaveAttribute('data-busy', 'false');
}

async function knobsOpen(page: Page, open: boolean): Promise<void> {
  const toggle = page.getByTestId('replay-knobs-toggle');
  if (((await toggle.getAttribute('aria-expanded')) === 'true') !== open) await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', String(open));
}

const chips = (page: Page, kind?: string) =>
  page.locator(`[data-testid="replay-event-chip"]${kind ? `.kind-${kind}` : ''}`);

/** What each strategy's card and knobs show; every strategy is picked, these check more. */
const MORE: Record<string, (page: Page) => Promise<void>> = {
  // The API's context management: each edit toggled from the knobs panel, in one request.
  'api-clear-tool-uses': async (page) => {
    await knobsOpen(page, true);
    const knobs = page.getByTestId('replay-knobs');
    await expect(knobs).toContainText('clear_thinking');
    await expect(knobs).toContainText('Compaction');
    // clear_tool_uses alone (its default): no compaction.
    await expect(async () => expect(await chips(page).count()).toBeGreaterThan(5)).toPass();
    expect(await chips(page, 'compact').count()).toBe(0);
    const toolOnly = await chips(page).count();
    // clear_thinking on: more clearings (each new turn drops the previous turn's thinking).
    await page.getByTestId('replay-knob-clearThinking').check();
    await expect(async () => expect(await chips(page).count()).toBeGreaterThan(toolOnly)).toPass();
    await settled(page);
    // The sample's first event is now a thinking clear (after API call 9).
    await chips(page).first().click();
    await expect(page.getByTestId('replay-event-card')).toContainText('clear_thinking');
    await expect(page.locator('[data-testid="replay-row-cleared"]').first()).toBeAttached();
    await page.keyboard.press('Escape');
    // Compaction on at the 50,000 minimum (a lower value is raised to it): compactions appear.
    await page.getByTestId('replay-knob-compaction').check();
    await page.getByTestId('replay-knob-compactTriggerTokens').fill('50000');
    await expect(async () => expect(await chips(page, 'compact').count()).toBeGreaterThan(0)).toPass();
    await page.getByTestId('replay-knob-pauseAfterCompaction').check();
    await settled(page);
    await chips(page, 'compact').first().click();
    await expect(page.getByTestId('replay-event-card')).toContainText('pause_after_compaction');
    await page.keyboard.press('Escape');
    await knobsOpen(page, false);
  },
  // The SDK's compactionControl compacts at 100,000.
  'anthropic-sdk-compaction': async (page) => {
    await expect(async () => expect(await chips(page, 'compact').count()).toBeGreaterThan(0)).toPass();
    await chips(page, 'compact').first().click();
    const card = page.getByTestId('replay-event-card');
    await expect(card).toContainText('compactionControl');
    await expect(card).toContainText('4,096');
    await page.keyboard.press('Escape');
  },
  // The candidate splits charted, the chosen one marked.
  'boundary-scoring': async (page) => {
    await chips(page, 'compact').first().click();
    const card = page.getByTestId('replay-event-card');
    await expect(card).toContainText('split at message');
    const chart = card.getByTestId('boundary-scores');
    await expect(chart).toBeVisible();
    expect(await chart.getByTestId('boundary-score-bar').count()).toBeGreaterThan(1);
    await expect(chart.locator('[data-testid="boundary-score-bar"][data-chosen="true"]')).toHaveCount(1);
    await page.keyboard.press('Escape');
  },
  // Knobs from the specs, prune and compaction events.
  opencode: async (page) => {
    await knobsOpen(page, true);
    const section = page.getByTestId('replay-knobs');
    for (const label of [
      'Model context limit',
      'Protect newest tool output',
      'Prune only above',
      'Tools never pruned',
    ])
      await expect(section).toContainText(label);
    await expect(page.getByTestId('replay-knob-pruneProtectTokens')).toHaveValue('40000');
    await knobsOpen(page, false);
    await expect(chips(page, 'microcompact').first()).toBeVisible();
    await chips(page, 'compact').first().click();
    const card = page.getByTestId('replay-event-card');
    await expect(card.getByTestId('replay-llm-calls')).toContainText('1');
    await expect(card.getByTestId('replay-request')).toContainText('prompt “opencode”');
    await page.keyboard.press('Escape');
  },
  // Two LLM calls, both requests in the card (the snapshot, then the probe).
  'gemini-cli': async (page) => {
    await knobsOpen(page, true);
    const knobs = page.getByTestId('replay-knobs');
    await expect(knobs).toContainText('Model token limit');
    await expect(knobs).toContainText('Verification probe');
    await expect(page.getByTestId('replay-knob-compressionThreshold')).toHaveValue('0.5');
    await knobsOpen(page, false);
    await chips(page, 'compact').first().click();
    const card = page.getByTestId('replay-event-card');
    await expect(card.getByTestId('replay-llm-calls')).toContainText('2');
    await expect(card).toContainText('characters kept');
    const request = card.getByTestId('replay-request');
    await expect(request).toContainText('request 1 of 2');
    await expect(request.getByTestId('replay-request-followup')).toContainText('verification probe');
    await request.getByText('Prompt 2').click();
    await expect(request.getByTestId('replay-request-followup')).toContainText('<state_snapshot>');
    await page.keyboard.press('Escape');
  },
  // A condense and a sliding-window truncation say what a rewind restores.
  roo: async (page) => {
    await knobsOpen(page, true);
    await page.getByTestId('replay-knob-autoCondensePercent').fill('40');
    const condensed = chips(page, 'compact');
    await expect(async () => expect(await condensed.count()).toBeGreaterThan(1)).toPass();
    await settled(page);
    await condensed.first().click();
    const card = page.getByTestId('replay-event-card');
    await expect(page.getByTestId('replay-hidden')).toHaveAttribute('data-tag', 'condense');
    await expect(page.getByTestId('replay-hidden')).toContainText('condenseParent, not deleted');
    await page.getByTestId('replay-card-close').click();
    await expect(card).toHaveCount(0);
    // Condensing off and a larger buffer (allowedTokens 131,808): the sliding window hides half, tagged.
    await page.getByTestId('replay-knob-autoCondenseContext').uncheck();
    await page.getByTestId('replay-knob-bufferPercent').fill('30');
    const truncated = chips(page, 'truncate');
    await expect(async () => expect(await truncated.count()).toBeGreaterThan(0)).toPass();
    await expect(condensed).toHaveCount(0);
    await settled(page);
    await truncated.first().click();
    await expect(card).toContainText('tokens hidden');
    await expect(page.getByTestId('replay-hidden')).toContainText('truncationParent');
    // The same card in the dark palette.
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(page.getByTestId('replay-hidden')).toBeVisible();
    await page.emulateMedia({ colorScheme: 'light' });
    await page.keyboard.press('Escape');
    await knobsOpen(page, false);
  },
};

test.describe('every strategy replays the sample', () => {
  test.use({ viewport: { width: 1280, height: 720 } });
  test.skip(!fs.existsSync(INDEX), 'public/samples/index.json is not there yet (run the sample generator)');

  test('each registry strategy, picked in the replay row, settles with its events and its own card', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    expect(Object.keys(MORE).filter((id) => !STRATEGIES.some((s) => s.id === id))).toEqual([]);
    await page.goto('/');
    await expect(page.locator('[data-testid="replay-marker"]').first()).toBeVisible();
    for (const strategy of STRATEGIES) {
      await test.step(strategy.id, async () => {
        await page.getByTestId('replay-strategy').selectOption(strategy.id);
        // The run's own strategy, not the last one's result still shown while it runs.
        await expect(page.getByTestId('replay-section')).toHaveAttribute('data-strategy', strategy.id);
        await settled(page);
        await expect(page.getByTestId('replay-event-count')).toHaveAttribute('data-count', /^\d+$/);
        await MORE[strategy.id]?.(page);
        await expect(page.getByTestId('replay-event-card')).toHaveCount(0);
      });
    }
  });
});
