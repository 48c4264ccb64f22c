import fs from 'node:fs';
import path from 'node:path';
import { expect, FIXTURES_DIR, openEmpty, test } from './fixtures';

// OpenCode's SQLite storage in the page (issue 18 item 3): opencode.db picked with its -wal opens
// the library, one row per session, scanned in a worker with sql.js (its WebAssembly allowed by
// the page's CSP, 'wasm-unsafe-eval'); the row opens the session, its steps the calls.

const DB = path.join(FIXTURES_DIR, 'opencode', 'db', 'opencode.db');

test('a picked opencode.db lists its sessions and opens one', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await openEmpty(page);
  await page.getByTestId('file-input').setInputFiles([
    { name: 'opencode.db', mimeType: 'application/octet-stream', buffer: fs.readFileSync(DB) },
    { name: 'opencode.db-wal', mimeType: 'application/octet-stream', buffer: fs.readFileSync(`${DB}-wal`) },
  ]);
  await expect(page.getByTestId('library')).toBeVisible();
  const rows = page.getByTestId('library-row');
  await expect(rows).toHaveCount(1);
  await expect(page.getByTestId('library-rows')).not.toContainText('scanning…');
  await expect(rows.first().locator('[data-col="agent"]')).toContainText('OpenCode');
  await expect(rows.first().locator('[data-col="calls"]')).toContainText('4');
  // The session's own records (its JSON as read), not the database's file and log (76.2 kB).
  await expect(rows.first().locator('[data-col="size"]')).toHaveText('24.9 kB');
  await rows.first().click();
  await expect(page.getByTestId('session-header')).toContainText('OpenCode');
  expect(errors.filter((e) => /Content Security Policy|WebAssembly/i.test(e))).toEqual([]);
});

// A custom strategy runs in a sandbox without fetch, where sql.js could not load its .wasm: Run on
// an opencode.db session failed with "XMLHttpRequest is not a constructor" (ui/custom/sandbox.ts).
test('a custom strategy runs on a session read from opencode.db', async ({ page }) => {
  await openEmpty(page);
  await page.getByTestId('file-input').setInputFiles([
    { name: 'opencode.db', mimeType: 'application/octet-stream', buffer: fs.readFileSync(DB) },
    { name: 'opencode.db-wal', mimeType: 'application/octet-stream', buffer: fs.readFileSync(`${DB}-wal`) },
  ]);
  await page.getByTestId('library-row').first().click();
  await expect(page.getByTestId('session-header')).toContainText('OpenCode');
  await page.getByTestId('custom-open').click();
  await expect(page.getByTestId('custom-editor').locator('.monaco-editor')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('custom-run').click();
  const table = page.getByTestId('custom-table');
  await expect(table).toBeVisible({ timeout: 60_000 });
  // The strategy's row beside the log's own (OpenCode's) and the other built-ins compared.
  await expect(table).toContainText('clear-old-results');
  await expect(table).toContainText('opencode');
});
