import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { PLANTED_SECRETS } from '../tests/redact/planted-secrets';
import { dropFiles, expect, exportFile, FIXTURES_DIR, openEmpty, test } from './fixtures';

// Sharing end to end: every export of the Export menu with the planted secrets masked, the
// Secrets tab and its unmask toggle, the summarizer request shown masked, the compacted JSONL
// re-opened with the same compactions, and the HTML report opened from disk with the network
// blocked. The auto fixtures fail the test on any request that leaves localhost.

const SECRETS = fs.readFileSync(path.join(FIXTURES_DIR, 'secrets.jsonl'), 'utf8');

async function openSecrets(page: Page) {
  await openEmpty(page);
  await dropFiles(page, [{ name: 'secrets.jsonl', content: SECRETS }]);
  await expect(page.getByTestId('session-header')).toBeVisible();
}

function expectMasked(text: string, what: string) {
  for (const p of PLANTED_SECRETS) expect(text.includes(p.secret), `${p.kind} in ${what}`).toBe(false);
  for (const fragment of ['FAKEFAKEFAKE', 'fakeS3cretPw', 'hunter2', 'fakeuser', 'fake.person'])
    expect(text.includes(fragment), `${fragment} in ${what}`).toBe(false);
}

test('every export masks each planted secret; PNG and SVG timelines', async ({ page }) => {
  await openSecrets(page);
  await page.getByTestId('export-button').click();
  await expect(page.getByTestId('export-menu')).toBeVisible();
  const texts: Record<string, string> = {};
  for (const item of ['summaries-md', 'summaries-json', 'compacted-jsonl', 'report-html', 'timeline-svg']) {
    const { name, bytes } = await exportFile(page, item);
    expect(name).toMatch(/^secrets-/);
    texts[item] = bytes.toString('utf8');
    expectMasked(texts[item]!, item);
  }
  expect(texts['summaries-md']).toContain('## Recorded: ');
  expect(JSON.parse(texts['summaries-json']!).summaries).toHaveLength(1);
  expect(texts['timeline-svg']).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  expect(texts['report-html']).toContain('<svg');
  // The compacted transcript: every kind masked where it was planted, and one boundary.
  for (const p of PLANTED_SECRETS)
    if (p.kind !== 'home-path') expect(texts['compacted-jsonl'], p.kind).toContain(`[REDACTED:${p.kind}]`);
  expect(texts['compacted-jsonl']!.match(/"subtype":"compact_boundary"/g)).toHaveLength(1);
  const png = await exportFile(page, 'timeline-png');
  expect(png.bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  // The PNG is the SVG's picture (title, markers, legend) at twice its 960×280: IHDR's width, height.
  expect([png.bytes.readUInt32BE(16), png.bytes.readUInt32BE(20)]).toEqual([1920, 560]);
  expect(texts['timeline-svg']).toContain('<g class="legend">');
  expect(texts['timeline-svg']).toMatch(/<text class="title"[^>]*>Context timeline of /);
});

test('the Secrets tab lists each kind without the secret; unmasking one puts it back in exports', async ({
  page,
}) => {
  await openSecrets(page);
  await page.getByTestId('tab-secrets').click();
  const panel = page.getByTestId('secrets-panel');
  await expect(panel.getByTestId('secret-row').first()).toBeVisible();
  for (const p of PLANTED_SECRETS)
    await expect(panel.locator(`[data-kind="${p.kind}"]`).first()).toBeVisible();
  expectMasked(await panel.evaluate((el) => el.outerHTML), 'the Secrets panel');
  await panel.locator('[data-kind="aws-key"]').getByTestId('secret-unmask').check();
  const { bytes } = await exportFile(page, 'compacted-jsonl');
  const text = bytes.toString('utf8');
  expect(text).toContain('AKIAFAKEFAKEFAKE1234');
  for (const p of PLANTED_SECRETS)
    if (p.kind !== 'aws-key') expect(text.includes(p.secret), p.kind).toBe(false);
});

test('the request shown before sending is masked', async ({ page }) => {
  await openSecrets(page);
  await page.getByTestId('summaries-toggle').click();
  await expect(page.getByTestId('point-select')).toBeVisible();
  await expect(page.getByTestId('request-tokens')).toContainText(/messages · ≈[\d,]+ tokens/);
  await page.getByTestId('tab-request').click();
  const preview = page.getByTestId('request-preview');
  await expect(preview.locator('.monaco-editor')).toBeVisible();
  await expect(preview).toContainText('[REDACTED:anthropic-key]');
  await expect(preview).toContainText('[REDACTED:private-key]');
  expectMasked(await preview.innerText(), 'the request preview');
  // The built-in run is made from that request: its summary quotes no secret either.
  await page.getByTestId('run-summary').click();
  await expect(page.getByTestId('run-status')).toHaveText(/Done/);
  expectMasked(await page.getByTestId('summary-output').innerText(), 'the built-in summary');
  // A second run with other instructions, then the two side by side.
  await page.getByTestId('custom-instructions').fill('Keep every command.');
  await page.getByTestId('run-summary').click();
  await expect(page.getByTestId('run-row')).toHaveCount(2);
  for (const box of await page.getByTestId('run-select').all()) await box.check();
  const { bytes } = await exportFile(page, 'run-comparison-md');
  const comparison = bytes.toString('utf8');
  expect(comparison).toMatch(/^# Run comparison/);
  expect(comparison).toMatch(/\| retention \| kept \d+ of \d+ facts .*\| kept \d+ of \d+ facts/);
  expectMasked(comparison, 'the run comparison');
  // Summaries export now carries the log's summary and both runs.
  const md = (await exportFile(page, 'summaries-md')).bytes.toString('utf8');
  expect(md.match(/^## Run: /gm)).toHaveLength(2);
  expectMasked(md, 'the summaries with runs');
  // A run of the recorded summary at the compaction: the compacted transcript writes it there.
  await page.getByTestId('summarizer-recorded').check();
  await page.getByTestId('run-summary').click();
  await expect(page.getByTestId('run-row')).toHaveCount(3);
  const jsonl = (await exportFile(page, 'compacted-jsonl')).bytes.toString('utf8');
  const summary = jsonl
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l))
    .find((r) => r.isCompactSummary);
  expect(summary.message.content).toContain('fix the deploy; the user pasted [REDACTED:anthropic-key]');
  expectMasked(jsonl, 'the compacted transcript with a run');
});

/** The main-thread compaction markers as (kind, trigger, label). */
async function getMarkers(page: Page): Promise<string[]> {
  await expect(page.getByTestId('compaction-marker').first()).toBeVisible();
  return page
    .locator('[data-testid="compaction-marker"]:not(.side)')
    .evaluateAll((els) =>
      els.map((e) => `${e.dataset.kind} ${e.dataset.trigger} ${e.getAttribute('aria-label')}`),
    );
}

test('the compacted JSONL re-opens with the same compactions', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('session-header')).toBeVisible();
  const before = await getMarkers(page);
  expect(before.filter((m) => m.startsWith('compact ')).length).toBeGreaterThan(0);
  const { bytes } = await exportFile(page, 'compacted-jsonl');
  await dropFiles(page, [{ name: 'compacted.jsonl', content: bytes.toString('utf8') }]);
  await expect(page.locator('.current-label')).toContainText('compacted.jsonl');
  expect(await getMarkers(page)).toEqual(before);
});

