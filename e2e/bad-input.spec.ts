import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { createFixtureText } from '../tests/summarize/fixture';
import { dropFiles, expect, FIXTURES_DIR, openEmpty, test } from './fixtures';

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

test('a broken file shows its issues with line numbers while its valid lines load', async ({ page }) => {
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
});

test('a file that is not a transcript says so plainly', async ({ page }) => {
  const text = fixture('not-a-transcript.json', () =>
    JSON.stringify({ name: 'package', version: '1.0.0' }, null, 2),
  );
  await openEmpty(page);
  await dropFiles(page, [{ name: 'not-a-transcript.json', content: text }]);
  const message = page.getByTestId('not-transcript');
  await expect(message).toBeVisible();
  await expect(message).toContainText('not a transcript');
});

test('transcript text is shown as text and never runs', async ({ page }) => {
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
});

test('pasted text loads like a file', async ({ page }) => {
  await openEmpty(page);
  await page.getByTestId('paste-button').click();
  await page.getByTestId('paste-text').fill(brokenFallback());
  await page.getByTestId('paste-load').click();
  await expect(page.getByTestId('session-header')).toBeVisible();
  await expect(page.getByTestId('transcript-row').filter({ hasText: 'line 6' })).toBeVisible();
});

// Text that would reorder or hide what the reader sees: a right-to-left override that makes
// `gpj.exe` read as `exe.jpg`, zero-width characters inside words, ANSI escapes and a title change.
const RLO = '\u202E';
const HOSTILE = {
  prompt: `Open the invoice${RLO}gpj.exe and pay\u200B it \u2066now\u2069 \u001b[31mred\u001b[0m \u001b]0;pwned\u0007`,
  model: `claude-${'very-long-model-name-'.repeat(8)}${RLO}x`,
  cwd: `/home/mira/${'deeply/nested/folder/'.repeat(12)}project`,
  branch: `feature/${'long-branch-name-'.repeat(6)}\u200Bend`,
};

function hostileSession(): string {
  const base = {
    ...envelope('h1', null, 0),
    cwd: HOSTILE.cwd,
    gitBranch: HOSTILE.branch,
  };
  return [
    JSON.stringify({ ...base, type: 'user', message: { role: 'user', content: HOSTILE.prompt } }),
    JSON.stringify({
      ...base,
      ...envelope('h2', 'h1', 1),
      cwd: HOSTILE.cwd,
      gitBranch: HOSTILE.branch,
      type: 'assistant',
      requestId: 'req_h',
      message: {
        id: 'msg_h',
        role: 'assistant',
        model: HOSTILE.model,
        content: [{ type: 'text', text: `Done${RLO}. \u200B\uFEFF` }],
        usage: {
          input_tokens: 10,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
          output_tokens: 3,
        },
      },
    }),
  ].join('\n');
}

