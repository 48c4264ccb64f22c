import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { createMockServer } from '../mock/anthropic-mock.mjs';
import { createMockServer as createOpenAiMock } from '../mock/openai-mock.mjs';
import { createFixtureText } from '../tests/summarize/fixture';
import { dropFiles, expect, exportFile, openEmpty, test } from './fixtures';

// A user who sets an Anthropic key and an OpenAI-compatible server's key (not remembered), runs a
// summary with each against the local mocks, then exports and shares: neither key is in the page's
// markup (any attribute, input values aside), its storage (localStorage, sessionStorage, every
// IndexedDB database), the address, a copied link, any console message, the runs' export or any
// Export menu file.

const ANTHROPIC_KEY = 'sk-ant-api03-KeysE2eAnthropicNeverKept0123456789abcdefXYZ-AA';
const OPENAI_KEY = 'sk-proj-KeysE2eOpenAiNeverKept0123456789abcdefXYZ';
const KEYS = [ANTHROPIC_KEY, OPENAI_KEY];

const anthropic = createMockServer({ chunkDelayMs: 2 });
const openai = createOpenAiMock({ chunkDelayMs: 2 });
const urls = { anthropic: '', openai: '' };
test.beforeAll(async () => {
  await new Promise<void>((resolve) => anthropic.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => openai.listen(0, '127.0.0.1', resolve));
  urls.anthropic = `http://127.0.0.1:${(anthropic.address() as AddressInfo).port}`;
  urls.openai = `http://127.0.0.1:${(openai.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  await new Promise<void>((resolve) => anthropic.close(() => resolve()));
  await new Promise<void>((resolve) => openai.close(() => resolve()));
});

function expectNoKey(text: string, what: string) {
  for (const key of KEYS) expect(text.includes(key), `a key in ${what}`).toBe(false);
}

/** Every attribute of the document, the markup as serialised (input values are properties). */
async function markup(page: Page): Promise<string> {
  return page.evaluate(() => {
    const attrs: string[] = [];
    for (const el of document.querySelectorAll('*'))
      for (const a of el.attributes) attrs.push(`${el.tagName}[${a.name}=${a.value}]`);
    return `${document.documentElement.outerHTML}\n${attrs.join('\n')}`;
  });
}

/** localStorage, sessionStorage and every record of every IndexedDB database. */
async function storage(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const out: string[] = [JSON.stringify(localStorage), JSON.stringify(sessionStorage)];
    for (const info of await indexedDB.databases()) {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(info.name!);
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      for (const store of db.objectStoreNames) {
        const all = await new Promise<unknown[]>((resolve, reject) => {
          const req = db.transaction(store).objectStore(store).getAll();
          req.onsuccess = () => resolve(req.result);
          req.onerror = () => reject(req.error);
        });
        out.push(`${info.name}/${store}: ${JSON.stringify(all)}`);
      }
      db.close();
    }
    return out.join('\n');
  });
}

test('API keys: never in markup, storage, the address, a copied link, the console or an export', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const consoleText: string[] = [];
  page.on('console', (m) => consoleText.push(m.text()));
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await openEmpty(page);
  await dropFiles(page, [{ name: 'keys-session.jsonl', content: createFixtureText() }]);
  await expect(page.getByTestId('session-header')).toBeVisible();
  await page.getByTestId('summaries-toggle').click();
  await expect(page.getByTestId('point-select')).toBeVisible();

  await page.getByTestId('summarizer-anthropic').check();
  await page.getByTestId('anthropic-key').fill(ANTHROPIC_KEY);
  await page.getByTestId('anthropic-base-url').fill(urls.anthropic);
  await page.getByTestId('anthropic-model').fill('claude-sonnet-4-6');
  await page.getByTestId('run-summary').click();
  await expect(page.getByTestId('run-status')).toHaveText(/Done/);
  // An error the server answers (401) with the key set.
  await page.getByTestId('anthropic-model').fill('mock-401');
  await page.getByTestId('run-summary').click();
  await expect(page.getByTestId('run-error')).toBeVisible();

  await page.getByTestId('summarizer-openai').check();
  await page.getByTestId('openai-base-url').fill(urls.openai);
  await page.getByTestId('openai-key').fill(OPENAI_KEY);
  await page.getByTestId('openai-model').fill('llama3.1');
  await page.getByTestId('run-summary').click();
  await expect(page.getByTestId('run-status')).toHaveText(/Done/);
  // The keys were sent (the mocks saw an Authorization), so the page did hold and use them.
  expect(anthropic.requests.some((r: { hasAuthorization: boolean }) => r.hasAuthorization)).toBe(true);
  expect(openai.requests.some((r: { hasAuthorization: boolean }) => r.hasAuthorization)).toBe(true);
  await expect(page.getByTestId('run-row')).toHaveCount(2);
  // Both inputs still hold their key, as values only.
  await page.getByTestId('summarizer-anthropic').check();
  await expect(page.getByTestId('anthropic-key')).toHaveValue(ANTHROPIC_KEY);

  await page.waitForTimeout(600); // past the address bar's debounce
  expectNoKey(await markup(page), 'the markup');
  expectNoKey(await storage(page), 'storage');
  expectNoKey(decodeURIComponent(page.url()), 'the address');

  const [runs] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-runs').click()]);
  expectNoKey(fs.readFileSync((await runs.path())!, 'utf8'), 'runs.json');

  await page.getByTestId('summaries-toggle').click();
  await page.getByTestId('export-button').click();
  await page.getByTestId('copy-link').click();
  await expect(page.getByTestId('copy-link-status')).toContainText('Link copied');
  expectNoKey(
    decodeURIComponent(await page.evaluate(() => navigator.clipboard.readText())),
    'the copied link',
  );
  await page.keyboard.press('Escape');

  for (const item of [
    'summaries-md',
    'summaries-json',
    'compacted-jsonl',
    'transcript-md',
    'transcript-html',
    'report-html',
    'timeline-svg',
  ]) {
    const download = await exportFile(page, item);
    expectNoKey(`${download.name}\n${download.bytes.toString('utf8')}`, item);
  }
  expectNoKey(consoleText.join('\n'), 'the console');
});
