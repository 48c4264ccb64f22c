import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, SAMPLES_DIR, test } from './fixtures';

// Learn mode on the bundled sample: every step of every registry strategy's walk by the
// keyboard at 1280×720, dark and large type, a constant changed mid-walk re-runs the step in
// place, a step URL reloads onto that step, a later compaction picked and its URL reloaded.

const INDEX = path.join(SAMPLES_DIR, 'index.json');
/** Every strategy of the registry (src/engine/strategies/registry.ts), in its order. */
const STRATEGY_IDS = [
  'claude-code',
  'api-clear-tool-uses',
  'anthropic-sdk-compaction',
  'codex',
  'cline',
  'boundary-scoring',
  'opencode',
  'gemini-cli',
  'roo',
  'pi',
];

async function stepCount(page: Page): Promise<number> {
  await expect(page.getByTestId('learn-count')).toHaveText(/^Step \d+ of \d+$/);
  const text = (await page.getByTestId('learn-count').textContent()) ?? '';
  return Number(/of (\d+)/.exec(text)?.[1]);
}

async function openLearn(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByTestId('session-header')).toBeVisible();
  await page.getByTestId('learn-button').click();
  await expect(page.getByTestId('learn-view')).toBeVisible();
}

test.describe('learn mode', () => {
  test.skip(!fs.existsSync(INDEX), 'public/samples/index.json is not there yet (run the sample generator)');
  test.use({ viewport: { width: 1280, height: 720 } });

  test('walks every step of every strategy with the keyboard', async ({ page }) => {
    await openLearn(page);
    // The sample is Claude Code's: its walk opens first, and says so in the URL.
    await expect(page.getByTestId('learn-strategy-claude-code')).toHaveAttribute('aria-pressed', 'true');
    await expect(page).toHaveURL(/[?&]learn=claude-code&step=1\b/);
    for (const id of STRATEGY_IDS) {
      await page.getByTestId(`learn-strategy-${id}`).click();
      await expect(page.getByTestId('learn-count')).toHaveText(/^Step 1 of \d+$/);
      const n = await stepCount(page);
      expect(n, `${id}: overview and check at least`).toBeGreaterThanOrEqual(2);
      // Focus out of the tab strip, so the arrows are the page's.
      await page.getByTestId('learn-title').focus();
      const seen: string[] = [];
      for (let i = 0; i < n; i++) {
        await expect(page.getByTestId('learn-count')).toHaveText(`Step ${i + 1} of ${n}`);
        await expect(page).toHaveURL(new RegExp(`[?&]learn=${id}&step=${i + 1}\\b`));
        const stepId = await page.getByTestId('learn-step').getAttribute('data-step-id');
        seen.push(stepId ?? '');
        await page.keyboard.press('ArrowRight');
      }
      // Past the end nothing moves, and Next looks as unusable as it is; ← goes back.
      await expect(page.getByTestId('learn-count')).toHaveText(`Step ${n} of ${n}`);
      const next = page.getByTestId('learn-next');
      await expect(next).toBeDisabled();
      expect(await next.evaluate((el) => getComputedStyle(el).borderStyle)).toBe('dashed');
      await page.keyboard.press('ArrowLeft');
      await expect(page.getByTestId('learn-count')).toHaveText(`Step ${n - 1} of ${n}`);
      expect(new Set(seen).size, `${id}: step ids are distinct`).toBe(n);
      expect(seen.slice(0, 2)).toEqual(['overview', 'check']);
      if (id === 'claude-code')
        expect(seen).toEqual([
          'overview',
          'check',
          'clear',
          'attempt',
          'span',
          'filter',
          'prompt',
          'summary',
          'cleanup',
          'boundary',
          'restore',
          'continuation',
          'after',
        ]);
      if (id === 'cline') expect(seen).toContain('truncate');
      if (id === 'api-clear-tool-uses') expect(seen).toContain('clear');
      // Another agent's summary: its own prompt, none of Claude Code's records.
      if (['gemini-cli', 'opencode', 'roo', 'pi', 'anthropic-sdk-compaction'].includes(id)) {
        expect(seen).toContain('summary');
        expect(seen).not.toContain('cleanup');
        expect(seen).not.toContain('boundary');
      }
    }
    // Esc leaves learn mode and the URL forgets it.
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('learn-view')).toHaveCount(0);
    await expect(page.getByTestId('session-header')).toBeVisible();
    expect(page.url()).not.toContain('learn=');
  });

  test('a constant changed mid-walk re-runs the step in place', async ({ page }) => {
    await openLearn(page);
    await page.getByTestId('learn-title').focus();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByTestId('learn-step')).toHaveAttribute('data-step-id', 'check');
    // ▶ Fill replays the count call by call and stops at the step's call.
    await page.getByTestId('learn-fill').click();
    await expect(page.getByTestId('learn-bar-at')).toHaveText('API call 268: 156,951');
    const threshold = page.getByTestId('figure-Auto-compact threshold');
    const before = await threshold.textContent();
    const callBefore = await page.getByTestId('figure-Count compared').textContent();
    // The sample's 2.0.x profile reserves 32,000 for output: a 180,000 window compacts at 135,000.
    await page.getByTestId('learn-knob-contextWindow').fill('180000');
    await page.getByTestId('learn-knob-contextWindow').press('Enter');
    await expect(threshold).toHaveText('135,000 tokens');
    expect(before).toBe('155,000 tokens');
    // Still the check step, now at an earlier call with another count.
    await expect(page.getByTestId('learn-step')).toHaveAttribute('data-step-id', 'check');
    await expect(page.getByTestId('figure-Count compared')).not.toHaveText(callBefore ?? '');
    await expect(page).toHaveURL(/[?&]step=2\b/);
    // A fixed constant shows its value and source, no control.
    await expect(page.getByTestId('learn-fixed-AUTOCOMPACT_BUFFER')).toHaveText('13,000');
    // Escape in a field being edited undoes the edit and stays in learn mode.
    await page.getByTestId('learn-knob-contextWindow').fill('99000');
    await page.getByTestId('learn-knob-contextWindow').press('Escape');
    await expect(page.getByTestId('learn-knob-contextWindow')).toHaveValue('180000');
    await expect(page.getByTestId('learn-view')).toBeVisible();
    await page.getByTestId('learn-reset').click();
    await expect(threshold).toHaveText('155,000 tokens');
  });

  test('a step URL reloads onto that step, other parameters kept', async ({ page }) => {
    // `ref` stands for any parameter learn mode does not own (the link's own ones are url-state.ts's).
    await page.goto('/?ref=class&learn=claude-code&step=7');
    await expect(page.getByTestId('learn-view')).toBeVisible();
    await expect(page.getByTestId('learn-count')).toHaveText(/^Step 7 of \d+$/);
    await expect(page.getByTestId('learn-step')).toHaveAttribute('data-step-id', 'prompt');
    await page.keyboard.press('ArrowRight');
    // Parameters learn mode does not own stay: `ref`, and the share link's file hash and name.
    await expect(page).toHaveURL(/[?&]learn=claude-code&step=8(&|$)/);
    await expect(page).toHaveURL(/[?&]ref=class(&|$)/);
    await expect(page).toHaveURL(/[?&]file=[0-9a-f]{16}(&|$)/);
    await page.reload();
    await expect(page.getByTestId('learn-step')).toHaveAttribute('data-step-id', 'summary');
    // The built-in summarizer wrote it: no key, no network (the fixture audits requests).
    await expect(page.getByTestId('learn-step')).toContainText('Built-in summary by CompactLab');
    await page.getByTestId('learn-large').check();
    await expect(page).toHaveURL(/[?&]large=1(&|$)/);
  });

  // The clearing step's bar drew microcompact's own threshold under the auto-compact name
  // ("— auto-compact 135,000", where step 2 says auto-compact is 155,000).
  test("names each step's threshold line by the line it draws", async ({ page }) => {
    await page.goto('/?learn=claude-code&step=2');
    await expect(page.getByTestId('learn-step')).toHaveAttribute('data-step-id', 'check');
    await expect(page.getByTestId('learn-bar-threshold')).toHaveText('— auto-compact 155,000');
    await page.goto('/?learn=claude-code&step=3');
    await expect(page.getByTestId('learn-step')).toHaveAttribute('data-step-id', 'clear');
    await expect(page.getByTestId('learn-bar-threshold')).toHaveText(
      '— microcompact = warning = error 135,000',
    );
    await page.screenshot({ path: test.info().outputPath('learn-clear-step.png') });
  });

  test('reads in dark and in large type', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/?learn=claude-code&step=2');
    await expect(page.getByTestId('learn-step')).toHaveAttribute('data-step-id', 'check');
    await expect(page.getByTestId('learn-bar')).toBeVisible();
    await page.goto('/?learn=claude-code&step=2&large=1');
    await expect(page.getByTestId('learn-view')).toHaveClass(/learn-large/);
    await expect(page.getByTestId('learn-bar')).toBeVisible();
  });

  // A Cline constant's source (cline/cline@<commit>:src/…) ran 90 px past the constants' box.
  test('every constant and its source stay inside the constants box, each strategy', async ({ page }) => {
    await page.setViewportSize({ width: 1920, height: 1080 });
    for (const id of ['cline', 'codex', 'claude-code']) {
      await page.goto(`/?learn=${id}&step=2`);
      const box = page.getByTestId('learn-constants');
      await expect(box).toBeVisible();
      const over = await box.evaluate((aside) => {
        const edge = aside.getBoundingClientRect().right;
        return Array.from(aside.querySelectorAll('li *'))
          .filter((el) => el.getBoundingClientRect().right > edge + 1)
          .map((el) => (el.textContent ?? '').slice(0, 60));
      });
      expect(over, id).toEqual([]);
    }
  });

  test('picks a later compaction; its URL reloads onto it', async ({ page }) => {
    await page.goto('/?view=timeline&learn=gemini-cli&step=2');
    await expect(page.getByTestId('learn-step')).toHaveAttribute('data-step-id', 'check');
    const picker = page.getByTestId('learn-event');
    const options = picker.locator('option');
    const n = await options.count();
    expect(n, 'Gemini CLI compresses the sample more than once').toBeGreaterThan(1);
    await expect(options.first()).toHaveText(/^1\. summary at call \d+/);
    const countBefore = await page.getByTestId('figure-Count compared').textContent();
    const last = await options.nth(n - 1).getAttribute('value');
    const lastLabel = (await options.nth(n - 1).textContent()) ?? '';
    const call = /at call (\d+)/.exec(lastLabel)?.[1];
    await picker.selectOption(last!);
    // Same step, the later compaction's call and count.
    await expect(page).toHaveURL(new RegExp(`[?&]learn=gemini-cli&event=${last}&step=2(&|$)`));
    await expect(page.getByTestId('learn-step')).toHaveAttribute('data-step-id', 'check');
    await expect(page.getByTestId('learn-step')).toContainText(`At API call ${call} of the main thread`);
    await expect(page.getByTestId('figure-Count compared')).not.toHaveText(countBefore ?? '');
    await page.reload();
    await expect(picker).toHaveValue(last!);
    await expect(page.getByTestId('learn-step')).toContainText(`At API call ${call} of the main thread`);
    await page.getByTestId('learn-title').focus();
    await page.keyboard.press('ArrowLeft');
    await expect(page.getByTestId('learn-step')).toContainText(`compaction ${n} of ${n}`);
    // Another strategy starts from its own default compaction.
    await page.getByTestId('learn-strategy-claude-code').click();
    await expect(page).toHaveURL(/[?&]learn=claude-code&step=1(&|$)/);
  });
});
