import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createMockServer } from '../mock/anthropic-mock.mjs';
import { createMockServer as createOpenAiMock } from '../mock/openai-mock.mjs';
import { CODEX_ROLLOUT } from '../tests/fixtures/codex-rollout';
import { createFixtureText } from '../tests/summarize/fixture';
import { dropFiles, expect, openEmpty, test } from './fixtures';

// The Summaries view end to end: edit the prompt, run the built-in summarizer, run the Anthropic
// summarizer (streamed) against a local mock of the API started here, see each API error in
// words, reload and find both runs, diff them, export and re-import. The auto fixtures fail the
// test on any request that leaves localhost and on any page error.

const KEY = 'sk-ant-e2e-not-a-real-key';
const FIXTURE = createFixtureText();
const ADDED_LINE = 'Also list every port number you saw.';

// The protocol mocks run in the test process, on ports the OS picks.
const mock = createMockServer({ chunkDelayMs: 40 });
const openAiMock = createOpenAiMock({ chunkDelayMs: 20 });
let mockUrl = '';
let openAiUrl = '';

test.beforeAll(async () => {
  await new Promise<void>((resolve) => mock.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => openAiMock.listen(0, '127.0.0.1', resolve));
  mockUrl = `http://127.0.0.1:${(mock.address() as AddressInfo).port}`;
  openAiUrl = `http://127.0.0.1:${(openAiMock.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  await new Promise<void>((resolve) => mock.close(() => resolve()));
  await new Promise<void>((resolve) => openAiMock.close(() => resolve()));
});

/** Scrolls the Summaries panel (not the page) so that the element is at its top. */
async function scrollDockTo(page: import('@playwright/test').Page, testId: string) {
  await page.getByTestId(testId).evaluate((el) => {
    const dock = el.closest('.dock-body');
    if (dock) dock.scrollTop += el.getBoundingClientRect().top - dock.getBoundingClientRect().top - 8;
  });
}

async function openSummaries(page: import('@playwright/test').Page) {
  await openEmpty(page);
  await dropFiles(page, [{ name: 'fixture-session.jsonl', content: FIXTURE }]);
  await expect(page.getByTestId('session-header')).toBeVisible();
  await page.getByTestId('summaries-toggle').click();
  await expect(page.getByTestId('point-select')).toBeVisible();
}

test('summaries: edit, run built-in and Anthropic (streamed), errors, reload, diff, export, import', async ({
  page,
  foreignRequests,
}) => {
  test.setTimeout(120_000);
  await openSummaries(page);

  // The exact request and its size are visible before anything is sent.
  await expect(page.getByTestId('request-tokens')).toContainText(/messages · ≈[\d,]+ tokens/);
  await page.getByTestId('tab-request').click();
  await expect(page.getByTestId('request-preview').locator('.monaco-editor')).toBeVisible();
  await expect(page.getByTestId('request-preview')).toContainText('"system"');
  await page.getByTestId('tab-prompt').click();

  // Edit the prompt in Monaco: add a line at the end.
  const editor = page.getByTestId('prompt-editor').locator('.monaco-editor');
  await expect(editor).toBeVisible();
  await editor.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  await page.keyboard.type(ADDED_LINE);
  await expect(page.getByTestId('prompt-editor')).toContainText(ADDED_LINE);
  await page.getByTestId('custom-instructions').fill('Keep every file path.');

  // Built-in summarizer (the default): instant, offline.
  await page.getByTestId('run-summary').click();
  await expect(page.getByTestId('run-status')).toHaveText(/Done/);
  await expect(page.getByTestId('summary-output')).toContainText('Built-in summary by CompactLab');
  await expect(page.getByTestId('summary-output')).toContainText('Now add a --verbose flag to src/cli.ts');
  await expect(page.getByTestId('retention')).toContainText(/facts kept/);
  await expect(page.getByTestId('run-row')).toHaveCount(1);

  // The request preview now carries the edited prompt and the custom instructions.
  await page.getByTestId('tab-request').click();
  // Monaco renders the visible lines only: go to the end, where the prompt is.
  await page.getByTestId('request-preview').locator('.monaco-editor').click();
  await page.keyboard.press('Control+End');
  await expect(page.getByTestId('request-preview')).toContainText(ADDED_LINE);
  await expect(page.getByTestId('request-preview')).toContainText('Keep every file path.');
  await page.getByTestId('tab-prompt').click();

  // Anthropic summarizer against the local mock.
  await page.getByTestId('summarizer-anthropic').check();
  await page.getByTestId('anthropic-key').fill(KEY);
  await page.getByTestId('anthropic-base-url').fill(mockUrl);

  // Each API error is reported in words, and nothing is saved.
  const errors: [string, RegExp][] = [
    ['mock-401', /rejected the API key \(401/],
    ['mock-403', /refused the request \(403/],
    ['mock-429', /rate limit reached \(429/],
    ['mock-529', /overloaded \(529\)/],
    ['mock-too-long', /larger than the model's context window/],
    ['mock-reset', /Could not reach Anthropic/],
  ];
  for (const [model, message] of errors) {
    await page.getByTestId('anthropic-model').fill(model);
    await page.getByTestId('run-summary').click();
    await expect(page.getByTestId('run-error')).toContainText(message);
    await expect(page.getByTestId('run-error')).not.toContainText(KEY);
  }
  await expect(page.getByTestId('run-row')).toHaveCount(1);

  // Cancel stops a stream in progress.
  await page.getByTestId('anthropic-model').fill('mock-slow');
  await page.getByTestId('run-summary').click();
  await expect(page.getByTestId('summary-output')).not.toHaveText('');
  await page.getByTestId('cancel-summary').click();
  await expect(page.getByTestId('run-status')).toHaveText('Cancelled.');

  // A real run, streamed token by token: several partial texts show before the end.
  await page.getByTestId('anthropic-model').fill('claude-sonnet-4-6');
  await page.getByTestId('run-summary').click();
  const partials = new Set<string>();
  await expect
    .poll(
      async () => {
        const status = await page.getByTestId('run-status').textContent();
        const text = (await page.getByTestId('summary-output').textContent()) ?? '';
        if (status?.startsWith('Summarizing') && text) partials.add(text);
        return status;
      },
      { intervals: [20], timeout: 20_000 },
    )
    .toMatch(/Done/);
  expect(partials.size, 'distinct partial texts seen while streaming').toBeGreaterThanOrEqual(3);
  await expect(page.getByTestId('summary-output')).toContainText('summarized by the local mock server');
  await expect(page.getByTestId('run-figures')).toContainText(/\$0\.\d{4}/);
  await expect(page.getByTestId('run-row')).toHaveCount(2);
  // count_tokens gives the request's exact size once a key is set.
  await page.getByTestId('count-exact').click();
  await expect(page.getByTestId('request-tokens')).toContainText(/[\d,]+ tokens \(provider's count\)/);
  expect(mock.requests.some((r) => r.path === '/v1/messages/count_tokens')).toBe(true);
  // The count is stored in the run that sent this request (not in the built-in one).
  await expect(page.getByTestId('run-exact')).toHaveCount(1);
  const exactText = /([\d,]+) tokens \(provider's count\)/.exec(
    (await page.getByTestId('request-tokens').textContent()) ?? '',
  )?.[1];
  await expect(page.getByTestId('run-exact')).toHaveText(`${exactText} exact`);

  // The key was never remembered (the box is unticked) and never reached the URL.
  expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain(KEY);
  expect(page.url()).not.toContain(KEY);

  // Reload: both runs are still there.
  await page.reload();
  await openSummaries(page);
  await expect(page.getByTestId('run-row')).toHaveCount(2);

  // Rename and star one.
  await page.getByTestId('run-name').first().click();
  await page.getByTestId('run-rename-input').fill('Mock Sonnet run');
  await page.getByTestId('run-rename-input').press('Enter');
  await expect(page.getByTestId('run-name').first()).toHaveText('Mock Sonnet run');
  await page.getByTestId('run-star').first().click();
  await expect(page.getByTestId('run-star').first()).toHaveText('★');

  // Diff: tick both runs.
  const boxes = page.getByTestId('run-select');
  await boxes.nth(0).check();
  await boxes.nth(1).check();
  await expect(page.getByTestId('run-diff')).toBeVisible();
  await expect(page.locator('.monaco-diff-editor')).toBeVisible();
  await expect(page.getByTestId('diff-changes')).toContainText(/\d+ changed region/);
  await expect(page.getByTestId('compare-table')).toContainText('Retention');
  await scrollDockTo(page, 'run-diff');
  await page.getByTestId('diff-only-changes').check();
  await page.getByTestId('diff-inline').check();
  await expect(page.locator('.monaco-diff-editor')).toBeVisible();

  // Export both, delete them, import the file: the same runs come back unchanged.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('export-runs').click(),
  ]);
  const exported = fs.readFileSync(await download.path(), 'utf8');
  expect(exported).not.toContain(KEY);
  const before = JSON.parse(exported).runs;
  expect(before).toHaveLength(2);
  await page.getByTestId('delete-selected').click();
  await expect(page.getByTestId('run-row')).toHaveCount(0);
  await page
    .getByTestId('import-input')
    .setInputFiles({ name: 'runs.json', mimeType: 'application/json', buffer: Buffer.from(exported) });
  await expect(page.getByTestId('runs-notice')).toContainText('Imported 2 runs');
  await expect(page.getByTestId('run-row')).toHaveCount(2);
  await expect(page.getByTestId('run-name').filter({ hasText: 'Mock Sonnet run' })).toHaveCount(1);
  const [again] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-runs').click()]);
  const after = JSON.parse(fs.readFileSync(await again.path(), 'utf8')).runs;
  const byId = (runs: { id: string }[]) => [...runs].sort((a, b) => a.id.localeCompare(b.id));
  expect(byId(after)).toEqual(byId(before));
  // Every request went to the app's own server or the local mock.
  expect(foreignRequests).toEqual([]);
  expect(mock.requests.length).toBeGreaterThan(0);
});

test('summaries: an OpenAI-compatible server, then a third run opens the matrix view', async ({ page }) => {
  await openSummaries(page);
  await page.getByTestId('summarizer-openai').check();
  await page.getByTestId('openai-base-url').fill(openAiUrl);
  for (const [model, message] of [
    ['mock-429', /rate limit reached \(429/],
    ['mock-503', /overloaded \(503\)/],
    ['mock-too-long', /larger than the model's context window/],
    ['mock-reset', /Could not reach OpenAI-compatible server/],
  ] as const) {
    await page.getByTestId('openai-model').fill(model);
    await page.getByTestId('run-summary').click();
    await expect(page.getByTestId('run-error')).toContainText(message);
  }
  await page.getByTestId('openai-model').fill('llama3.1');
  await page.getByTestId('run-summary').click();
  await expect(page.getByTestId('run-status')).toHaveText(/Done/);
  await expect(page.getByTestId('summary-output')).toContainText('summarized by the local mock server');
  await page.getByTestId('summarizer-builtin').check();
  for (const preset of ['codex', 'gemini-cli', 'opencode']) {
    await page.getByTestId('preset-select').selectOption(preset);
    await page.getByTestId('run-summary').click();
    await expect(page.getByTestId('run-status')).toHaveText(/Done/);
  }
  const boxes = page.getByTestId('run-select');
  const count = await boxes.count();
  expect(count).toBeGreaterThanOrEqual(3);
  for (let i = 0; i < 3; i++) await boxes.nth(i).check();
  await expect(page.getByTestId('runs-matrix')).toBeVisible();
  await expect(page.getByTestId('matrix-table')).toContainText('Summary tokens');
  await scrollDockTo(page, 'runs-matrix');
});

test('summaries: the built-in summarizer follows a length limit the prompt asks, and the diff shows it', async ({
  page,
}) => {
  await openSummaries(page);
  await page.getByTestId('run-summary').click();
  await expect(page.getByTestId('run-status')).toHaveText(/Done/);
  await expect(page.getByTestId('builtin-limit')).toHaveCount(0);

  const editor = page.getByTestId('prompt-editor').locator('.monaco-editor');
  await editor.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Keep it under 120 words.');
  // Next to Run: what it follows of that, and what it cannot do.
  await expect(page.getByTestId('builtin-limit')).toContainText('under 120 words');
  await expect(page.getByTestId('builtin-honours')).toContainText('writes no new prose');
  await expect(page.getByTestId('builtin-honours')).toContainText('ollama serve');
  await page.getByTestId('run-summary').click();
  await expect(page.getByTestId('run-row')).toHaveCount(2);
  const output = page.getByTestId('summary-output');
  await expect(output).toContainText('Followed from the prompt: the limit "under 120 words"');
  const words = (await output.innerText()).split(/\s+/).filter((w) => w !== '').length;
  expect(words).toBeLessThanOrEqual(140);

  const boxes = page.getByTestId('run-select');
  await boxes.nth(0).check();
  await boxes.nth(1).check();
  await expect(page.getByTestId('diff-changes')).toContainText(/[1-9]\d* changed region/);
});

test("summaries: another agent's log opens with its own prompt and sends its messages, until a preset is picked", async ({
  page,
}) => {
  await openEmpty(page);
  await dropFiles(page, [
    {
      name: 'rollout-2026-05-01T09-00-00-0196b1c2-aaaa-7bbb-8ccc-123456789abc.jsonl',
      content: CODEX_ROLLOUT,
    },
  ]);
  await expect(page.getByTestId('session-header')).toContainText('Codex CLI');
  await page.getByTestId('summaries-toggle').click();
  await expect(page.getByTestId('preset-select')).toHaveValue('codex');
  // The span's messages are read through the dialect (they were 0: every record read as Claude Code's).
  await expect(page.getByTestId('request-tokens')).toContainText(/Request: [1-9]\d* messages? ·/);
  await page.getByTestId('run-summary').click();
  await expect(page.getByTestId('run-status')).toHaveText(/Done/);
  await expect(page.getByTestId('summary-output')).toContainText('tool calls');

  // A preset the person picks stays for the next session.
  await page.getByTestId('preset-select').selectOption('claude-code-full');
  await dropFiles(page, [{ name: 'fixture-session.jsonl', content: FIXTURE }]);
  await expect(page.getByTestId('session-header')).toContainText('Claude Code');
  await dropFiles(page, [
    {
      name: 'rollout-2026-05-01T09-00-00-0196b1c2-aaaa-7bbb-8ccc-123456789abc.jsonl',
      content: CODEX_ROLLOUT,
    },
  ]);
  await expect(page.getByTestId('session-header')).toContainText('Codex CLI');
  await expect(page.getByTestId('preset-select')).toHaveValue('claude-code-full');
});

// The partial preset's "Recent portion starts at" listed every API call of the session; one after
// the span summarized the whole span under a prompt that says the earlier messages were kept.
test('summaries: a partial preset offers only the calls of the span as the recent portion’s start', async ({
  page,
}) => {
  await openSummaries(page);
  const allCalls = await page
    .getByTestId('point-select')
    .locator('option', { hasText: /API call/ })
    .count();
  await page.getByTestId('preset-select').selectOption('claude-code-partial');
  const choices = page.getByTestId('keep-from-select').locator('option');
  await expect(choices.first()).toHaveText('middle of the span');
  await expect.poll(() => choices.count()).toBeGreaterThan(1);
  const listed = await choices.allTextContents();
  expect(
    listed.slice(1).every((t) => /^API call \d+$/.test(t)),
    listed.join(' | '),
  ).toBe(true);
  expect(listed.length - 1).toBeLessThan(allCalls);
  await page.getByTestId('keep-from-select').selectOption({ index: listed.length - 1 });
  await expect(page.getByTestId('request-tokens')).toContainText(/messages · ≈[\d,]+ tokens/);
});

// Monaco boxed every "×" of the built-in summary ("Read ×3") as a look-alike of "x"; a real
// look-alike (a Cyrillic "о" in a word) is still marked.
test('summaries: the editors mark look-alike characters but not the built-in summary’s “×”', async ({
  page,
}) => {
  await openSummaries(page);
  const editor = page.getByTestId('prompt-editor').locator('.monaco-editor');
  await editor.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Count reads as Read ×3, then c\u043ede.');
  await expect(page.getByTestId('prompt-editor')).toContainText('Read ×3');
  await expect(page.getByTestId('prompt-editor').locator('.unicode-highlight')).toHaveCount(1);
  // One pass marks both when both are marked: checked again a moment later.
  await page.waitForTimeout(500);
  await expect(page.getByTestId('prompt-editor').locator('.unicode-highlight')).toHaveCount(1);
});
