// `npm run bench` (browser part): the generated ~100 MB transcript dropped into the built app in
// Debian's Chromium. Measures the time from choosing the file to the timeline being drawn, and
// how responsive the page stayed meanwhile: the longest gap between animation frames and the
// main thread's long tasks (> 50 ms) during the load. Parsing runs in the worker, so the main
// thread should only ever see short tasks.

import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium } from '@playwright/test';
import { preview } from 'vite';
import { ensureBenchFile } from './bench-file';

const root = resolve(import.meta.dirname, '..');
const log = (text: string): void => {
  process.stderr.write(`${text}\n`);
};
const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (p): p is string => !!p && existsSync(p),
);
const PORT = 4190;

if (!CHROMIUM) {
  log('browser bench skipped: no Chromium (Debian: apt-get install -y chromium)');
  process.exit(0);
}

const file = await ensureBenchFile(join(root, '.bench'), log);
if (!existsSync(join(root, 'dist', 'index.html')) || process.env.BENCH_REBUILD !== '0') {
  log('building the app (vite build)…');
  const built = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('vite build failed');
}

const server = await preview({
  root,
  logLevel: 'warn',
  preview: { host: '127.0.0.1', port: PORT, strictPort: true },
});
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
    '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1',
  ],
});
try {
  // The built app's CSP forbids inline scripts; the monitors below are the bench's, not the app's.
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
  // Frame-gap and long-task monitors, installed before the app runs.
  // A string, not a function: tsx rewrites functions with helpers the page does not have.
  await page.addInitScript(`
    window.__bench = { maxGapMs: 0, maxLagMs: 0, frames: 0, longTasks: [], recording: false };
    let last = performance.now();
    const tick = (now) => {
      if (window.__bench.recording) {
        window.__bench.frames++;
        window.__bench.maxGapMs = Math.max(window.__bench.maxGapMs, now - last);
      }
      last = now;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    // Event-loop lag: how late a 10 ms timer fires.
    let expected = performance.now() + 10;
    setInterval(() => {
      const now = performance.now();
      if (window.__bench.recording) window.__bench.maxLagMs = Math.max(window.__bench.maxLagMs, now - expected);
      expected = now + 10;
    }, 10);
    new PerformanceObserver((list) => {
      if (!window.__bench.recording) return;
      for (const e of list.getEntries()) window.__bench.longTasks.push(e.duration);
    }).observe({ type: 'longtask', buffered: false });
  `);
  await page.goto(`http://127.0.0.1:${PORT}/?sample=0`);
  await page.waitForSelector('[data-testid="file-input"]', { state: 'attached' });
  await page.evaluate('window.__bench.recording = true');
  const started = Date.now();
  await page.getByTestId('file-input').setInputFiles(file);
  await page.waitForFunction(
    `Number(document.querySelector('[data-testid="timeline"]')?.getAttribute('data-calls') ?? 0) > 0`,
    undefined,
    { timeout: 120_000, polling: 50 },
  );
  const timelineMs = Date.now() - started;
  const calls = await page.getByTestId('timeline').getAttribute('data-calls');
  const stats = (await page.evaluate(`(() => {
    const b = window.__bench;
    b.recording = false;
    return { maxGapMs: b.maxGapMs, maxLagMs: b.maxLagMs, frames: b.frames, longTasks: b.longTasks.length,
             longestTaskMs: Math.max(0, ...b.longTasks) };
  })()`)) as { maxGapMs: number; maxLagMs: number; frames: number; longTasks: number; longestTaskMs: number };
  const sizeMb = statSync(file).size / 1e6;
  console.log(
    [
      '',
      `| browser (Chromium ${browser.version()}) | value |`,
      '|---|---:|',
      `| file | ${sizeMb.toFixed(1)} MB, ${calls} API calls |`,
      `| drop → timeline drawn | ${(timelineMs / 1000).toFixed(2)} s |`,
      `| longest gap between animation frames during the load | ${stats.maxGapMs.toFixed(0)} ms (${stats.frames} frames) |`,
      `| longest event-loop delay of a 10 ms timer during the load | ${stats.maxLagMs.toFixed(0)} ms |`,
      `| main-thread long tasks (> 50 ms) during the load | ${stats.longTasks} (longest ${stats.longestTaskMs.toFixed(0)} ms) |`,
    ].join('\n'),
  );
} finally {
  await browser.close();
  await new Promise<void>((done) => server.httpServer.close(() => done()));
}

// The e2e tests with timing budgets (bench/browser-timing.config.ts), in one browser.
log('timing budgets of the e2e tests (playwright test -c bench/browser-timing.config.ts)…');
const timed = spawnSync(
  'npx',
  ['playwright', 'test', '-c', 'bench/browser-timing.config.ts', '--reporter=list'],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
if (timed.status !== 0) process.exitCode = 1;
