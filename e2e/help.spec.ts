import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { DIALECTS } from '../src/engine/parse/dialects/registry';
import { expect, SAMPLES_DIR, test } from './fixtures';

// Issue 24 item 9: the empty page and the sample's first-run line name every agent the dialect
// registry reads; the `?` overlay lists the shortcuts, opens by key and by button, Esc closes it.
// At 1280×720, light and dark, with the geometry a person sees asserted and screenshots kept.

const AGENTS = [...new Set(DIALECTS.filter((d) => d.createNormalizer && d.agent).map((d) => d.agent!))];
const HAS_SAMPLE = fs.existsSync(path.join(SAMPLES_DIR, 'index.json'));

async function setUp(page: Page, scheme: 'light' | 'dark', url: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.emulateMedia({ colorScheme: scheme });
  await page.goto(url);
}

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`help (${scheme})`, () => {
    test('the empty page names every agent and format the registry reads', async ({ page }, testInfo) => {
      await setUp(page, scheme, '/?sample=0');
      const title = page.getByTestId('empty-title');
      await expect(title).toBeVisible();
      expect(AGENTS.length).toBeGreaterThan(5);
      for (const agent of AGENTS) await expect(title).toContainText(agent);
      const formats = page.getByTestId('read-formats').locator('li');
      await expect(formats).toHaveCount(
        DIALECTS.filter((d) => d.createNormalizer && d.files.location).length,
      );
      // The title fits the page's width (wraps, never cut).
      const box = (await title.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(1280);
      await page.screenshot({ path: testInfo.outputPath(`empty-${scheme}.png`) });
    });

    test('the sample says what it is and names every agent; dismissed, it stays so', async ({
      page,
    }, testInfo) => {
      test.skip(!HAS_SAMPLE, 'no bundled sample');
      await setUp(page, scheme, '/');
      const line = page.getByTestId('first-run');
      await expect(line).toBeVisible();
      for (const agent of AGENTS) await expect(page.getByTestId('first-run-agents')).toContainText(agent);
      // One line above the session header, full width, not covering it.
      const lineBox = (await line.boundingBox())!;
      const header = (await page.getByTestId('session-header').boundingBox())!;
      expect(lineBox.width).toBeGreaterThan(1200);
      expect(lineBox.height).toBeLessThanOrEqual(18); // one line
      expect(lineBox.y + lineBox.height).toBeLessThanOrEqual(header.y + 1);
      await page.screenshot({ path: testInfo.outputPath(`first-run-${scheme}.png`) });
      await page.getByTestId('first-run-dismiss').click();
      await expect(line).toHaveCount(0);
      await page.reload();
      await expect(page.getByTestId('session-header')).toBeVisible();
      await expect(page.getByTestId('first-run')).toHaveCount(0);
    });

    test('? lists every shortcut, from the keyboard; Esc closes it', async ({ page }, testInfo) => {
      await setUp(page, scheme, '/?sample=0');
      await expect(page.getByTestId('empty-title')).toBeVisible();
      await page.keyboard.press('?');
      const overlay = page.getByTestId('shortcuts-overlay');
      await expect(overlay).toBeVisible();
      await expect(page.getByTestId('shortcuts-close')).toBeFocused();
      for (const key of ['Shift+drag', 'PgDn', 'Esc', 'Enter']) await expect(overlay).toContainText(key);
      expect(await overlay.getByTestId('shortcut-row').count()).toBeGreaterThanOrEqual(12);
      // Wholly on screen at 1280×720, no inner scroll needed.
      const box = (await overlay.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(720);
      expect(await overlay.evaluate((el) => el.scrollHeight <= el.clientHeight + 1)).toBe(true);
      await page.screenshot({ path: testInfo.outputPath(`shortcuts-${scheme}.png`) });
      await page.keyboard.press('Escape');
      await expect(overlay).toHaveCount(0);
      // The top bar's ? button reaches it by Tab and Enter.
      const button = page.getByTestId('shortcuts-button');
      await button.focus();
      await page.keyboard.press('Enter');
      await expect(overlay).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(overlay).toHaveCount(0);
      await expect(button).toBeFocused();
      // Typed in a field, ? is a character.
      await page.getByTestId('paste-button').click();
      await page.locator('textarea').first().type('?');
      await expect(overlay).toHaveCount(0);
    });
  });
}