test('bidi overrides and zero-width characters are shown, not obeyed; the header clips long values', async ({
  page,
}) => {
  await openEmpty(page);
  await dropFiles(page, [{ name: 'hostile.jsonl', content: hostileSession() }]);
  await expect(page.getByTestId('session-header')).toBeVisible();
  const row = page.getByTestId('transcript-row').filter({ hasText: 'invoice' }).first();
  await expect(row).toContainText('invoice⟨U+202E⟩gpj.exe');
  await expect(row.locator('.hidden-char').first()).toHaveAttribute('title', 'U+202E RIGHT-TO-LEFT OVERRIDE');
  await row.click();
  await expect(page.getByTestId('entry-detail')).toContainText('pay⟨U+200B⟩ it ⟨U+2066⟩now⟨U+2069⟩');
  await page.getByTestId('detail-tab-raw').click();
  await expect(page.getByTestId('raw-json')).toContainText('invoice⟨U+202E⟩gpj.exe');

  // The header: each long value is clipped with an ellipsis and carries its full text in a tooltip.
  for (const [testId, full] of [
    ['header-models', HOSTILE.model],
    ['header-cwd', HOSTILE.cwd],
    ['header-branch', HOSTILE.branch],
  ] as const) {
    const el = page.getByTestId(testId);
    await expect(el).toHaveAttribute(
      'title',
      full.replace(/[\u200B\u202E]/g, (c) => (c === RLO ? '⟨U+202E⟩' : '⟨U+200B⟩')),
    );
    const clip = await el.evaluate((node) => ({
      clipped: node.scrollWidth > node.clientWidth,
      overflow: getComputedStyle(node).textOverflow,
    }));
    expect(clip, testId).toEqual({ clipped: true, overflow: 'ellipsis' });
  }
  // No raw control is left anywhere in the page's text or attributes.
  const leftover = await page.evaluate(() => {
    const hidden = /[\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/;
    const root = document.getElementById('root');
    if (!root) return ['no root'];
    const found: string[] = [];
    if (hidden.test(root.textContent ?? '')) found.push('text');
    for (const el of root.querySelectorAll('*')) {
      for (const attr of el.attributes)
        if (hidden.test(attr.value)) found.push(`${el.tagName}[${attr.name}]`);
    }
    return found;
  });
  expect(leftover).toEqual([]);
});

const KEY = 'sk-ant-bad-input-e2e-key';

async function openSummaries(page: Page) {
  await openEmpty(page);
  await dropFiles(page, [{ name: 'fixture-session.jsonl', content: createFixtureText() }]);
  await expect(page.getByTestId('session-header')).toBeVisible();
  await page.getByTestId('summaries-toggle').click();
  await expect(page.getByTestId('point-select')).toBeVisible();
}

/** Every attribute in the document whose value holds `needle`. */
function attributesHolding(page: Page, needle: string): Promise<string[]> {
  return page.evaluate((key) => {
    const found: string[] = [];
    for (const el of document.querySelectorAll('*')) {
      for (const attr of el.attributes)
        if (attr.value.includes(key)) found.push(`${el.tagName}[${attr.name}]`);
    }
    return found;
  }, needle);
}

test('the API key is never in a DOM attribute, and remember says it is stored in plain text', async ({
  page,
}) => {
  await openSummaries(page);
  await page.getByTestId('summarizer-anthropic').check();
  const input = page.getByTestId('anthropic-key');
  await input.fill(KEY);
  await expect(input).toHaveValue(KEY);
  expect(await attributesHolding(page, KEY)).toEqual([]);
  const remember = page.locator('label', { has: page.getByTestId('remember-key') });
  await expect(remember).toContainText('stored in plain text');
  await page.getByTestId('remember-key').check();
  // After a reload the remembered key is back in the input, still not in an attribute.
  await page.reload();
  await expect(page.getByTestId('dropzone')).toBeVisible();
  await dropFiles(page, [{ name: 'fixture-session.jsonl', content: createFixtureText() }]);
  await page.getByTestId('summaries-toggle').click();
  await page.getByTestId('summarizer-anthropic').check();
  await expect(page.getByTestId('anthropic-key')).toHaveValue(KEY);
  expect(await attributesHolding(page, KEY)).toEqual([]);
  await page.getByTestId('remember-key').uncheck();
  expect(await page.evaluate(() => Object.values(localStorage).join('\n'))).not.toContain(KEY);
});

test('a run made or deleted in one tab shows in another without a reload', async ({ page, context }) => {
  const other = await context.newPage();
  await openSummaries(page);
  await openSummaries(other);
  await expect(page.getByTestId('run-row')).toHaveCount(0);
  await expect(other.getByTestId('run-row')).toHaveCount(0);
  await page.getByTestId('run-summary').click();
  await expect(page.getByTestId('run-status')).toHaveText(/Done/);
  await expect(page.getByTestId('run-row')).toHaveCount(1);
  await expect(other.getByTestId('run-row')).toHaveCount(1);
  await other.getByTestId('run-delete').click();
  await expect(other.getByTestId('run-row')).toHaveCount(0);
  await expect(page.getByTestId('run-row')).toHaveCount(0);
  await other.close();
});

test('the preview server sends the CSP with frame-ancestors and X-Frame-Options as headers', async ({
  page,
}) => {
  test.skip(!!process.env.E2E_DEV, 'the dev server sends only the framing rules (see vite.config.ts)');
  const response = await page.request.get('/');
  const headers = response.headers();
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(headers['content-security-policy']).toContain("script-src 'self'");
  expect(headers['x-frame-options']).toBe('DENY');
});
