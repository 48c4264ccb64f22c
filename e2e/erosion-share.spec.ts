import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { makeErosionChain, PLANTED_PATH } from '../tests/erosion/chain-fixture';
import { dropFiles, expect, FIXTURES_DIR, openEmpty, test } from './fixtures';

// Erosion across compactions, shareable links and recent files end to end: the Erosion tab on a
// generated session with four compactions (a planted path lost at the third), a link that brings
// back strategy, knobs, selected entry and tab once the same file is dropped (and refuses another
// file), the start page's recent files, and the report's erosion chart opened from disk offline.

const CHAIN = makeErosionChain();
const CHAIN_NAME = 'erosion-chain.jsonl';
const TINY = fs.readFileSync(path.join(FIXTURES_DIR, 'tiny.jsonl'), 'utf8');
/** The parameters the page may put in its address: its own and the ones it was opened with. */
const ALLOWED_PARAMS = /^(?:file|name|strategy|entry|event|view|q|sample|knob\.[A-Za-z][\w-]*)$/;

async function openChain(page: Page) {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openEmpty(page);
  await dropFiles(page, [{ name: CHAIN_NAME, content: CHAIN }]);
  await expect(page.getByTestId('session-header')).toBeVisible();
}

test('the Erosion tab charts the chain and links each lost fact to its transcript line', async ({ page }) => {
  await openChain(page);
  await page.getByTestId('tab-erosion').click();
  await expect(page.getByTestId('erosion-chart')).toBeVisible();
  await expect(page.getByTestId('erosion-step')).toHaveCount(4);
  await expect(page.getByTestId('erosion-chart')).toHaveAttribute('alt', /after the last, \d+% of all facts/);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.getByTestId('erosion-chart')).toHaveAttribute('src', /%23111827/); // the dark background
  await page.emulateMedia({ colorScheme: 'light' });
  // The planted path is lost at the third compaction, and only there.
  const third = page.getByTestId('erosion-step').nth(2);
  await third.locator('summary').click();
  const lost = third
    .locator('[data-testid="erosion-lost-fact"][data-category="path"]')
    .filter({ hasText: PLANTED_PATH });
  await expect(lost).toHaveCount(1);
  for (const i of [0, 1, 3])
    await expect(
      page
        .getByTestId('erosion-step')
        .nth(i)
        .locator('[data-testid="erosion-lost-fact"][data-category="path"]')
        .filter({ hasText: PLANTED_PATH }),
    ).toHaveCount(0);
  // The fact's link: the transcript row that held it, selected and shown.
  await lost.getByRole('button').click();
  await expect(page.getByTestId('tab-detail')).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('[data-testid="transcript-row"][aria-selected="true"]')).toBeVisible();
  await expect(page.locator('.side-body')).toContainText('planted_fact.ts');
  // The replay's chain, summarized by the built-in summarizer.
  await page.getByTestId('tab-erosion').click();
  await page.getByTestId('erosion-source-replay').check();
  await expect(page.locator('.erosion-panel')).toContainText('built-in summarizer');
  await expect(page.getByTestId('erosion-step')).toHaveCount(4);
});

