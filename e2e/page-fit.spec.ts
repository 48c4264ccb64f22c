import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { createFixtureText } from '../tests/summarize/fixture';
import { dropFiles, expect, openEmpty, SAMPLES_DIR, test } from './fixtures';

// What a tester found cut or out of order at 1280×720 on the production build: the replay's event
// chips cut at the strip's right edge with no sign more follow (a real Cline history; here the
// sample under API context management, 130-odd chips); a duration of 47 h read "47h 32m" where
// others read "2d 1h".

const INDEX = path.join(SAMPLES_DIR, 'index.json');
const SHOTS = path.join(import.meta.dirname, '..', 'test-results', 'page-fit');

async function openSample(page: Page): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/');
  await expect(page.getByTestId('session-header')).toBeVisible();
  await expect(page.getByTestId('replay-section')).toHaveAttribute('data-busy', 'false');
}

test.describe('fit at 1280×720', () => {
  test.skip(!fs.existsSync(INDEX), 'public/samples/index.json is not there yet (run the sample generator)');

  test('event chips past the strip’s edge: a › says so and scrolls to them; End reaches the last one', async ({
    page,
  }) => {
    await openSample(page);
    await page.getByTestId('replay-strategy').selectOption('api-clear-tool-uses');
    await expect(page.getByTestId('replay-section')).toHaveAttribute('data-strategy', 'api-clear-tool-uses');
    await expect(page.getByTestId('replay-section')).toHaveAttribute('data-busy', 'false');
    const strip = page.getByTestId('replay-events-strip');
    const chips = page.getByTestId('replay-event-chip');
    expect(await chips.count()).toBeGreaterThan(40);
    await expect(strip).toHaveAttribute('data-overflow', 'true');
    const after = page.getByTestId('replay-events-after');
    await expect(after).toBeInViewport();
    await expect(page.getByTestId('replay-events-before')).toHaveCount(0);
    const box = (await strip.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(1280);
    // The › scrolls on; a ‹ then says chips lie back the other way.
    const first = (await chips.first().boundingBox())!.x;
    await after.click();
    await expect(page.getByTestId('replay-events-before')).toBeVisible();
    expect((await chips.first().boundingBox())!.x).toBeLessThan(first);
    await page.screenshot({ path: path.join(SHOTS, 'event-chips-scrolled.png') });
    // From the keyboard: the chips are one Tab stop; End from the first reaches the last, shown
    // whole inside the strip.
    await chips.first().focus();
    await page.keyboard.press('End');
    await expect(chips.last()).toBeFocused();
    await expect(page.getByTestId('replay-events-after')).toHaveCount(0);
    // Measured once the strip has settled: the focus scroll's event removes the ›, which widens
    // the strip by its width in the next render (a busy machine measured in between: 23 px over).
    await expect(async () => {
      const events = (await page.getByTestId('replay-events').boundingBox())!;
      const last = (await chips.last().boundingBox())!;
      expect(last.x).toBeGreaterThanOrEqual(events.x - 0.5);
      expect(last.x + last.width).toBeLessThanOrEqual(events.x + events.width + 0.5);
    }).toPass({ timeout: 5_000 });
  });

  test('a duration past a day reads in days and hours, as every other does', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await openEmpty(page);
    // The fixture's session, its last record 47 h 32 m after its first.
    const lines = createFixtureText().trimEnd().split('\n');
    const first = Date.parse(JSON.parse(lines[0]!).timestamp);
    const last = JSON.parse(lines.at(-1)!);
    last.timestamp = new Date(first + (47 * 60 + 32) * 60_000).toISOString();
    lines[lines.length - 1] = JSON.stringify(last);
    await dropFiles(page, [{ name: 'two-days.jsonl', content: `${lines.join('\n')}\n` }]);
    await expect(page.getByTestId('header-span')).toContainText('(1d 23h)');
  });

  // The Tokens tab squeezed eleven columns into the 384 px panel ("es… Δ … c…", values "16…");
  // the Issues tab cut every message at one line, its whole text only in a mouse tooltip.
  test('side tables: Tokens shows whole figures (the rest after widening), an issue opens whole', async ({
    page,
  }) => {
    await openSample(page);
    await page.getByRole('tab', { name: /Tokens/ }).click();
    const header = page.locator('.tok-header');
    await expect(header).toBeVisible();
    await expect(page.getByTestId('tok-narrow-hint')).toBeVisible();
    const cut = async (selector: string) =>
      page.locator(selector).evaluateAll((cells) =>
        cells
          .filter((c) => (c as HTMLElement).offsetParent !== null)
          .filter((c) => c.scrollWidth > c.clientWidth + 1)
          .map((c) => c.textContent),
      );
    expect(await cut('.tok-header > span')).toEqual([]);
    expect(await cut('[data-testid="token-row"] > span')).toEqual([]);
    // The time goes too: a real session's deltas (−126,083) need its room (tokens-narrow.spec.ts).
    expect(await header.locator('span:visible').allTextContents()).toEqual([
      '#',
      'real',
      'est.',
      'Δ real',
      'Δ est.',
      'gap',
    ]);
    await page.getByRole('tab', { name: /Issues/ }).click();
    const row = page.getByTestId('issue-row').first();
    await row.focus();
    await page.keyboard.press('Enter');
    const detail = page.getByTestId('issue-detail');
    await expect(detail).toBeVisible();
    const message = await row.getAttribute('title');
    expect(message).toBeTruthy();
    await expect(detail).toHaveText(message!);
    await expect(row).toHaveAttribute('aria-pressed', 'true');
  });
});
