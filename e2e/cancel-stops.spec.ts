import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { writeBigSession } from './big-session';
import { browserCpuMs, QUIET_CPU_MS } from './browser-cpu';
import { expect, openEmpty, test } from './fixtures';
import { writeBigLibraryFolder } from './library-folder';

// Cancel stops the work, not only the words: after Cancel the engine's workers send nothing more
// and the browser's CPU falls. A compare cancelled during the API's clear_tool_uses replay on a
// 30k-call session kept a core busy for seconds after it said "Cancelled" (that replay scanned
// every live result at every call: 24 s on 40k calls); the load and the folder scan were checked
// the same way and stopped at once.

/** Counts the messages the page's workers send but liveness answers (installed before the page's code runs). */
async function countWorkerMessages(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const counted = window as unknown as { workerMessages: number };
    counted.workerMessages = 0;
    const Base = window.Worker;
    window.Worker = class extends Base {
      constructor(url: string | URL, options?: WorkerOptions) {
        super(url, options);
        // A liveness answer (`pong`) says the worker is free, not that it works.
        this.addEventListener('message', (event: MessageEvent) => {
          if ((event.data as { type?: string } | undefined)?.type !== 'pong') counted.workerMessages++;
        });
      }
    };
  });
}

/**
 * Worker messages and browser CPU over `ms` after a Cancel, once what was in flight has landed:
 * the step a worker was in when the Cancel came answers (ours: 2 s at most for it, then the
 * window starts anyway, so a step that runs on is measured).
 */
async function afterCancel(page: Page, ms = 3000): Promise<{ messages: number; cpuMs: number }> {
  const read = () => page.evaluate(() => (window as unknown as { workerMessages: number }).workerMessages);
  const settleBy = Date.now() + 2000;
  let last = await read();
  let quietSince = Date.now();
  while (Date.now() < settleBy && Date.now() - quietSince < 500) {
    await page.waitForTimeout(100);
    const now = await read();
    if (now !== last) {
      last = now;
      quietSince = Date.now();
    }
  }
  const m0 = await read();
  const c0 = browserCpuMs();
  await page.waitForTimeout(ms);
  return { messages: (await read()) - m0, cpuMs: browserCpuMs() - c0 };
}

test.skip(!fs.existsSync('/proc/self/stat'), "the browser's CPU time is read from /proc (Linux)");

test('Cancel stops a load and a compare: no worker message after it, the CPU falls', async ({
  page,
}, testInfo) => {
  test.setTimeout(240_000);
  await countWorkerMessages(page);
  const file = testInfo.outputPath('big-cancel.jsonl');
  writeBigSession(file, 30_000, 40);
  await openEmpty(page);

  // A load cancelled mid-read.
  await page.getByTestId('file-input').setInputFiles(file);
  await expect(page.getByTestId('load-bytes')).toContainText(/MB \/ \d+\.\d MB/);
  await page.getByTestId('cancel-load').click();
  await expect(page.getByTestId('load-notice')).toContainText('Cancelled');
  const load = await afterCancel(page);
  expect(load.messages).toBe(0);
  expect(load.cpuMs).toBeLessThan(QUIET_CPU_MS);

  // The same file loaded, then a compare of the API's context editing and Gemini CLI cancelled
  // while the first runs.
  await page.getByTestId('file-input').setInputFiles(file);
  await expect(page.getByTestId('session-header')).toBeVisible({ timeout: 120_000 });
  await expect(page.getByTestId('replay-event-count')).toBeVisible({ timeout: 60_000 });
  await page.getByTestId('compare-open').click();
  const panel = page.getByTestId('compare-panel');
  await expect(panel).toHaveAttribute('data-running', 'false', { timeout: 120_000 });
  for (const box of await panel.getByTestId('compare-pick').all()) {
    const id = await box.getAttribute('data-strategy');
    await box.setChecked(id === 'api-clear-tool-uses' || id === 'gemini-cli');
  }
  await panel.getByTestId('compare-run').click();
  await expect(panel.getByTestId('compare-progress')).toBeVisible();
  await panel.getByTestId('compare-cancel').click();
  await expect(panel).toHaveAttribute('data-running', 'false');
  await expect(panel.getByTestId('compare-notice')).toContainText(/Cancelled after \d of 2 strategies/);
  const compare = await afterCancel(page);
  testInfo.annotations.push({ type: 'after a compare’s Cancel', description: JSON.stringify(compare) });
  // The strategy in flight when the Cancel came may still answer once, later than the settling
  // window on a busy machine (one message, seen once in a fresh clone's suite); a replay running
  // on sends its progress on and on, and keeps the CPU up.
  expect(compare.messages).toBeLessThanOrEqual(1);
  expect(compare.cpuMs).toBeLessThan(QUIET_CPU_MS);
});

test('Cancel stops a folder scan: the list says what it scanned, no worker message after it, the CPU falls', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await countWorkerMessages(page);
  const folder = writeBigLibraryFolder(path.join(os.tmpdir(), `compactlab-cancel-${process.pid}`, 'big'));
  await openEmpty(page);
  await page.getByTestId('folder-input').setInputFiles(folder.root);
  const scan = page.getByTestId('library-scan');
  await expect(scan).toContainText(/Scanning [1-9]\d* of/, { timeout: 60_000 });
  await page.getByTestId('library-cancel').click();
  await expect(scan).toHaveCount(0);
  const after = await afterCancel(page);
  expect(after.messages).toBe(0);
  expect(after.cpuMs).toBeLessThan(QUIET_CPU_MS);
  // What was scanned stays; the rest is said to be not scanned.
  await expect(page.getByTestId('library')).toContainText(/\d+ scanned, \d+ from the cache, \d+ not scanned/);
});
