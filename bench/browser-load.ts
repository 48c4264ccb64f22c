// `node bin/run-ts.mjs bench/browser-load.ts` (part of `npm run bench` through bench/browser.ts):
// the 105 MB bench transcript given to the built app in Debian's Chromium, side by side with a
// plain parse of the same File in the same page (a worker that reads it as a stream, splits it at
// newlines and `JSON.parse`s every line: what the page could not do faster). Both are timed in the
// page from the moment the File is in hand, interleaved, `BENCH_RUNS` times each (default 3): the
// ratio of the medians is the figure (issue 20: file → timeline drawn ≤ 1.2× the plain parse).
// The app's own steps come from its user-timing marks (`compactlab:` marks, engine-host.ts and
// load-session.ts), read from a Chrome trace of one more load; the main thread's long tasks
// (> 50 ms) during that load are listed with what ran in them. `BENCH_TRACE=<file>` keeps the trace;
// `BENCH_DIST=<folder>` loads another build than dist/.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { type Browser, chromium, type Page } from '@playwright/test';
import { preview } from 'vite';
import { ensureBenchFile } from './bench-file';
import { BASELINE_WORKER } from './plain-parse-worker';

const root = resolve(import.meta.dirname, '..');
const log = (text: string): void => {
  process.stderr.write(`${text}\n`);
};
const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (p): p is string => !!p && existsSync(p),
);
const PORT = Number(process.env.BENCH_PORT) || 4191;
const RUNS = Number(process.env.BENCH_RUNS) || 3;

// Installed before the app runs: long tasks, and the moment the timeline first shows calls.
const MONITORS = `
  window.__bench = { longTasks: [], recording: false };
  new PerformanceObserver((list) => {
    if (!window.__bench.recording) return;
    for (const e of list.getEntries()) window.__bench.longTasks.push({ start: e.startTime, ms: e.duration });
  }).observe({ type: 'longtask', buffered: false });
  document.addEventListener('change', (e) => {
    if (e.target && e.target.dataset && e.target.dataset.testid === 'file-input') window.__bench.changeAt = performance.now();
  }, true);
  new MutationObserver(() => {
    if (window.__bench.changeAt === undefined) return;
    // The first timeline of what is read so far (load/load-preview.tsx), drawn while the file streams in.
    if (window.__bench.previewAt === undefined && document.querySelector('[data-testid="load-preview"] svg'))
      window.__bench.previewAt = performance.now();
    if (window.__bench.drawnAt !== undefined) return;
    const t = document.querySelector('[data-testid="timeline"]');
    if (Number(t?.getAttribute('data-calls') ?? 0) > 0) window.__bench.drawnAt = performance.now();
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-calls'] });
`;

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function openPage(browser: Browser): Promise<Page> {
  // The built app's CSP forbids inline scripts and blob workers; the monitors are the bench's.
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
  await page.addInitScript(MONITORS);
  await page.goto(`http://127.0.0.1:${PORT}/?sample=0`);
  await page.waitForSelector('[data-testid="file-input"]', { state: 'attached' });
  return page;
}

/** The plain parse of `file` in a fresh worker of a fresh page: its milliseconds. */
async function plainParse(browser: Browser, file: string): Promise<number> {
  const page = await openPage(browser);
  await page.evaluate(`(() => {
    const input = document.createElement('input');
    input.type = 'file';
    input.id = 'bench-baseline';
    document.body.append(input);
  })()`);
  await page.locator('#bench-baseline').setInputFiles(file);
  const result = (await page.evaluate(`new Promise((resolve) => {
    const worker = new Worker(URL.createObjectURL(new Blob([${JSON.stringify(BASELINE_WORKER)}], { type: 'text/javascript' })));
    worker.onmessage = (e) => { worker.terminate(); resolve(e.data); };
    worker.postMessage(document.getElementById('bench-baseline').files[0]);
  })`)) as { ms: number; lines: number };
  await page.close();
  return result.ms;
}

interface AppLoad {
  ms: number;
  /** From the file in hand to the first timeline of what is read so far (undefined: none drawn). */
  previewMs?: number;
  calls: number;
  longTasks: { start: number; ms: number }[];
  marks: { name: string; at: number }[];
  changeAt: number;
}

