import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createMockServer } from '../mock/openai-mock.mjs';
import { generateSession } from '../sample/generate-session';
import { expect, openEmpty, test } from './fixtures';

// The library's what-if with the retention written by a model, against the local OpenAI-compatible
// mock at 1280×720: the plan says how many calls before any is made, the run makes exactly those
// (a failing one reported for its compaction, the rest scored), a second run answers from the
// cache without a call, Cancel stops the calls, and another folder clears the results.

const SESSIONS = 3;

function writeFolder(root: string, seed: number): void {
  fs.rmSync(root, { recursive: true, force: true });
  for (let i = 0; i < SESSIONS; i++) {
    const generated = generateSession({ seed: seed + i, apiCalls: 220 + 40 * i });
    for (const f of generated.files) {
      const p = path.join(root, `-home-ada-p${i}`, f.name);
      fs.mkdirSync(path.dirname(p), { recursive: true });
      fs.writeFileSync(p, f.text);
    }
  }
}

const mock = createMockServer({ chunkDelayMs: 1 });
const handle = mock.listeners('request')[0] as http.RequestListener;
/** Completions seen; `failNth`: the completion (1-based) answered with a 500 instead. */
let completions = 0;
let failNth = 0;
const front = http.createServer((req, res) => {
  if (req.method === 'POST' && req.url?.endsWith('/chat/completions') && ++completions === failNth) {
    res.setHeader('access-control-allow-origin', req.headers.origin ?? '*');
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: 'the mock failed this one', type: 'server_error' } }));
    return;
  }
  handle(req, res);
});
let url = '';

test.beforeAll(async () => {
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
});
test.afterAll(() => new Promise<void>((resolve) => front.close(() => resolve())));

