import os from 'node:os';
import path from 'node:path';
import { expect, openEmpty, shoot, test } from './fixtures';
import { writeBigLibraryFolder } from './library-folder';

// The page stays responsive while a folder of hundreds of sessions is scanned: no main-thread task
// over 50 ms (PerformanceObserver 'longtask', installed before the page's own code runs) and a
// setInterval heartbeat that measures how late each tick fires, from the moment the folder input
// is filled until the last row is listed; and the list fills while the scan runs (streaming).

/** The goal of issue 12: no main-thread task over this while a folder is scanned. */
const LONG_TASK_LIMIT_MS = 50;
const HEARTBEAT_MS = 10;

interface Probe {
  /** When the folder input's change event reached the document (capture phase). */
  changeMs?: number;
  longTasks: { startMs: number; durationMs: number }[];
  beats: { atMs: number; lagMs: number; scanned: number; done: number }[];
}

test('scanning a folder of hundreds of sessions keeps every main-thread task under 50 ms', async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  const folder = writeBigLibraryFolder(path.join(os.tmpdir(), `compactlab-scan-e2e-${process.pid}`, 'big'));
  await page.addInitScript((heartbeatMs: number) => {
    const probe: Probe = { longTasks: [], beats: [] };
    (window as unknown as { scanProbe: Probe }).scanProbe = probe;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        probe.longTasks.push({ startMs: e.startTime, durationMs: e.duration });
    }).observe({ type: 'longtask', buffered: true });
    document.addEventListener('change', () => (probe.changeMs ??= performance.now()), true);
    let last = performance.now();
    setInterval(() => {
      const now = performance.now();
      // Rows with a scanned cell in the DOM, and the "Scanning N of M" count.
      const scanned = document.querySelectorAll('[data-testid="library-row"] [data-col="start"]').length;
      const m = document
        .querySelector('[data-testid="library-scan"]')
        ?.textContent?.match(/Scanning (\d+) of/);
      probe.beats.push({ atMs: now, lagMs: now - last - heartbeatMs, scanned, done: m ? Number(m[1]) : -1 });
      last = now;
    }, heartbeatMs);
  }, HEARTBEAT_MS);
  await openEmpty(page);
  // Let the page's first render and the app's start-up settle: they are not the scan.
  await page.waitForTimeout(1000);
  const startMs = await page.evaluate(() => performance.now());
  await page.getByTestId('folder-input').setInputFiles(folder.root);
  await expect(page.getByTestId('library')).toBeVisible();
  await expect(page.getByTestId('library-count')).toContainText(`${folder.sessions} sessions`);
  await expect(page.getByTestId('library-scan')).toHaveCount(0, { timeout: 150_000 });
  await expect(page.getByTestId('library-rows')).not.toContainText('scanning…');
  const endMs = await page.evaluate(() => performance.now());
  const probe = await page.evaluate(() => (window as unknown as { scanProbe: Probe }).scanProbe);

  // Chromium builds the directory input's FileList (a stat per file) in the task that then fires
  // the change event: browser work before any page code runs, ~1 ms per file on this machine. The
  // page's share of that task is from the change event to the task's end; the "Open folder…"
  // button uses showDirectoryPicker where Chromium has it, whose walk is asynchronous.
  const changeMs = probe.changeMs ?? startMs;
  const tasks = probe.longTasks
    .filter((t) => t.startMs + t.durationMs >= startMs && t.startMs <= endMs)
    .map((t) =>
      t.startMs <= changeMs && changeMs <= t.startMs + t.durationMs
        ? {
            startMs: changeMs,
            durationMs: t.startMs + t.durationMs - changeMs,
            fileListMs: changeMs - t.startMs,
          }
        : t,
    );
  const fileListMs = tasks.map((t) => ('fileListMs' in t ? t.fileListMs : 0)).find((x) => x > 0) ?? 0;
  const beats = probe.beats.filter((b) => b.atMs >= startMs && b.atMs <= endMs);
  const maxTaskMs = Math.max(0, ...tasks.map((t) => t.durationMs));
  const maxLagMs = Math.max(0, ...beats.map((b) => b.lagMs));
  const sortedLags = beats.map((b) => b.lagMs).sort((a, b) => a - b);
  const p95LagMs = sortedLags[Math.floor(sortedLags.length * 0.95)] ?? 0;
  const figures = {
    files: folder.files,
    sessions: folder.sessions,
    scanSeconds: Number(((endMs - startMs) / 1000).toFixed(1)),
    maxTaskMs: Math.round(maxTaskMs),
    longTasksMs: tasks.map((t) => Math.round(t.durationMs)),
    browserFileListMs: Math.round(fileListMs),
    heartbeatMaxLagMs: Math.round(maxLagMs),
    heartbeatP95LagMs: Math.round(p95LagMs),
    beats: beats.length,
  };
  testInfo.annotations.push({ type: 'scan responsiveness', description: JSON.stringify(figures) });
  console.log(`scan responsiveness: ${JSON.stringify(figures)}`);

  // Streaming: the scan's count and the listed rows with scanned cells grew in several steps.
  const doneSteps = new Set(beats.map((b) => b.done).filter((d) => d > 0 && d < folder.sessions));
  expect(doneSteps.size, 'distinct "Scanning N of M" counts seen during the scan').toBeGreaterThanOrEqual(5);
  const scannedSteps = new Set(beats.map((b) => b.scanned));
  expect(scannedSteps.size, 'distinct counts of scanned rows in view').toBeGreaterThanOrEqual(3);
  expect(figures.scanSeconds, 'the scan takes long enough to measure').toBeGreaterThan(2);
  expect.soft(tasks.map((t) => Math.round(t.durationMs)).filter((d) => d > LONG_TASK_LIMIT_MS)).toEqual([]);

  // Every session listed, the broken one with its issues.
  const broken = page.locator('[data-key$="broken.jsonl"] [data-col="issues"]');
  await page.getByTestId('library-search').fill('broken');
  await expect(broken).not.toHaveText('0');

  // At 1280×720 every column fits, Cost included; narrower, the list scrolls sideways with its
  // first column (Start) in view and the header in step.
  await page.getByTestId('library-search').fill('');
  await page.setViewportSize({ width: 1280, height: 720 });
  const cost = page.getByTestId('library-sort-cost');
  const right = async () => {
    const box = await cost.boundingBox();
    return box ? box.x + box.width : Number.POSITIVE_INFINITY;
  };
  await expect.poll(right).toBeLessThanOrEqual(1280);
  const costCell = page.getByTestId('library-row').first().locator('[data-col="cost"]');
  await expect(costCell).toHaveText(/^\$|–/);
  const cellBox = await costCell.boundingBox();
  expect(cellBox!.x + cellBox!.width).toBeLessThanOrEqual(1280);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await shoot(page, testInfo, `library-1280-${scheme}`);
  }
  await page.setViewportSize({ width: 900, height: 720 });
  const list = page.getByTestId('library-rows');
  await list.evaluate((el) => {
    el.scrollLeft = 400;
    el.dispatchEvent(new Event('scroll'));
  });
  const start = page.getByTestId('library-row').first().locator('[data-col="start"]');
  const listBox = (await list.boundingBox())!;
  await expect.poll(async () => (await start.boundingBox())!.x).toBeLessThan(listBox.x + 20);
  await expect
    .poll(async () => (await cost.boundingBox())!.x + (await cost.boundingBox())!.width)
    .toBeLessThanOrEqual(900);
  await page.emulateMedia({ colorScheme: 'light' });
  await shoot(page, testInfo, 'library-900-scrolled');
});