test('a copied link brings the view back once the same file is dropped; another file is refused', async ({
  page,
}) => {
  await openChain(page);
  await page.getByTestId('replay-strategy').selectOption('codex');
  await page.getByTestId('replay-knobs-toggle').click();
  await page.getByTestId('replay-knob-thresholdPercent').fill('70');
  // Codex's knobs panel (its version profile and count knobs) reaches over the transcript: closed.
  await page.getByTestId('replay-knobs-toggle').click();
  await page.getByTestId('search-input').fill('read');
  // A row the search kept (the filter applies after its debounce).
  const kept = page.getByTestId('transcript-row').filter({ has: page.getByTestId('search-hit') });
  await expect(kept.first()).toBeVisible();
  await kept.last().click();
  await page.getByTestId('tab-erosion').click();
  await expect(async () => {
    const url = new URL(page.url());
    expect(url.searchParams.get('strategy')).toBe('codex');
    expect(url.searchParams.get('knob.thresholdPercent')).toBe('70');
    expect(url.searchParams.get('view')).toBe('erosion');
    expect(url.searchParams.get('entry')).toMatch(/^\d+$/);
    expect(url.searchParams.get('file')).toMatch(/^[0-9a-f]{16}$/);
    expect(url.searchParams.get('sample')).toBe('0'); // not ours: kept
    expect(url.searchParams.get('q')).toBe('read');
  }).toPass();
  // An API key typed in the Summaries view never reaches the address.
  const key = 'sk-ant-api03-FAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKE-urlcheck';
  await page.getByTestId('summaries-toggle').click();
  await page.getByTestId('summarizer-anthropic').check();
  await page.getByTestId('anthropic-key').fill(key);
  await page.waitForTimeout(600); // past the address bar's debounce
  expect(page.url()).not.toContain('FAKEFAKE');
  expect(decodeURIComponent(page.url())).not.toContain('sk-ant');
  await page.getByTestId('summaries-toggle').click();
  // Copy link: the same link as the address bar, on the clipboard.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByTestId('export-button').click();
  await page.getByTestId('copy-link').click();
  await expect(page.getByTestId('copy-link-status')).toContainText('Link copied');
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(new URL(link).search).toBe(new URL(page.url()).search);
  await page.keyboard.press('Escape');
  const params = new URL(link).searchParams;
  for (const key of params.keys()) expect(key).toMatch(ALLOWED_PARAMS);
  // Never the file's content: no line of it, whole or in part, is in the address.
  expect(decodeURIComponent(link)).not.toContain('planted_fact');
  expect(link.length).toBeLessThan(400);
  const entry = params.get('entry');

  // Reload from the link: it waits for its file, then applies.
  await page.goto(link);
  await expect(page.getByTestId('link-waiting')).toContainText(CHAIN_NAME);
  await dropFiles(page, [{ name: 'renamed-copy.jsonl', content: CHAIN }]);
  await expect(page.getByTestId('session-header')).toBeVisible();
  await expect(page.getByTestId('replay-strategy')).toHaveValue('codex');
  await expect(page.getByTestId('tab-erosion')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('erosion-chart')).toBeVisible();
  await page.getByTestId('replay-knobs-toggle').click();
  await expect(page.getByTestId('replay-knob-thresholdPercent')).toHaveValue('70');
  await expect(page.locator('[data-testid="transcript-row"][aria-selected="true"]')).toHaveCount(1);
  await expect(async () => expect(new URL(page.url()).searchParams.get('entry')).toBe(entry)).toPass();
  // The transcript search came back with it, in the box and in the rows.
  await expect(page.getByTestId('search-input')).toHaveValue('read');
  await expect(page.getByTestId('search-hit').first()).toBeVisible();

  // The same link with another file: said so, nothing applied.
  await page.goto(link);
  await dropFiles(page, [{ name: 'tiny.jsonl', content: TINY }]);
  await expect(page.getByTestId('session-header')).toBeVisible();
  await expect(page.getByTestId('link-notice')).toContainText(
    `This link was made for another file: ${CHAIN_NAME}`,
  );
  await expect(page.getByTestId('replay-strategy')).toHaveValue('claude-code');
  await expect(page.getByTestId('tab-detail')).toHaveAttribute('aria-selected', 'true');
});

