import fs from 'node:fs';
import path from 'node:path';
import { writeBigSession } from './big-session';
import { expect, FIXTURES_DIR, openEmpty, test } from './fixtures';

// Broken files a new user opens, in the built page: a session folder whose subagent log is binary
// data, a Cline task whose ui_messages.json has a record damaged in the middle, a UTF-16 chat.
// Each shows what was read and says, in one issue, what the broken file is.

/** Deterministic bytes that look like nothing. */
function randomBytes(n: number): Buffer {
  const out = Buffer.alloc(n);
  let s = 12345;
  for (let i = 0; i < n; i++) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    out[i] = s >> 16;
  }
  return out;
}

test('a session folder whose subagent log is binary: the session loads, the log is one issue naming it', async ({
  page,
}, testInfo) => {
  const session = '00fb8673-8b42-4835-a84f-3e32248c1e89';
  const root = testInfo.outputPath('project');
  fs.mkdirSync(path.join(root, session, 'subagents'), { recursive: true });
  fs.copyFileSync(path.join(FIXTURES_DIR, 'tiny.jsonl'), path.join(root, `${session}.jsonl`));
  fs.writeFileSync(
    path.join(root, session, 'subagents', 'agent-a0f1e2d3c4b5a6978.jsonl'),
    randomBytes(200_000),
  );
  await openEmpty(page);
  await page.getByTestId('folder-input').setInputFiles(root);
  // The folder is listed (its row counts the file it could not read), then opened.
  await expect(page.getByTestId('library-row')).toHaveCount(1);
  await expect(page.getByTestId('library-row').locator('[data-col="issues"]')).toHaveText('1');
  await page.getByTestId('library-row').click();
  await expect(page.getByTestId('session-header')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('transcript-row').first()).toBeVisible();
  // The header's count says which of its issues the list's column counts.
  await expect(page.getByTestId('stat-issues')).toHaveAttribute('title', /of them 1 unread .*Unread column/);
  await page.getByTestId('stat-issues').click();
  const panel = page.getByTestId('issues-panel');
  await expect(panel.getByTestId('issue-row')).toHaveCount(1);
  await expect(panel.getByTestId('issue-row')).toContainText(
    'agent-a0f1e2d3c4b5a6978.jsonl is not a transcript: it is binary data, not text',
  );
});

test('a Cline task whose ui_messages.json has a record that never closes: every other record shows, the issue names its line', async ({
  page,
}, testInfo) => {
  const task = testInfo.outputPath('task');
  fs.cpSync(path.join(FIXTURES_DIR, 'cline-task'), task, { recursive: true });
  const file = path.join(task, 'ui_messages.json');
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  lines.splice(243, 0, '{"type":"user", this is not json');
  fs.writeFileSync(file, lines.join('\n'));
  await openEmpty(page);
  await page.getByTestId('folder-input').setInputFiles(task);
  await expect(page.getByTestId('library-row')).toHaveCount(1);
  await page.getByTestId('library-row').click();
  await expect(page.getByTestId('session-header')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('stat-issues').click();
  const row = page.getByTestId('issues-panel').locator('[data-testid="issue-row"][data-line="236"]');
  await expect(row).toContainText('its brackets do not close before the next record, at line 249');
  // That error and the fixture's one unknown record: nothing else was lost or named.
  await expect(page.getByTestId('issues-panel').getByTestId('issue-row')).toHaveCount(2);
  await page.screenshot({ path: testInfo.outputPath('cline-unclosed.png') });
});

test('a UTF-16 Gemini CLI chat says it is UTF-16 and how to convert it', async ({ page }, testInfo) => {
  const name = 'session-2026-03-09T10-00-1a2b3c4d.json';
  const text = fs.readFileSync(path.join(FIXTURES_DIR, 'agents', name), 'utf8');
  const file = testInfo.outputPath(name);
  fs.writeFileSync(file, Buffer.from(`\ufeff${text}`, 'utf16le'));
  await openEmpty(page);
  await page.getByTestId('file-input').setInputFiles(file);
  const message = page.getByTestId('not-transcript');
  await expect(message).toBeVisible();
  await expect(message).toContainText('UTF-16 (little-endian) text');
  await expect(message).toContainText('iconv -f UTF-16 -t UTF-8');
});

// CI once saw the row's click do nothing: the header never came, the list read "1 scanned". The
// scan's progress line (text, bar, Cancel) stood above the rows and went when the scan ended, the
// rows moving up a line: a click pressed on the row as its scan ended was released beside it, on
// the list, and opened nothing. Here the press is held until the scan has landed (a 24 MB session:
// its scan takes a while), then released where it was pressed: the session opens.
test('a row pressed while it is scanned and released once its figures show opens its session', async ({
  page,
}, testInfo) => {
  const folder = testInfo.outputPath('slow');
  fs.mkdirSync(folder, { recursive: true });
  writeBigSession(path.join(folder, 'bbbbbbbb-0000-4000-8000-000000000000.jsonl'), 20_000, 40);
  await openEmpty(page);
  await page.getByTestId('folder-input').setInputFiles(folder);
  const row = page.getByTestId('library-row');
  await expect(row).toContainText('scanning…');
  const before = (await row.boundingBox())!;
  await page.mouse.move(before.x + before.width / 3, before.y + before.height / 2);
  await page.mouse.down();
  await expect(row.locator('[data-col="calls"]')).toHaveText('20,000', { timeout: 30_000 });
  await expect(page.getByTestId('library-scan')).toHaveCount(0);
  // The row where it was (it moved up 32 px at 1440 px wide).
  expect((await row.boundingBox())!.y).toBe(before.y);
  await page.mouse.up();
  await expect(page.getByTestId('session-header')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('stat-api-calls')).toContainText('20,000 API calls');
});
