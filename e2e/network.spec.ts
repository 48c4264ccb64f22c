import fs from 'node:fs';
import { CORPUS_FILE, dropFiles, expect, test } from './fixtures';

test('the page makes no request beyond localhost', async ({ page, context }) => {
  const seen: string[] = [];
  context.on('request', (request) => seen.push(request.url()));
  await page.goto('/');
  // Whether or not a sample is bundled, the app settles into a session or the empty state.
  await expect(page.getByTestId('session-header').or(page.getByTestId('empty-title'))).toBeVisible();
  if (fs.existsSync(CORPUS_FILE)) {
    await dropFiles(page, [{ name: 'session.jsonl', content: fs.readFileSync(CORPUS_FILE, 'utf8') }]);
    await expect(page.getByTestId('stat-entries')).toContainText('546');
    await page.getByTestId('compaction-marker').first().click();
    await expect(page.getByTestId('compaction-summary')).toBeVisible();
    await page.getByTestId('tab-tokens').click();
    await page.getByTestId('tab-issues').click();
  }
  expect(seen.length).toBeGreaterThan(0);
  // data:, blob: and the like never leave the browser; every http(s)/ws request must be local.
  const network = seen.map((u) => new URL(u)).filter((u) => /^(https?|wss?):$/.test(u.protocol));
  expect(network.length).toBeGreaterThan(0);
  for (const url of network) expect(url.hostname, url.href).toBe('127.0.0.1');
  // The auto `foreignRequests` fixture also checks this, including requests routed and aborted.
});