test('recent files: a stored handle is listed after a reload and reopens the session with one click', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openEmpty(page);
  expect(
    await page.evaluate(
      () => typeof (DataTransferItem.prototype as { getAsFileSystemHandle?: unknown }).getAsFileSystemHandle,
    ),
  ).toBe('function');
  await expect(page.getByTestId('recent-files')).toHaveCount(0);
  // The app makes its store when it first lists the recent files, with Dexie loaded on demand
  // (common/lazy-dexie.ts): written before that, a database of no store refused the transaction.
  await expect
    .poll(() =>
      page.evaluate(async () => (await indexedDB.databases()).some((d) => d.name === 'compactlab-recent')),
    )
    .toBe(true);
  // A synthetic drop gives no file handle (only a user's drag does), so the test stores one: a
  // file of the origin-private file system, in the store the app keeps (recent-files.ts).
  await page.evaluate(
    async ({ name, content }) => {
      const root = await navigator.storage.getDirectory();
      const handle = await root.getFileHandle(name, { create: true });
      const writable = await handle.createWritable();
      await writable.write(content);
      await writable.close();
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open('compactlab-recent');
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      await new Promise<void>((resolve, reject) => {
        const tx = db.transaction('files', 'readwrite');
        const files = tx.objectStore('files');
        files.put({
          id: `${name}\u0000${content.length}`,
          label: name,
          openedAtMs: Date.now(),
          files: [{ name, handle }],
        });
        files.put({
          id: 'older',
          label: 'older-session.jsonl',
          openedAtMs: Date.now() - 86_400_000,
          files: [{ name: 'older-session.jsonl', handle }],
        });
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
      });
      db.close();
    },
    { name: CHAIN_NAME, content: CHAIN },
  );
  // A plain reload: the start page lists them instead of opening the sample.
  await page.goto('/');
  await expect(page.getByTestId('recent-files')).toBeVisible();
  await expect(page.getByTestId('reopen-last')).toContainText(CHAIN_NAME);
  await expect(page.getByTestId('recent-file')).toHaveCount(1);
  await page.getByTestId('reopen-last').click();
  await expect(page.getByTestId('session-header')).toBeVisible();
  await expect(page.locator('.current-label')).toContainText(CHAIN_NAME);
});

test('recent files are not shown where the browser gives no file handles', async ({ page }) => {
  // Neither a drop's handles nor the file picker's.
  await page.addInitScript(() => {
    delete (DataTransferItem.prototype as { getAsFileSystemHandle?: unknown }).getAsFileSystemHandle;
    delete (window as { showOpenFilePicker?: unknown }).showOpenFilePicker;
  });
  await openEmpty(page);
  await expect(page.getByTestId('dropzone')).toBeVisible();
  await expect(page.getByTestId('recent-files')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Reopen/ })).toHaveCount(0);
});

test('the HTML report opened from disk with the network blocked shows the erosion chart', async ({
  page,
  context,
}, testInfo) => {
  await openChain(page);
  await page.getByTestId('export-button').click();
  await expect(page.getByTestId('export-report-html')).toBeEnabled();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('export-report-html').click(),
  ]);
  const file = testInfo.outputPath('erosion-report.html');
  fs.copyFileSync(await download.path(), file);
  // Away from the app first: a chunk it was still loading is not the report's request.
  await page.goto('about:blank');
  const requests: string[] = [];
  await context.route('**/*', (route) => {
    if (route.request().url() === `file://${file}`) return route.continue();
    requests.push(route.request().url());
    return route.abort();
  });
  await page.goto(`file://${file}`);
  const section = page.locator('#erosion');
  await expect(section.locator('svg').first()).toBeVisible();
  await expect(section.locator('svg [data-series="path"]').first()).toBeVisible();
  await expect(section.locator('details').filter({ hasText: 'Compaction 3' }).first()).toContainText(
    'src/ledger/planted_fact.ts',
  );
  await expect(page.locator('script')).toHaveCount(0);
  await section.scrollIntoViewIfNeeded();
  expect(requests).toEqual([]);
});

test('a link made on the bundled sample opens the sample again, with its view', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/');
  await expect(page.getByTestId('session-header')).toBeVisible();
  await page.getByTestId('tab-erosion').click();
  await expect(async () => expect(new URL(page.url()).searchParams.get('view')).toBe('erosion')).toPass();
  await page.reload();
  await expect(page.getByTestId('session-header')).toBeVisible();
  await expect(page.getByTestId('tab-erosion')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('erosion-chart')).toBeVisible();
  await expect(page.getByTestId('link-notice')).toHaveCount(0);
});
