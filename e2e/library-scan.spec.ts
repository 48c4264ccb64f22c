import os from 'node:os';
import path from 'node:path';
import { expect, openEmpty, TIMING_BUDGETS, test } from './fixtures';
import { writeBigLibraryFolder } from './library-folder';

// The page stays responsive while a folder of hundreds of sessions is scanned: no main-thread task
// over 50 ms (a budget held under `npm run bench` only, TIMING_BUDGETS) (PerformanceObserver 'longtask', installed before the page's own code runs) and a
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
  /** Sessions the listing should end with; set by the test before the folder is opened. */
  expectSessions?: number;
  /** When every row is listed and scanned (performance.now()). */
  finished?: Promise<number>;
}

// A task stretched by another process's turn on the shared 2-core test machine is not the page's
// doing; a rerun tells that from a page that holds its thread (which fails every time).
test.describe.configure({ retries: TIMING_BUDGETS ? 2 : 0 });

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
    let finish: (ms: number) => void = () => {};
    probe.finished = new Promise((resolve) => (finish = resolve));
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
      // The end is watched here, in the page: Playwright's own polling (each an evaluate, the first
      // compiling its injected script) would add tasks of the test's to the page's thread.
      const count = document.querySelector('[data-testid="library-count"]')?.textContent ?? '';
      const list = document.querySelector('[data-testid="library-rows"]')?.textContent ?? '';
      if (
        probe.expectSessions !== undefined &&
        count.startsWith(`${probe.expectSessions} sessions`) &&
        !document.querySelector('[data-testid="library-scan"]') &&
        !list.includes('scanning…')
      ) {
        finish(now);
      }
    }, heartbeatMs);
  }, HEARTBEAT_MS);
  await openEmpty(page);
  // Let the page's first render and the app's start-up settle: they are not the scan.
  await page.waitForTimeout(1000);
  // How much this machine stretches the page's wall time now: the same ~5 ms of work timed 40
  // times, median over fastest. On an idle machine ≈1 (the budget is 50 ms); on the shared 2-core
  // test machine, other processes' turns on the CPU lengthen every task alike, so the budget is
  // scaled by it (at most 3×) and the figure is reported.
  const stretch = await page.evaluate(() => {
    const times: number[] = [];
    let sink = 0;
    for (let r = 0; r < 40; r++) {
      const t = performance.now();
      for (let i = 0; i < 300_000; i++) sink += Math.sqrt(i ^ r);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    return sink > 0 ? times[20]! / Math.max(0.1, times[0]!) : 1;
  });
  const limitMs = LONG_TASK_LIMIT_MS * Math.min(3, Math.max(1, stretch));
  const startMs = await page.evaluate((sessions) => {
    (window as unknown as { scanProbe: Probe }).scanProbe.expectSessions = sessions;
    return performance.now();
  }, folder.sessions);
  await page.getByTestId('folder-input').setInputFiles(folder.root);
  const endMs = await page.evaluate(() => (window as unknown as { scanProbe: Probe }).scanProbe.finished!);
  await expect(page.getByTestId('library-count')).toContainText(`${folder.sessions} sessions`);
  await expect(page.getByTestId('library-scan')).toHaveCount(0);
  await expect(page.getByTestId('library-rows')).not.toContainText('scanning…');
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
  // Beats from the change event on (the FileList task before it is Chromium's, see above).
  const beats = probe.beats.filter((b) => b.atMs - b.lagMs - HEARTBEAT_MS >= changeMs && b.atMs <= endMs);
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
    /** Each long task: ms after the change event, duration, sessions scanned by then. */
    longTasksAt: tasks.map((t) => [
      Math.round(t.startMs - changeMs),
      Math.round(t.durationMs),
      beats.find((b) => b.atMs >= t.startMs)?.done ?? -1,
    ]),
    browserFileListMs: Math.round(fileListMs),
    heartbeatMaxLagMs: Math.round(maxLagMs),
    cpuStretch: Number(stretch.toFixed(2)),
    limitMs: Math.round(limitMs),
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
  if (TIMING_BUDGETS) {
    expect(figures.scanSeconds, 'the scan takes long enough to measure').toBeGreaterThan(2);
    expect(
      tasks.map((t) => Math.round(t.durationMs)).filter((d) => d > limitMs),
      `main-thread tasks over ${Math.round(limitMs)} ms during the scan`,
    ).toEqual([]);
  }

  // Every session listed, the broken one with its issues.
  const broken = page.locator('[data-key$="broken.jsonl"] [data-col="issues"]');
  await page.getByTestId('library-search').fill('broken');
  await expect(broken).not.toHaveText('0');

  // At 1280×720 every column fits, Cost included; narrower, the list scrolls sideways with its
  // first column (Start) in view and the header in step.
  await page.getByTestId('library-search').fill('');
  await page.setViewportSize({ width: 1280, height: 720 });

  // A new sort shows its first rows, not the old scroll position.
  const list = page.getByTestId('library-rows');
  await list.evaluate((el) => {
    el.scrollTop = el.scrollHeight / 2;
  });
  await expect.poll(() => list.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
  await page.getByTestId('library-sort-peak').click();
  await expect.poll(() => list.evaluate((el) => el.scrollTop)).toBe(0);
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
  await page.setViewportSize({ width: 900, height: 720 });
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
});
