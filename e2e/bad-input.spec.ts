import fs from 'node:fs';
import path from 'node:path';
import { dropFiles, expect, FIXTURES_DIR, openEmpty, shoot, test } from './fixtures';

function fixture(name: string, fallback: () => string): string {
  const file = path.join(FIXTURES_DIR, name);
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : fallback();
}

const envelope = (uuid: string, parentUuid: string | null, k: number) => ({
  parentUuid,
  isSidechain: false,
  userType: 'external',
  cwd: '/tmp/x',
  sessionId: 'ffffffff-0000-4000-8000-000000000000',
  version: '2.1.50',
  uuid,
  timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, k)).toISOString(),
});

function brokenFallback(): string {
  const good = (k: number) =>
    JSON.stringify({
      ...envelope(`u${k}`, k > 1 ? `u${k - 1}` : null, k),
      type: 'user',
      message: { role: 'user', content: `line ${k}` },
    });
  return [good(1), good(2), '{"type":"user","message":', good(4), 'not json at all', good(6)].join('\n');
}

function xssFallback(): string {
  const payloads = [
    '<script>window.__pwned = 1; alert(1)</script>',
    '<img src=x onerror="window.__pwned=2;alert(2)">',
    '[click me](javascript:window.__pwned=3)',
    '<a href="javascript:window.__pwned=4">link</a>',
  ];
  return payloads
    .map((text, k) =>
      JSON.stringify({
        ...envelope(`x${k}`, k > 0 ? `x${k - 1}` : null, k),
        type: 'user',
        message: { role: 'user', content: text },
      }),
    )
    .join('\n');
}

/** 1-based numbers of the lines that are not valid JSON. */
function badLines(text: string): number[] {
  const out: number[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    try {
      JSON.parse(line);
    } catch {
      out.push(i + 1);
    }
  });
  return out;
}

test('a broken file shows its issues with line numbers while its valid lines load', async ({
  page,
}, testInfo) => {
  const text = fixture('broken.jsonl', brokenFallback);
  const bad = badLines(text);
  expect(bad.length).toBeGreaterThan(0);
  await openEmpty(page);
  await dropFiles(page, [{ name: 'broken.jsonl', content: text }]);
  await expect(page.getByTestId('session-header')).toBeVisible();
  await expect(page.getByTestId('transcript-row').first()).toBeVisible();
  await page.getByTestId('stat-issues').click();
  const panel = page.getByTestId('issues-panel');
  await expect(panel).toBeVisible();
  for (const line of bad) {
    await expect(panel.locator(`[data-testid="issue-row"][data-line="${line}"]`).first()).toBeVisible();
  }
  await expect(panel.getByTestId('issue-row').first()).toContainText(`L${bad[0]}`);
  await shoot(page, testInfo, 'broken-issues');
});

test('a file that is not a transcript says so plainly', async ({ page }, testInfo) => {
  const text = fixture('not-a-transcript.json', () =>
    JSON.stringify({ name: 'package', version: '1.0.0' }, null, 2),
  );
  await openEmpty(page);
  await dropFiles(page, [{ name: 'not-a-transcript.json', content: text }]);
  const message = page.getByTestId('not-transcript');
  await expect(message).toBeVisible();
  await expect(message).toContainText('not a transcript');
  await shoot(page, testInfo, 'not-a-transcript');
});

test('transcript text is shown as text and never runs', async ({ page }, testInfo) => {
  const text = fixture('xss.jsonl', xssFallback);
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await openEmpty(page);
  await dropFiles(page, [{ name: 'xss.jsonl', content: text }]);
  await expect(page.getByTestId('session-header')).toBeVisible();
  const scriptRow = page.getByTestId('transcript-row').filter({ hasText: '<script>' }).first();
  await expect(scriptRow).toBeVisible();
  await scriptRow.click();
  await expect(page.getByTestId('entry-detail')).toContainText('<script>');
  await page.getByTestId('detail-tab-raw').click();
  await expect(page.getByTestId('raw-json')).toContainText('<script>');
  // Visit every row so each payload has been rendered at least once.
  const count = await page.getByTestId('transcript-row').count();
  for (let i = 0; i < count; i++) await page.getByTestId('transcript-row').nth(i).click();
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
  expect(dialogs).toEqual([]);
  expect(await page.locator('#root script, #root img[onerror], #root a[href^="javascript"]').count()).toBe(0);
  await shoot(page, testInfo, 'xss');
});

test('pasted text loads like a file', async ({ page }, testInfo) => {
  await openEmpty(page);
  await shoot(page, testInfo, 'empty-state');
  await page.getByTestId('paste-button').click();
  await page.getByTestId('paste-text').fill(brokenFallback());
  await shoot(page, testInfo, 'paste-dialog');
  await page.getByTestId('paste-load').click();
  await expect(page.getByTestId('session-header')).toBeVisible();
  await expect(page.getByTestId('transcript-row').filter({ hasText: 'line 6' })).toBeVisible();
});
