import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, FIXTURES_DIR, openEmpty, SAMPLES_DIR, test } from './fixtures';
import { writeLibraryFolder } from './library-folder';

// A worker dies without an error event (killed, out of memory, stuck in a loop): here the first
// engine (or scan) worker the page starts is served with a prelude that spins forever at a chosen
// point. The page must see the silence, say so, end what was running with an error instead of
// "running" forever, and take the next work in a fresh worker.

const INDEX = path.join(SAMPLES_DIR, 'index.json');

/** Runs before the worker's own code: after the first progress of a sweep, an endless loop. */
const HANG_PRELUDE = `{
  const post = self.postMessage.bind(self);
  self.postMessage = (message, transfer) => {
    post(message, transfer);
    if (message && message.type === 'progress' && message.progress && message.progress.done >= 1 && 'total' in message.progress) {
      for (;;) {}
    }
  };
}
`;

test('a worker stuck mid-sweep is found dead, said, replaced; the sweep fails and a later drop works', async ({
  page,
  context,
}) => {
  test.skip(!fs.existsSync(INDEX), 'public/samples/index.json is not there yet (run the sample generator)');
  // The client's silence deadline (20 s) plus a ping interval, on a shared machine.
  test.setTimeout(120_000);
  let served = 0;
  await context.route(/\/assets\/engine\.worker-[^/]*\.js$/, async (route) => {
    const response = await route.fetch();
    const body = await response.text();
    served++;
    await route.fulfill({ response, body: served === 1 ? HANG_PRELUDE + body : body });
  });
  await page.goto('/');
  await expect(page.getByTestId('session-header')).toBeVisible();
  await expect(page.getByTestId('replay-compare')).toBeVisible();
  await page.getByTestId('sweep-open').click();
  await page.getByTestId('sweep-knob').selectOption('autocompactPctOverride');
  await page.getByTestId('sweep-from').fill('30');
  await page.getByTestId('sweep-to').fill('100');
  await page.getByTestId('sweep-steps').fill('15');
  await page.getByTestId('sweep-run').click();
  await expect(page.getByTestId('sweep-progress')).toBeVisible();
  expect(served).toBe(1);

  // Found dead within the deadline, said on the page, the sweep ended with the reason.
  const notice = page.getByTestId('engine-notice');
  await expect(notice).toContainText('The engine stopped answering', { timeout: 60_000 });
  await expect(notice).toContainText('started again with the session reloaded');
  await expect(page.getByText(/Sweep failed: The engine stopped answering/)).toBeVisible();
  await expect(page.getByTestId('sweep-progress')).toHaveCount(0);
  // The fresh worker's script (counted once the route has fetched it: it may still be in flight).
  await expect.poll(() => served).toBe(2);

  // The session is still there, the same sweep now runs in the fresh worker.
  await expect(page.getByTestId('session-header')).toBeVisible();
  await page.getByTestId('sweep-run').click();
  await expect(page.getByTestId('sweep-row')).toHaveCount(15, { timeout: 30_000 });

  // A later drop is read by the fresh worker (the sample has other figures than tiny.jsonl's 25 entries).
  await expect(page.getByTestId('session-header')).not.toContainText('25 entries');
  await page.getByTestId('file-input').setInputFiles(path.join(FIXTURES_DIR, 'tiny.jsonl'));
  await expect(page.getByTestId('session-header')).toContainText('25 entries', { timeout: 30_000 });
  await notice.getByRole('button', { name: 'Dismiss' }).click();
  await expect(notice).toHaveCount(0);
});

/** Runs before the scan worker's own code: its first scan job spins forever. */
const SCAN_HANG_PRELUDE = `self.addEventListener('message', (event) => {
  if (event.data && event.data.kind === 'scan') for (;;) {}
});
`;

test('a scan worker stuck on a session is replaced: the session listed as failed, the rest scanned', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  const folder = writeLibraryFolder(
    path.join(os.tmpdir(), `compactlab-scan-death-e2e-${process.pid}`, 'work'),
  );
  let served = 0;
  await context.route(/\/assets\/scan\.worker-[^/]*\.js$/, async (route) => {
    const response = await route.fetch();
    const body = await response.text();
    served++;
    await route.fulfill({ response, body: served === 1 ? SCAN_HANG_PRELUDE + body : body });
  });
  await openEmpty(page);
  await page.getByTestId('folder-input').setInputFiles(folder.root);
  await expect(page.getByTestId('library')).toBeVisible();
  const rows = page.getByTestId('library-row');
  await expect(rows).toHaveCount(folder.sessions);
  // The scan ends (not "scanning" forever), one session failed with the reason, the others read.
  await expect(page.getByTestId('library-scan')).toHaveCount(0, { timeout: 60_000 });
  await expect(page.getByTestId('library-rows')).not.toContainText('scanning…');
  await expect(page.getByText(/the scan worker stopped answering/)).toHaveCount(1);
  await expect(page.locator('[data-col="agent"]', { hasText: 'Codex CLI' })).toHaveCount(1);
  expect(served).toBeGreaterThan(1);
});