test('the HTML report opens from disk with the network blocked, whole', async ({
  page,
  context,
}, testInfo) => {
  await openSecrets(page);
  const { bytes } = await exportFile(page, 'report-html');
  const file = testInfo.outputPath('report.html');
  fs.writeFileSync(file, bytes);
  // Away from the app first: a chunk it was still loading is not the report's request.
  await page.goto('about:blank');
  const requests: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url === `file://${file}`) return route.continue();
    requests.push(url);
    return route.abort();
  });
  context.on('request', (r) => {
    if (r.url() !== `file://${file}`) requests.push(r.url());
  });
  await page.goto(`file://${file}`);
  await expect(page.locator('h1')).toContainText('CompactLab report: secrets.jsonl');
  await expect(page.locator('#timeline svg')).toBeVisible();
  await expect(page.locator('#timeline svg polyline.context')).toHaveCount(1);
  await expect(page.locator('#summaries pre')).toHaveCount(1);
  await expect(page.locator('#summaries .retention')).toContainText(/kept \d+ of \d+ facts/);
  await expect(page.locator('#compactions table tbody tr')).toHaveCount(1);
  await expect(page.locator('script')).toHaveCount(0);
  expect(requests).toEqual([]);
  expectMasked(await page.content(), 'the report page');
});