test.describe('library what-if: retention by a model', () => {
  test.use({ viewport: { width: 1280, height: 720 } });

  test('plan, calls, a failure, the cache, cancel, another folder', async ({ page }, testInfo) => {
    test.setTimeout(240_000);
    const base = path.join(os.tmpdir(), `compactlab-whatif-model-${process.pid}`);
    const root = path.join(base, 'a', 'projects');
    writeFolder(root, 500);
    await openEmpty(page);
    await page.getByTestId('folder-input').setInputFiles(root);
    await expect(page.getByTestId('library-row')).toHaveCount(SESSIONS);
    await expect(page.getByTestId('library-scan')).toHaveCount(0);
    await page.getByTestId('library-whatif').click();
    await expect(page.getByTestId('whatif-retention')).toBeChecked();
    await page.getByTestId('whatif-summarizer').selectOption('openai');
    await page.getByTestId('whatif-base-url').fill(url);
    await page.getByTestId('whatif-model').fill('mock-model');

    // The plan: counted by a replay, nothing sent.
    failNth = 2;
    await page.getByTestId('whatif-run').click();
    const plan = page.getByTestId('whatif-plan');
    await expect(plan).toBeVisible({ timeout: 120_000 });
    expect(completions, 'a plan sends nothing').toBe(0);
    const calls = Number(await plan.getAttribute('data-calls'));
    expect(calls).toBeGreaterThan(SESSIONS);
    await expect(plan).toContainText(`${calls} summary calls to mock-model on the server at ${url}/`);
    await expect(plan).toContainText(/input tokens/);
    await page.screenshot({ path: testInfo.outputPath('whatif-model-plan.png') });

    // The run: exactly those calls, the 2nd failing, reported for its compaction; the rest scored.
    await page.getByTestId('whatif-confirm').click();
    const status = page.getByTestId('whatif-status');
    await expect(status).toHaveAttribute('data-status', 'done', { timeout: 120_000 });
    const made = page.getByTestId('whatif-calls');
    await expect(made).toHaveAttribute('data-made', String(calls));
    await expect(made).toHaveAttribute('data-failed', '1');
    expect(completions).toBe(calls);
    await expect(page.getByTestId('whatif-failures')).toContainText(
      /autocompactPctOverride=60 · replay compaction \d+ after API call \d+: .*500/,
    );
    const totals = page.getByTestId('whatif-total');
    await expect(totals).toHaveCount(2);
    const retention = await totals.evaluateAll((rows) =>
      rows.map((r) => Number(r.getAttribute('data-retention'))),
    );
    for (const r of retention) expect(r).toBeGreaterThan(0);
    await page.screenshot({ path: testInfo.outputPath('whatif-model-done.png') });
    const csv = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('whatif-csv').click(),
    ]).then(([d]) => d.path().then((p) => fs.readFileSync(p!, 'utf8')));
    expect(csv).toMatch(/,mock-model,\d+,1,/);

    // Again: the answers are cached. The failed call is made again, and so are the calls after it
    // in its session's chain (their requests open with the summary it now gives): the rest are
    // answered from the cache.
    failNth = 0;
    await page.getByTestId('whatif-run').click();
    await expect(plan).toBeVisible({ timeout: 120_000 });
    const again = Number(await plan.getAttribute('data-calls'));
    const cached = Number(await plan.getAttribute('data-cached'));
    expect(again).toBeGreaterThanOrEqual(1);
    expect(again).toBeLessThan(calls);
    expect(again + cached).toBe(calls);
    await expect(plan).toContainText(`${cached} more from the cache`);
    const before = completions;
    await page.getByTestId('whatif-confirm').click();
    await expect(status).toHaveAttribute('data-status', 'done', { timeout: 120_000 });
    await expect(made).toHaveAttribute('data-cached', String(cached));
    await expect(made).toHaveAttribute('data-failed', '0');
    expect(completions - before).toBe(again);
    // And once more: every answer is cached, no call at all.
    await page.getByTestId('whatif-run').click();
    await expect(plan).toBeVisible({ timeout: 120_000 });
    await expect(plan).toHaveAttribute('data-calls', '0');
    await expect(plan).toContainText('No call to make');
    await page.getByTestId('whatif-confirm').click();
    await expect(status).toHaveAttribute('data-status', 'done', { timeout: 120_000 });
    expect(completions - before).toBe(again);

    // Cancel: a slow model (a chunk every 250 ms); the calls stop with the run.
    await page.getByTestId('whatif-model').fill('mock-slow');
    await page.getByTestId('whatif-run').click();
    await expect(plan).toBeVisible({ timeout: 120_000 });
    const beforeSlow = completions;
    await page.getByTestId('whatif-confirm').click();
    await expect(made).toContainText(/now /);
    // The page names the call when it starts it; its request reaches the server a moment later.
    await expect.poll(() => completions - beforeSlow).toBe(1);
    const sent = completions;
    await page.getByTestId('whatif-cancel').click();
    await expect(status).toHaveAttribute('data-status', 'cancelled');
    await page.waitForTimeout(1500);
    expect(completions, 'no call after Cancel').toBe(sent);
    await expect(made).toHaveAttribute('data-made', '1');
    await page.screenshot({ path: testInfo.outputPath('whatif-model-cancelled.png') });

    // Results belong to their sessions: another folder listed beside marks them as the sessions
    // listed then; their folder taken out of the list takes them with it.
    await page.getByTestId('whatif-model').fill('mock-model');
    await page.getByTestId('whatif-run').click();
    await expect(plan).toBeVisible({ timeout: 120_000 });
    await page.getByTestId('whatif-confirm').click();
    await expect(status).toHaveAttribute('data-status', 'done', { timeout: 120_000 });
    await expect(totals).toHaveCount(2);
    const other = path.join(base, 'b', 'projects');
    writeFolder(other, 900);
    await page.getByTestId('folder-input').setInputFiles(other);
    await expect(page.getByTestId('library-row')).toHaveCount(2 * SESSIONS);
    if (!(await page.getByTestId('whatif').isVisible())) await page.getByTestId('library-whatif').click();
    await expect(page.getByTestId('whatif')).toBeVisible();
    await expect(page.getByTestId('whatif-stale')).toContainText(`for the ${SESSIONS} sessions listed then`);
    await expect(totals).toHaveCount(2);
    await page.locator('[data-root="projects"] [data-testid="library-root-remove"]').click();
    await expect(page.getByTestId('library-row')).toHaveCount(SESSIONS);
    await expect(totals).toHaveCount(0);
    await expect(status).toHaveCount(0);
    fs.rmSync(base, { recursive: true, force: true });
  });
});
