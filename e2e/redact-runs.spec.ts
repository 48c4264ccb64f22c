import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { createMockServer } from '../mock/anthropic-mock.mjs';
import { createFixtureText } from '../tests/summarize/fixture';
import { dropFiles, expect, openEmpty, test } from './fixtures';

// Issue 22 on the page: a secret planted in a loaded session (with its name in the first user
// message, bare in a tool result where no rule finds it) and a user name in the file's encoded
// project folder. Every export is re-scanned in the worker and holds neither (or is refused
// with a visible error); the summarizer request, a run's error, the stored run (IndexedDB) and
// runs.json hold them masked, as does what the mock server echoes back (the key and the secret);
// a base URL with credentials is shown without them.

const KEY = 'sk-ant-api03-E2eEchoedKeyNeverShown0123456789abcdefXYZ-AA';
const SECRET = 'Xq7mWz2LkP9vTb4nRc8sAb12QwZ';
const USER = 'e2eplanteduser';
const NAME = `-home-${USER}-work-demo.jsonl`;

/** The summaries fixture with the secret planted twice: named, then bare. */
function plantedFixture(): string {
  const records = createFixtureText()
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
  const firstUser = records.find((r) => r.type === 'user' && typeof r.message.content === 'string');
  firstUser.message.content += `\nexport DEPLOY_TOKEN=${SECRET}`;
  const result = records.find(
    (r) =>
      Array.isArray(r.message?.content) &&
      r.message.content.some((b: { type: string }) => b.type === 'tool_result'),
  );
  const block = result.message.content.find((b: { type: string }) => b.type === 'tool_result');
  block.content = `${block.content}\nused ${SECRET} for the deploy`;
  return `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;
}

const mock = createMockServer({ chunkDelayMs: 5, echo: [SECRET] });
let mockUrl = '';
test.beforeAll(async () => {
  await new Promise<void>((resolve) => mock.listen(0, '127.0.0.1', resolve));
  mockUrl = `http://127.0.0.1:${(mock.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  await new Promise<void>((resolve) => mock.close(() => resolve()));
});

function expectClean(text: string, what: string) {
  for (const value of [SECRET, KEY, USER]) expect(text.includes(value), `${value} in ${what}`).toBe(false);
}

/** An Export menu item: the downloaded file (name and text), or the refusal the menu shows. */
async function exportItem(
  page: Page,
  item: string,
): Promise<{ name: string; text: string } | { refused: string }> {
  const target = page.getByTestId(`export-${item}`);
  await expect(async () => {
    if (!(await target.isVisible())) await page.getByTestId('export-button').click();
    await expect(target).toBeVisible({ timeout: 2_000 });
  }).toPass();
  const download = page.waitForEvent('download', { timeout: 20_000 }).catch(() => undefined);
  await target.click();
  const refused = page.getByTestId('export-error');
  const first = await Promise.race([
    download,
    refused.waitFor({ timeout: 20_000 }).then(() => 'refused' as const),
  ]);
  if (first === 'refused' || first === undefined) return { refused: (await refused.textContent()) ?? '' };
  // The download closes the menu; the next export opens it again rather than clicking the closing one.
  await expect(page.getByTestId('export-menu')).toHaveCount(0);
  return { name: first.suggestedFilename(), text: fs.readFileSync((await first.path())!, 'utf8') };
}

test('a planted secret: exports re-scanned, request, run error, stored run and runs.json masked', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await openEmpty(page);
  await dropFiles(page, [{ name: NAME, content: plantedFixture() }]);
  await expect(page.getByTestId('session-header')).toBeVisible();

  // Every export: the secret (found by its name, masked bare too) and the user name are gone, or
  // the export is refused in words; here masking holds, so each downloads.
  for (const item of ['summaries-md', 'summaries-json', 'compacted-jsonl', 'report-html', 'timeline-svg']) {
    const out = await exportItem(page, item);
    if ('refused' in out) {
      expect(out.refused).toMatch(/^Export refused: a secret \(.+\) survived redaction on output line \d+/);
      expectClean(out.refused, `${item} refusal`);
      continue;
    }
    expectClean(out.name, `${item} file name`);
    expect(out.name).toContain('-home-~-work-demo');
    expectClean(out.text, item);
  }

  // The summarizer: the exact request masks the bare copy too.
  await page.getByTestId('summaries-toggle').click();
  await expect(page.getByTestId('point-select')).toBeVisible();
  await page.getByTestId('summarizer-anthropic').check();
  await page.getByTestId('anthropic-key').fill(KEY);
  // A base URL with credentials and a query: shown (and stored) without them.
  await page.getByTestId('anthropic-base-url').fill(`http://someone:pw-in-url@127.0.0.1:1/?api_key=q123`);
  await expect(page.getByTestId('anthropic-base-url-shown')).toContainText('http://127.0.0.1:1/');
  await expect(page.getByTestId('anthropic-base-url-shown')).not.toContainText('pw-in-url');
  await page.getByTestId('anthropic-base-url').fill(mockUrl);

  // A server that echoes the key and the secret in an error (JSON, then an HTML page).
  for (const model of ['mock-echo-key', 'mock-echo-html']) {
    await page.getByTestId('anthropic-model').fill(model);
    await page.getByTestId('run-summary').click();
    await expect(page.getByTestId('run-error')).toContainText('[REDACTED:');
    expectClean((await page.getByTestId('run-error').textContent()) ?? '', `${model} run error`);
  }
  // …and in the summary: shown and stored masked.
  await page.getByTestId('anthropic-model').fill('mock-echo-summary');
  await page.getByTestId('run-summary').click();
  await expect(page.getByTestId('run-status')).toHaveText(/Done/);
  await expect(page.getByTestId('summary-output')).toContainText('[REDACTED:');
  expectClean((await page.getByTestId('summary-output').textContent()) ?? '', 'summary output');
  // The request the server received held the bare copy masked (the mock records it).
  const sent = JSON.stringify(mock.requests.at(-1)?.body);
  expect(sent).toContain('used [REDACTED:');
  expectClean(sent, 'summarizer request');

  // The run store (IndexedDB) as the page wrote it.
  const stored = await page.evaluate(
    () =>
      new Promise<string>((resolve, reject) => {
        const open = indexedDB.open('compactlab-summaries');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const all = open.result.transaction('runs').objectStore('runs').getAll();
          all.onsuccess = () => resolve(JSON.stringify(all.result));
          all.onerror = () => reject(all.error);
        };
      }),
  );
  expect(stored).toContain('[REDACTED:');
  expectClean(stored, 'IndexedDB runs');
  expect(JSON.parse(stored)[0].summarizer.baseUrl).toBe(`${mockUrl}/`);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('export-runs').click(),
  ]);
  expectClean(fs.readFileSync((await download.path())!, 'utf8'), 'runs.json');
});
