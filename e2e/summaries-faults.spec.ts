import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { createMockServer } from '../mock/anthropic-mock.mjs';
import { createMockServer as createOpenAiMock } from '../mock/openai-mock.mjs';
import { expect, getSummaryTexts, REPO_ROOT, test } from './fixtures';

// The Summaries workbench on a real session (the corpus's 05541cb5: six compactions on its main
// thread) against the two local protocol mocks, for the failures a real server has: a 500, a 429
// with its retry-after, an answer cut off (reset, or ended without its last event), an event that
// is not JSON, a server that never answers or stops mid-answer. Each is said in words, the runs
// already kept stay, Cancel closes the connection the server holds (the mock sees it), and the
// request that goes out is the prompt edited from the keyboard after the span the log replaced.
// The fixtures fail the test on any console error: the SDK logged a malformed event's raw text.

const FILE = path.join(
  REPO_ROOT,
  '../shared/corpus/LAF-US__IDAHO-VAULT/claude__projects__c--Users-loganf-Documents-IDAHO-VAULT__05541cb5-fe43-41c9-87ef-2a6d89bba271.jsonl',
);
const KEY = 'sk-ant-e2e-faults-not-a-real-key';
const EDITED = 'Summarize the span in five lines. Name every file path.';

const anthropic = createMockServer({ chunkDelayMs: 5 });
const openai = createOpenAiMock({ chunkDelayMs: 5 });
let anthropicUrl = '';
let openaiUrl = '';

