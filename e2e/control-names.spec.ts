import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, openEmpty, SAMPLES_DIR, test } from './fixtures';
import { writeLibraryFolder } from './library-folder';
import { readTree, writeOpfsFiles, stubFolderPicker } from './opfs';

// Every control has a name a screen reader reads: the page's accessibility tree (Chromium's, as
// Playwright's ARIA snapshot gives it) walked view by view at 1280×720. What a tester found: the
// Paste dialog announced as a bare "dialog", its box named by its placeholder (a line of JSON);
// the Issues and Tokens tabs' lists a bare "listbox".

const INDEX = path.join(SAMPLES_DIR, 'index.json');

/** Roles a user operates or lands in; a line of the snapshot naming one with no "name". */
const UNNAMED =
  /^\s*- (button|textbox|combobox|checkbox|radio|tab|slider|spinbutton|link|listbox|option|switch|searchbox|menuitem|dialog|region)(\s*\[[^\]]*\])?:?\s*$/;

async function unnamed(page: Page): Promise<string[]> {
  const snapshot = await page.locator('body').ariaSnapshot();
  return snapshot.split('\n').filter((line) => UNNAMED.test(line));
}

test('the empty page and the Paste dialog: every control named, the box by what it takes', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openEmpty(page);
  expect(await unnamed(page)).toEqual([]);
  await page.getByTestId('paste-button').click();
  await expect(page.getByRole('dialog', { name: 'Paste a transcript' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Transcript text' })).toBeFocused();
  expect(await unnamed(page)).toEqual([]);
});

test.describe('the sample', () => {
  test.skip(!fs.existsSync(INDEX), 'public/samples/index.json is not there yet (run the sample generator)');

  test('the session and each side tab: every control named', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto('/');
    await expect(page.getByTestId('session-header')).toBeVisible();
    await expect(page.getByTestId('replay-section')).toHaveAttribute('data-busy', 'false');
    expect(await unnamed(page), 'the session').toEqual([]);
    for (const [tab, list] of [
      ['tab-tokens', 'tokens-list'],
      ['tab-issues', 'issues-list'],
    ] as const) {
      await page.getByTestId(tab).click();
      // The lists themselves are there: a tab without its list would pass for nothing.
      await expect(page.getByTestId(list)).toBeVisible();
      expect(await unnamed(page), tab).toEqual([]);
    }
    for (const tab of ['tab-bash', 'tab-secrets', 'tab-erosion', 'tab-detail']) {
      await page.getByTestId(tab).click();
      expect(await unnamed(page), tab).toEqual([]);
    }
  });
});

test('the library: every control named', async ({ page }) => {
  const folder = writeLibraryFolder(path.join(os.tmpdir(), `compactlab-names-e2e-${process.pid}`, 'work'));
  await stubFolderPicker(page, 'work');
  await page.setViewportSize({ width: 1280, height: 720 });
  await openEmpty(page);
  await writeOpfsFiles(page, 'work', readTree(folder.root), true);
  await page.getByTestId('open-folder').click();
  await expect(page.getByTestId('library-row')).toHaveCount(folder.sessions);
  await expect(page.getByTestId('library-rows')).not.toContainText('scanning…');
  expect(await unnamed(page)).toEqual([]);
});
