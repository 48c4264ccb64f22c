// `node bin/run-ts.mjs bench/big-memory.ts` (part of `npm run bench`): a 1 GiB generated Claude Code
// session opened by `compactlab inspect` and by the built page in Debian's Chromium, each beside a
// plain parse of the same bytes in the same run (issue 20 item 4: peak memory ≤ 1.5× the file).
//   CLI: peak RSS of `node dist/cli/compactlab.mjs inspect <file>` and of `node bench/plain-parse.mjs
//        <file>` (stream, split, JSON.parse each line, keep nothing), each in a fresh process.
//   Page: the browser's resident memory (every process of its profile, read from /proc) sampled
//        every 200 ms from the drop until the session is shown, above what it held before the drop;
//        beside the same for the plain parse in a worker of a fresh page (bench/plain-parse-worker.ts).
// BENCH_BIG_MB sets the size (default 1024). The file is generated once into .bench/ and reused.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type BrowserContext, chromium } from '@playwright/test';
import { preview } from 'vite';
import { ensureBenchFile } from './bench-file';
import { BASELINE_WORKER } from './plain-parse-worker';

const root = resolve(import.meta.dirname, '..');
const log = (text: string): void => {
  process.stderr.write(`${text}\n`);
};
const MB = Number(process.env.BENCH_BIG_MB) || 1024;
const PORT = Number(process.env.BENCH_PORT) || 4192;
const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (p): p is string => !!p && existsSync(p),
);
/** The goal of issue 20 item 4. */
const GOAL = 1.5;
const gb = (bytes: number): string => `${(bytes / 1e9).toFixed(2)} GB`;

const file = await ensureBenchFile(join(root, '.bench'), log, MB * 1024 * 1024);
const size = statSync(file).size;

/** Peak RSS (bytes) and wall seconds of `node <args>` in a fresh process. */
function peakRss(args: string[], expect: RegExp): { bytes: number; seconds: number } {
  const dir = mkdtempSync(join(tmpdir(), 'compactlab-rss-'));
  const out = join(dir, 'rss');
  const started = performance.now();
  const run = spawnSync(process.execPath, ['--import', join(root, 'bench/report-rss.mjs'), ...args], {
    cwd: root,
    env: { ...process.env, REPORT_RSS_FILE: out },
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 << 20,
  });
  const seconds = (performance.now() - started) / 1000;
  if (run.status !== 0 || !expect.test(run.stdout.toString()))
    throw new Error(`node ${args.join(' ')} exited ${run.status} without the output it gives`);
  const bytes = Number(readFileSync(out, 'utf8'));
  rmSync(dir, { recursive: true, force: true });
  return { bytes, seconds };
}

log('building the CLI (scripts/build-cli.mjs)…');
spawnSync(process.execPath, ['scripts/build-cli.mjs'], { cwd: root, stdio: 'inherit' });
log(`CLI: inspect and the plain parse of ${gb(size)}…`);
const cliPlain = peakRss(['bench/plain-parse.mjs', file], /^\d+\n$/);
// bin/compactlab.cjs runs the bundle (dist/cli) when it is newer than the sources.
const cliOurs = peakRss(['bin/compactlab.cjs', 'inspect', file], /API calls/);

/** Resident bytes of every process whose command line names `profile` (the browser's). */
function browserRss(profile: string): number {
  let kb = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(profile)) continue;
      const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      kb += Number(rss?.[1] ?? 0);
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return kb * 1024;
}

interface PageRun {
  aboveBytes: number;
  seconds: number;
  ok: boolean;
}

/** Samples the browser's memory while `work` runs: its peak above what it held before. */
async function sampled(profile: string, work: () => Promise<boolean>): Promise<PageRun> {
  const before = browserRss(profile);
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, browserRss(profile));
  }, 200);
  const started = performance.now();
  const ok = await work();
  const seconds = (performance.now() - started) / 1000;
  clearInterval(timer);
  peak = Math.max(peak, browserRss(profile));
  return { aboveBytes: peak - before, seconds, ok };
}