/** The app's load of `file` in a fresh page: from the input's change event to the timeline drawn. */
async function appLoad(browser: Browser, file: string, trace?: string): Promise<AppLoad> {
  const page = await openPage(browser);
  await page.evaluate('window.__bench.recording = true');
  if (trace)
    await browser.startTracing(page, {
      categories: [
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'blink.user_timing',
        'v8.execute',
        'toplevel',
        // Sampled stacks of every thread, the worker's included (BENCH_PROFILE=1): where its time goes.
        ...(process.env.BENCH_PROFILE ? ['disabled-by-default-v8.cpu_profiler'] : []),
      ],
    });
  await page.getByTestId('file-input').setInputFiles(file);
  await page.waitForFunction('window.__bench.drawnAt !== undefined', undefined, {
    timeout: 180_000,
    polling: 50,
  });
  // The frame after the drawn attribute: the canvas is painted at the next animation frame.
  await page.evaluate('new Promise((r) => requestAnimationFrame(() => setTimeout(r, 300)))');
  if (trace) writeFileSync(trace, await browser.stopTracing());
  const out = (await page.evaluate(`(() => {
    const b = window.__bench;
    b.recording = false;
    return {
      ms: b.drawnAt - b.changeAt,
      previewMs: b.previewAt === undefined ? undefined : b.previewAt - b.changeAt,
      calls: Number(document.querySelector('[data-testid="timeline"]').getAttribute('data-calls')),
      longTasks: b.longTasks.filter((t) => t.start >= b.changeAt - 5 && t.start <= b.drawnAt + 300),
      marks: performance.getEntriesByType('mark').filter((m) => m.name.startsWith('compactlab:'))
        .map((m) => ({ name: m.name, at: m.startTime - b.changeAt })),
      changeAt: b.changeAt,
    };
  })()`)) as AppLoad;
  await page.close();
  return out;
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  cat: string;
  args?: { name?: string; data?: Record<string, unknown> };
}

/** The trace's threads by name, its user-timing marks, and the main thread's long tasks' contents. */
function readTrace(path: string): string[] {
  const raw = JSON.parse(readFileSync(path, 'utf8')) as { traceEvents: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(raw) ? raw : raw.traceEvents;
  const names = new Map<string, string>();
  for (const e of events)
    if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args?.name ?? '?');
  const thread = (e: TraceEvent) => names.get(`${e.pid}:${e.tid}`) ?? `${e.pid}:${e.tid}`;
  const marks = events.filter((e) => e.cat.includes('blink.user_timing') && e.name.startsWith('compactlab:'));
  const t0 = Math.min(...marks.map((m) => m.ts));
  const lines: string[] = [];
  let before = t0;
  for (const m of marks.sort((a, b) => a.ts - b.ts)) {
    lines.push(
      `  ${((m.ts - t0) / 1000).toFixed(0).padStart(6)} ms (+${((m.ts - before) / 1000).toFixed(0).padStart(5)})  ${thread(m).padEnd(22)} ${m.name}`,
    );
    before = m.ts;
  }
  // How busy each thread was while the worker parsed (top-level tasks, merged): the page's own
  // work then competes with the parse for the cores.
  const parsed = marks.find((m) => m.name === 'compactlab:worker:parsed')?.ts ?? t0;
  for (const name of ['CrRendererMain', 'DedicatedWorker thread']) {
    const spans = events
      .filter((e) => e.ph === 'X' && e.name === 'ThreadControllerImpl::RunTask' && thread(e) === name)
      .map((e) => [Math.max(e.ts, t0), Math.min(e.ts + (e.dur ?? 0), parsed)] as const)
      .filter(([a, b]) => b > a)
      .sort((x, y) => x[0] - y[0]);
    let busy = 0;
    let reach = t0;
    for (const [a, b] of spans) {
      busy += Math.max(0, b - Math.max(a, reach));
      reach = Math.max(reach, b);
    }
    lines.push(
      `  ${name} busy ${(busy / 1000).toFixed(0)} ms of the parse's ${((parsed - t0) / 1000).toFixed(0)} ms`,
    );
  }
  // Top-level tasks over 50 ms on the page's main thread and the engine worker, with the longest
  // events inside each (a function call by its script and function, layout, GC, a message).
  const tasks = events.filter(
    (e) => e.ph === 'X' && e.name === 'RunTask' && (e.dur ?? 0) > 50_000 && e.ts >= t0 - 100_000,
  );
  for (const task of tasks.sort((a, b) => a.ts - b.ts)) {
    const inside = events
      .filter(
        (e) =>
          e !== task &&
          e.pid === task.pid &&
          e.tid === task.tid &&
          e.ph === 'X' &&
          e.ts >= task.ts &&
          e.ts + (e.dur ?? 0) <= task.ts + task.dur! &&
          (e.dur ?? 0) > 5_000 &&
          e.name !== 'RunTask' &&
          e.name !== 'ThreadControllerImpl::RunTask',
      )
      .sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))
      .slice(0, 6)
      .map((e) => {
        const d = e.args?.data ?? {};
        const what = [d.functionName, d.url ? String(d.url).replace(/^.*\//, '') : undefined, d.type]
          .filter(Boolean)
          .join(' ');
        return `${e.name}${what ? ` (${what})` : ''} ${((e.dur ?? 0) / 1000).toFixed(0)} ms`;
      });
    lines.push(
      `  task at ${((task.ts - t0) / 1000).toFixed(0).padStart(6)} ms, ${(task.dur! / 1000).toFixed(0)} ms on ${thread(task)}: ${inside.join('; ')}`,
    );
  }
  return lines;
}

