// The session library's scan against the plain baseline, on a generated folder of real-shaped
// Claude Code sessions (main transcripts with their subagent folders):
//   node bin/run-ts.mjs bench/library.ts [sizeMB, default 1024]
// (a) baseline: read each file, split lines, JSON.parse every line
// (b) scan: `scanSession` per session (engine/library/scan-session.ts)
// Both in a pool of worker_threads sized as the page sizes its pool; best of 3, interleaved.
// Goal (the library issue): the scan at ≥ 1.5× the baseline's throughput.

import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { groupSessionFiles } from '../src/engine/library/group-files';
import { GENERATOR_VERSION, generateSession } from '../sample/generate-session';
import type { BenchJob } from './library-worker';

const GOAL = 1.5;
const RUNS = 3;
/** Distinct generated sessions; the folder repeats them (as copies) up to the wanted size. */
const DISTINCT = 6;
const MAX_WORKERS = 8;

const root = resolve(import.meta.dirname, '..');
const log = (text: string): void => {
  process.stderr.write(`${text}\n`);
};
const targetMb = Number(process.argv[2] ?? 1024);
const dir = join(root, '.bench', `library-${targetMb}mb-v${GENERATOR_VERSION}`);

function walk(folder: string, base = ''): { path: string; sizeBytes: number; modifiedMs: number }[] {
  const out: { path: string; sizeBytes: number; modifiedMs: number }[] = [];
  for (const e of readdirSync(join(folder, base), { withFileTypes: true })) {
    const rel = base ? `${base}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...walk(folder, rel));
    else {
      const s = statSync(join(folder, rel));
      out.push({ path: rel, sizeBytes: s.size, modifiedMs: s.mtimeMs });
    }
  }
  return out;
}

function ensureFolder(): void {
  const done = join(dir, '.complete');
  if (existsSync(done)) {
    log(`reusing ${dir}`);
    return;
  }
  log(`generating ${DISTINCT} sessions for ${dir}…`);
  const seeds: { sessionId: string; files: { name: string; text: string }[] }[] = [];
  for (let i = 0; i < DISTINCT; i++) {
    seeds.push(
      generateSession({
        seed: 500 + i,
        apiCalls: 300 + 250 * i,
        features: { specials: true, microcompact: i % 2 === 0, manualCompact: i % 3 === 0 },
      }),
    );
  }
  const seedDir = join(dir, '.seeds');
  for (const [i, s] of seeds.entries()) {
    for (const f of s.files) {
      const path = join(seedDir, String(i), f.name);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, f.text);
    }
  }
  let written = 0;
  for (let copy = 0; written < targetMb * 1e6; copy++) {
    const i = copy % DISTINCT;
    const s = seeds[i];
    if (!s) throw new RangeError(`no seed ${i}`);
    const project = join(dir, 'projects', `-home-dev-project-${copy % 17}`);
    for (const f of s.files) {
      const name = f.name.replaceAll(
        s.sessionId,
        `${s.sessionId.slice(0, 24)}${String(copy).padStart(12, '0')}`,
      );
      const path = join(project, name);
      mkdirSync(dirname(path), { recursive: true });
      copyFileSync(join(seedDir, String(i), f.name), path);
      written += Buffer.byteLength(f.text);
    }
  }
  writeFileSync(done, '');
}

/** Workers run TypeScript as this script does: tsx registered first, then the worker module. */
function startPool(size: number): Worker[] {
  const tsx = import.meta.resolve('tsx/esm/api');
  const worker = new URL('./library-worker.ts', import.meta.url).href;
  const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(worker)}); });`;
  return Array.from({ length: size }, () => new Worker(boot, { eval: true }));
}

async function runPool(pool: Worker[], jobs: BenchJob[]): Promise<{ ms: number; records: number }> {
  const queue = [...jobs];
  let records = 0;
  const start = performance.now();
  await Promise.all(
    pool.map(
      (w) =>
        new Promise<void>((done, fail) => {
          const next = () => {
            const job = queue.shift();
            if (!job) return done();
            w.once('message', (m: { records: number }) => {
              records += m.records;
              next();
            });
            w.postMessage(job);
          };
          w.once('error', fail);
          next();
        }),
    ),
  );
  return { ms: performance.now() - start, records };
}

ensureFolder();
const projects = join(dir, 'projects');
const files = walk(projects);
const groups = groupSessionFiles(files);
const bytes = files.reduce((s, f) => s + f.sizeBytes, 0);
const size = Math.max(1, Math.min(MAX_WORKERS, os.availableParallelism() - 1));
// A 2-core machine still gets 2 workers: the bench has no page to keep responsive.
const workers = Math.max(size, Math.min(2, os.availableParallelism()));
log(`${groups.length} sessions, ${files.length} files, ${(bytes / 1e6).toFixed(0)} MB, ${workers} workers`);
const pool = startPool(workers);
const jobsOf = (mode: BenchJob['mode']): BenchJob[] =>
  groups.map((g) => ({ mode, paths: g.files.map((f) => join(projects, f.path)) }));
const best = { baseline: Number.POSITIVE_INFINITY, scan: Number.POSITIVE_INFINITY };
for (let run = 0; run < RUNS; run++) {
  for (const mode of ['baseline', 'scan'] as const) {
    const r = await runPool(pool, jobsOf(mode));
    best[mode] = Math.min(best[mode], r.ms);
    log(
      `run ${run + 1} ${mode}: ${(r.ms / 1000).toFixed(2)} s (${r.records.toLocaleString('en-US')} counted)`,
    );
  }
}
for (const w of pool) await w.terminate();
const mbps = (ms: number) => bytes / 1e6 / (ms / 1000);
const ratio = best.baseline / best.scan;
console.log(
  `| ${(bytes / 1e6).toFixed(0)} MB, ${groups.length} sessions, ${workers} workers | time (best of ${RUNS}) | MB/s |`,
);
console.log('| --- | --- | --- |');
console.log(
  `| baseline: read + split + JSON.parse | ${(best.baseline / 1000).toFixed(2)} s | ${mbps(best.baseline).toFixed(0)} |`,
);
console.log(`| library scan | ${(best.scan / 1000).toFixed(2)} s | ${mbps(best.scan).toFixed(0)} |`);
console.log(
  `| scan / baseline throughput | ${ratio.toFixed(2)}× | goal ≥ ${GOAL}× ${ratio >= GOAL ? '✓' : '✗'} |`,
);
