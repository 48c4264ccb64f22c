import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { buildPiSession, type PiTurnSpec } from '../tests/replay/pi-session';
import { dropFiles, expect, openEmpty, SAMPLES_DIR, test } from './fixtures';

// The Roo Code and pi strategies in the page: Roo's event card says what a rewind would restore
// (the messages it tagged instead of deleting); pi's lists the files its summary carries.

const INDEX = path.join(SAMPLES_DIR, 'index.json');

async function settled(page: Page): Promise<void> {
  await expect(page.getByTestId('replay-section')).toHaveAttribute('data-busy', 'false');
}

test.describe('Roo Code on the sample', () => {
  test.skip(!fs.existsSync(INDEX), 'public/samples/index.json is not there yet (run the sample generator)');

  test('a condense and a sliding-window truncation say what a rewind restores', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('[data-testid="replay-marker"]').first()).toBeVisible();
    await page.getByTestId('replay-strategy').selectOption('roo');
    await settled(page);
    await page.getByTestId('replay-knobs-toggle').click();
    await expect(page.getByTestId('replay-knobs')).toBeVisible();
    await page.getByTestId('replay-knob-autoCondensePercent').fill('40');
    const condensed = page.locator('[data-testid="replay-event-chip"].kind-compact');
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
    const truncated = page.locator('[data-testid="replay-event-chip"].kind-truncate');
    await expect(async () => expect(await truncated.count()).toBeGreaterThan(0)).toPass();
    await expect(condensed).toHaveCount(0);
    await settled(page);
    await truncated.first().click();
    await expect(card).toContainText('tokens hidden');
    await expect(page.getByTestId('replay-hidden')).toContainText('truncationParent');
    // The same card in the dark palette.
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(page.getByTestId('replay-hidden')).toBeVisible();
  });
});

test('pi: the summary event lists the files read and modified so far', async ({ page }) => {
  const turns: PiTurnSpec[] = [];
  // 29 turns of ~6,600 tokens: over window − 16,384 once, at the end of turn 27 (peak < 200,000).
  for (let t = 0; t < 29; t++) {
    const tools: NonNullable<PiTurnSpec['calls'][number]['tools']> = [
      { name: 'read', path: `src/module${t}.ts`, resultChars: 26_000 },
    ];
    if (t % 4 === 3) tools.push({ name: 'edit', path: `src/module${t - 1}.ts`, resultChars: 100 });
    turns.push({ promptChars: 400, calls: [{ tools }, {}] });
  }
  await openEmpty(page);
  await dropFiles(page, [
    {
      name: '2026-03-09T12-00-00-000Z_11111111-2222-4333-8444-555555555555.jsonl',
      content: buildPiSession({ turns }),
    },
  ]);
  await expect(page.getByTestId('session-header')).toContainText('pi');
  await settled(page);
  await expect(page.getByTestId('replay-strategy')).toHaveValue('pi');
  const compact = page.locator('[data-testid="replay-event-chip"].kind-compact');
  await expect(compact).toHaveCount(1);
  await compact.click();
  const files = page.getByTestId('replay-tracked-files');
  await expect(files).toContainText('modified · src/module2.ts');
  await expect(files).toContainText('read · src/module0.ts');
  await expect(files).not.toContainText('read · src/module2.ts');
});