test.beforeAll(async () => {
  await new Promise<void>((resolve) => anthropic.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => openai.listen(0, '127.0.0.1', resolve));
  anthropicUrl = `http://127.0.0.1:${(anthropic.address() as AddressInfo).port}`;
  openaiUrl = `http://127.0.0.1:${(openai.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  await new Promise<void>((resolve) => anthropic.close(() => resolve()));
  await new Promise<void>((resolve) => openai.close(() => resolve()));
});

/** Compaction 5 (line 411): its span is the summary of compaction 4 and what followed, 183 messages. */
async function openAtCompaction5(page: Page) {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/?sample=0');
  await page.getByTestId('file-input').setInputFiles(FILE);
  await expect(page.getByTestId('session-header')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('summaries-toggle').click();
  await page.getByTestId('point-select').selectOption('c:4');
  await expect(page.getByTestId('request-tokens')).toContainText('Request: 183 messages');
  // The prompt replaced from the keyboard.
  await page.getByTestId('prompt-editor').locator('.monaco-editor').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type(EDITED);
  await expect(page.getByTestId('prompt-edited')).toBeVisible();
  await page.getByTestId('run-summary').click();
  await expect(page.getByTestId('run-status')).toHaveText(/Done/);
  await expect(page.getByTestId('run-row')).toHaveCount(1);
}

/** A run the server fails: the message says so in words, nothing is saved, the key is not shown. */
async function expectFailure(page: Page, modelInput: string, model: string, message: RegExp) {
  await page.getByTestId(modelInput).fill(model);
  await page.getByTestId('run-summary').click();
  await expect(page.getByTestId('run-error')).toContainText(message);
  await expect(page.getByTestId('run-status')).toHaveText('Failed.');
  await expect(page.getByTestId('run-error')).not.toContainText(KEY);
  await expect(page.getByTestId('run-row')).toHaveCount(1);
}

/** A run the server holds: the line counts the wait; Cancel ends it and closes the connection. */
async function expectCancelled(
  page: Page,
  server: typeof anthropic,
  modelInput: string,
  model: string,
  waiting: RegExp,
) {
  await page.getByTestId(modelInput).fill(model);
  await page.getByTestId('run-summary').click();
  await expect(page.getByTestId('run-status')).toHaveText(waiting, { timeout: 15_000 });
  const held = server.requests.at(-1)!;
  expect(held.body.model).toBe(model);
  expect(held.closedEarly).toBe(false);
  await page.getByTestId('cancel-summary').click();
  await expect(page.getByTestId('run-status')).toHaveText('Cancelled.');
  await expect.poll(() => held.closedEarly).toBe(true);
  await expect(page.getByTestId('run-row')).toHaveCount(1);
}

/** The text of a request message, whatever its shape. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((b: { type?: string; text?: string }) => (b.type === 'text' ? (b.text ?? '') : ''))
    .join('');
}

test.beforeEach(() => {
  test.skip(!fs.existsSync(FILE), `the corpus (../shared/corpus) is not here: ${FILE}`);
});

test('summaries, Anthropic on a real session: 500, 429, cut-off and malformed answers, a hang, the request sent', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await openAtCompaction5(page);
  await page.getByTestId('summarizer-anthropic').check();
  await page.getByTestId('anthropic-key').fill(KEY);
  await page.getByTestId('anthropic-base-url').fill(anthropicUrl);

  await expectFailure(
    page,
    'anthropic-model',
    'mock-500',
    /^Anthropic failed \(HTTP 500\)\. The server said: Internal server error$/,
  );
  await expectFailure(
    page,
    'anthropic-model',
    'mock-429',
    /rate limit reached \(429 Too Many Requests\)\. Wait 7 s and run again/,
  );
  // These said "Could not reach Anthropic at http://127.0.0.1:… Check the URL … (CORS)" of a server
  // that had answered, and "Anthropic call failed: Unexpected end of JSON input".
  await expectFailure(
    page,
    'anthropic-model',
    'mock-reset-mid-stream',
    /^The connection to Anthropic closed before the answer was complete \(.+\): \d+ characters came, nothing was saved\. Run again\.$/,
  );
  await expectFailure(
    page,
    'anthropic-model',
    'mock-ended-early',
    /^The connection to Anthropic closed before the answer was complete: 36 characters came/,
  );
  await expectFailure(
    page,
    'anthropic-model',
    'mock-malformed-stream',
    /^Anthropic sent an event that is not JSON, so the answer cannot be read\. Nothing was saved/,
  );

  // It said "Summarizing… 0 characters", nothing moving, for as long as the server held on.
  await expectCancelled(
    page,
    anthropic,
    'anthropic-model',
    'mock-hang',
    /^Waiting for the server's first token · [1-9]\d* s \(Cancel stops it\)$/,
  );
  await expectCancelled(
    page,
    anthropic,
    'anthropic-model',
    'mock-hang-mid-stream',
    /^Summarizing… 36 characters · \d+ s · nothing new for [5-9] s \(Cancel stops it\)$/,
  );

  // A run that completes: the request is the span the log replaced, then the edited prompt.
  await page.getByTestId('anthropic-model').fill('claude-sonnet-4-6');
  await page.getByTestId('run-summary').click();
  await expect(page.getByTestId('run-status')).toHaveText(/Done/, { timeout: 20_000 });
  await expect(page.getByTestId('run-row')).toHaveCount(2);
  const sent = anthropic.requests.at(-1)!.body as { messages: { role: string; content: unknown }[] };
  expect(sent.messages).toHaveLength(183 + 1);
  expect(textOf(sent.messages.at(-1)!.content)).toBe(EDITED);
  // The span starts with compaction 4’s summary (its record in the raw file, read here; past the
  // opening sentence every summary shares).
  const recorded = getSummaryTexts(fs.readFileSync(FILE, 'utf8'));
  expect(recorded).toHaveLength(6);
  expect(textOf(sent.messages[0]!.content)).toContain(recorded[3]!.slice(300, 500));
  expect(textOf(sent.messages[0]!.content)).not.toContain(recorded[4]!.slice(300, 500));

  // The key is in no run, no export, no storage.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('export-runs').click(),
  ]);
  const exported = fs.readFileSync(await download.path(), 'utf8');
  expect(JSON.parse(exported).runs).toHaveLength(2);
  expect(exported).not.toContain(KEY);
  expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain(KEY);
});

test('summaries, an OpenAI-compatible server on a real session: a hang, a 429, an echoed key in a malformed event', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await openAtCompaction5(page);
  await page.getByTestId('summarizer-openai').check();
  await page.getByTestId('openai-base-url').fill(openaiUrl);
  await page.getByTestId('openai-key').fill(KEY);

  await expectCancelled(
    page,
    openai,
    'openai-model',
    'mock-hang',
    /^Waiting for the server's first token · [1-9]\d* s/,
  );
  await expectFailure(page, 'openai-model', 'mock-429', /\(429 Too Many Requests\)\. Wait 3 s and run again/);
  await expectFailure(page, 'openai-model', 'mock-500', /failed \(HTTP 500\)/);
  await expectFailure(
    page,
    'openai-model',
    'mock-ended-early',
    /^The connection to OpenAI-compatible server closed before the answer was complete \(the stream ended without \[DONE\]\)/,
  );
  // The event quotes the key (a careless proxy); the message quotes the event, masked.
  await expectFailure(
    page,
    'openai-model',
    'mock-malformed-stream',
    /sent an event that is not JSON.*"proxy":"key \[REDACTED:env-secret\]"/,
  );

  await page.getByTestId('openai-model').fill('llama3.1');
  await page.getByTestId('run-summary').click();
  await expect(page.getByTestId('run-status')).toHaveText(/Done/, { timeout: 20_000 });
  await expect(page.getByTestId('run-row')).toHaveCount(2);
  const sent = openai.requests.at(-1)!.body as { messages: { role: string; content: string }[] };
  expect(sent.messages[0]!.role).toBe('system');
  expect(sent.messages.at(-1)!.content.endsWith(EDITED)).toBe(true);
});

test("summaries: the recorded summary's run carries what the log states of its call", async ({ page }) => {
  await openAtCompaction5(page);
  await page.getByTestId('summarizer-recorded').check();
  await page.getByTestId('run-summary').click();
  await expect(page.getByTestId('run-status')).toHaveText(/Done/);
  // It said "in 0": the log's preTokens of compaction 5 is what that call read.
  const boundaries = fs
    .readFileSync(FILE, 'utf8')
    .split('\n')
    .filter((l) => l.includes('"compact_boundary"'))
    .map((l) => JSON.parse(l) as { compactMetadata: { preTokens: number } });
  const preTokens = boundaries[4]!.compactMetadata.preTokens.toLocaleString('en-US');
  await expect(page.getByTestId('run-figures')).toContainText(`in ${preTokens} · out`);
  await expect(page.getByTestId('run-row').first()).toContainText(preTokens);
});