if (!CHROMIUM) {
  log('browser load bench skipped: no Chromium (Debian: apt-get install -y chromium)');
  process.exit(0);
}
// BENCH_DIST=<folder>: another build of the app (two builds compared run by run).
const dist = resolve(root, process.env.BENCH_DIST ?? 'dist');
if (!existsSync(join(dist, 'index.html')))
  throw new Error(`build the app first (npx vite build): no ${dist}`);
const file = await ensureBenchFile(join(root, '.bench'), log);
const server = await preview({
  root,
  logLevel: 'warn',
  build: { outDir: dist },
  preview: { host: '127.0.0.1', port: PORT, strictPort: true },
});
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
});
try {
  const plain: number[] = [];
  const app: AppLoad[] = [];
  for (let i = 0; i < RUNS; i++) {
    plain.push(await plainParse(browser, file));
    app.push(await appLoad(browser, file));
    log(`run ${i + 1}: plain parse ${plain.at(-1)!.toFixed(0)} ms, app ${app.at(-1)!.ms.toFixed(0)} ms`);
  }
  const tracePath = process.env.BENCH_TRACE ?? join(root, '.bench', 'load-trace.json');
  const traced = await appLoad(browser, file, tracePath);
  const ratio = median(app.map((a) => a.ms)) / median(plain);
  const longest = (a: AppLoad) => Math.max(0, ...a.longTasks.map((t) => t.ms));
  console.log(
    [
      '',
      `Chromium ${browser.version()}, ${cpus()[0]?.model ?? '?'} × ${cpus().length}, ${RUNS} runs each, interleaved`,
      `| measure | plain parse (read + split + JSON.parse, worker) | app: file → timeline drawn | ratio |`,
      '|---|---:|---:|---:|',
      `| median | ${median(plain).toFixed(0)} ms | ${median(app.map((a) => a.ms)).toFixed(0)} ms | ${ratio.toFixed(2)} |`,
      `| runs | ${plain.map((x) => x.toFixed(0)).join(', ')} ms | ${app.map((a) => a.ms.toFixed(0)).join(', ')} ms | |`,
      `| first timeline of what is read (goal ≤ 500 ms) | | ${app.map((a) => (a.previewMs === undefined ? 'none' : a.previewMs.toFixed(0))).join(', ')} ms | |`,
      `| main-thread tasks > 50 ms during the load | | ${app.map((a) => `${a.longTasks.length} (longest ${longest(a).toFixed(0)})`).join(', ')} | |`,
      '',
      `the traced load (${traced.ms.toFixed(0)} ms, ${traced.calls} calls), its marks and tasks over 50 ms (trace: ${tracePath}):`,
      ...readTrace(tracePath),
    ].join('\n'),
  );
} finally {
  await browser.close();
  await new Promise<void>((done) => server.httpServer.close(() => done()));
}