async function withBrowser<T>(run: (context: BrowserContext, profile: string) => Promise<T>): Promise<T> {
  const profile = mkdtempSync(join(tmpdir(), 'compactlab-bigmem-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    viewport: { width: 1280, height: 720 },
    // The plain parse's worker comes from a blob (the app's CSP forbids it); the app runs as built.
    bypassCSP: true,
  });
  try {
    return await run(context, profile);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

let page: { plain: PageRun; ours: PageRun } | undefined;
if (!CHROMIUM) log('page part skipped: no Chromium (Debian: apt-get install -y chromium)');
else {
  if (!existsSync(join(root, 'dist', 'index.html'))) {
    log('building the app (vite build)…');
    spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  }
  const server = await preview({
    root,
    logLevel: 'warn',
    preview: { host: '127.0.0.1', port: PORT, strictPort: true },
  });
  const url = `http://127.0.0.1:${PORT}/?sample=0`;
  log('page: the plain parse in a worker…');
  const plain = await withBrowser(async (context, profile) => {
    const tab = context.pages()[0] ?? (await context.newPage());
    await tab.goto(url);
    await tab.evaluate(`(() => {
      const input = document.createElement('input');
      input.type = 'file';
      input.id = 'bench-baseline';
      document.body.append(input);
    })()`);
    await tab.locator('#bench-baseline').setInputFiles(file);
    await tab.waitForTimeout(1000);
    return sampled(profile, async () => {
      const r = (await tab.evaluate(`new Promise((resolve) => {
        const worker = new Worker(URL.createObjectURL(new Blob([${JSON.stringify(BASELINE_WORKER)}], { type: 'text/javascript' })));
        worker.onmessage = (e) => { worker.terminate(); resolve(e.data); };
        worker.postMessage(document.getElementById('bench-baseline').files[0]);
      })`)) as { lines: number };
      return r.lines > 0;
    });
  });
  log('page: the app…');
  const ours = await withBrowser(async (context, profile) => {
    const tab = context.pages()[0] ?? (await context.newPage());
    await tab.goto(url);
    await tab.waitForSelector('[data-testid="file-input"]', { state: 'attached' });
    await tab.waitForTimeout(1000);
    return sampled(profile, async () => {
      await tab.getByTestId('file-input').setInputFiles(file);
      // Shown: the timeline draws its calls, or the page says what stopped it.
      const shown = await tab.waitForFunction(
        `Number(document.querySelector('[data-testid="timeline"]')?.getAttribute('data-calls') ?? 0) > 0 || !!document.querySelector('[role="alert"]')`,
        undefined,
        { timeout: 900_000, polling: 200 },
      );
      await shown.dispose();
      const calls = await tab.getByTestId('timeline').getAttribute('data-calls');
      await tab.waitForTimeout(1000);
      return Number(calls) > 0;
    });
  });
  await server.close();
  page = { plain, ours };
}

const ratio = (bytes: number): string => `${(bytes / size).toFixed(2)}×`;
const met = (bytes: number): string => (bytes / size <= GOAL ? 'met' : 'missed');
const lines = [
  `${gb(size)} generated session (${file.replace(`${root}/`, '')}); ${cpus().length} × ${cpus()[0]?.model ?? '?'}, load ${loadavg()[0]!.toFixed(1)}`,
  '',
  '| peak memory (× file) | plain parse | compactlab | goal |',
  '|---|---:|---:|---|',
  `| CLI \`inspect\`: peak RSS | ${gb(cliPlain.bytes)} (${ratio(cliPlain.bytes)}, ${cliPlain.seconds.toFixed(1)} s) | ${gb(cliOurs.bytes)} (${ratio(cliOurs.bytes)}, ${cliOurs.seconds.toFixed(1)} s) | ≤ ${GOAL}× (${met(cliOurs.bytes)}) |`,
];
if (page)
  lines.push(
    `| page: browser memory above its start | ${gb(page.plain.aboveBytes)} (${ratio(page.plain.aboveBytes)}, ${page.plain.seconds.toFixed(1)} s) | ${page.ours.ok ? '' : 'not shown: '}${gb(page.ours.aboveBytes)} (${ratio(page.ours.aboveBytes)}, ${page.ours.seconds.toFixed(1)} s) | ≤ ${GOAL}× (${page.ours.ok ? met(page.ours.aboveBytes) : 'missed'}) |`,
  );
process.stdout.write(`${lines.join('\n')}\n`);
