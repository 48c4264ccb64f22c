import fs from 'node:fs';
import path from 'node:path';
import { expect, SAMPLES_DIR, test } from './fixtures';

// The OpenCode and Gemini CLI strategies on the bundled sample: their knobs in the panel (drawn
// from the specs), OpenCode's prune as a clearing event, and a Gemini CLI compression whose card
// counts two LLM calls and shows both summarizer requests (the snapshot, then the probe).

const INDEX = path.join(SAMPLES_DIR, 'index.json');

test.describe('OpenCode and Gemini CLI strategies', () => {
  test.use({ viewport: { width: 1280, height: 720 } });
  test.skip(!fs.existsSync(INDEX), 'public/samples/index.json is not there yet (run the sample generator)');

  test('Gemini CLI: two LLM calls, both requests in the card', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('[data-testid="replay-marker"]').first()).toBeVisible();
    await page.getByTestId('replay-strategy').selectOption('gemini-cli');
    await expect(page.getByTestId('replay-section')).toHaveAttribute('data-busy', 'false');
    await page.getByTestId('replay-knobs-toggle').click();
    const knobs = page.getByTestId('replay-knobs');
    await expect(knobs).toContainText('Model token limit');
    await expect(knobs).toContainText('Verification probe');
    await expect(page.getByTestId('replay-knob-compressionThreshold')).toHaveValue('0.5');
    await page.getByTestId('replay-knobs-toggle').click();
    const chip = page.locator('[data-testid="replay-event-chip"].kind-compact').first();
    await expect(chip).toBeVisible();
    await chip.click();
    const card = page.getByTestId('replay-event-card');
    await expect(card.getByTestId('replay-llm-calls')).toContainText('2');
    await expect(card).toContainText('characters kept');
    const request = card.getByTestId('replay-request');
    await expect(request).toContainText('request 1 of 2');
    await expect(request.getByTestId('replay-request-followup')).toContainText('verification probe');
    await request.getByText('Prompt 2').click();
    await expect(request.getByTestId('replay-request-followup')).toContainText('<state_snapshot>');
  });

  test('OpenCode: knobs from the specs, prune and compaction events', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('[data-testid="replay-marker"]').first()).toBeVisible();
    await page.getByTestId('replay-strategy').selectOption('opencode');
    await expect(page.getByTestId('replay-section')).toHaveAttribute('data-busy', 'false');
    await page.getByTestId('replay-knobs-toggle').click();
    const section = page.getByTestId('replay-knobs');
    for (const label of [
      'Model context limit',
      'Protect newest tool output',
      'Prune only above',
      'Tools never pruned',
    ])
      await expect(section).toContainText(label);
    await expect(page.getByTestId('replay-knob-pruneProtectTokens')).toHaveValue('40000');
    await page.getByTestId('replay-knobs-toggle').click();
    await expect(page.locator('[data-testid="replay-event-chip"].kind-microcompact').first()).toBeVisible();
    const compact = page.locator('[data-testid="replay-event-chip"].kind-compact').first();
    await expect(compact).toBeVisible();
    await compact.click();
    const card = page.getByTestId('replay-event-card');
    await expect(card.getByTestId('replay-llm-calls')).toContainText('1');
    await expect(card.getByTestId('replay-request')).toContainText('prompt “opencode”');
  });
});
