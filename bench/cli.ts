// `npm run bench` (last step): start-up and speed of the `compactlab` command as users run it.
//   (a) `compactlab inspect` on a 1 MB transcript: wall time (goal < 150 ms);
//   (b) `compactlab inspect` on the ~100 MB bench file against a plain script that reads the
//       file, splits lines and JSON.parses each, both as fresh processes (goal ≤ 1.3×);
//   (c) `compactlab statusline`, second call on a 10 MB transcript (cache filled by the first),
//       against `node -e 0`, the floor of any Node command (goal ≤ 3×).
// Wall times are the best of several runs (the least disturbed by other load). The bundle in
// dist/cli is rebuilt first, so the command measured is the one `npm install` leaves.

import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { ensureBenchFile } from './bench-file';

const INSPECT_1MB_GOAL_MS = 150;
const INSPECT_100MB_GOAL = 1.3;
const STATUSLINE_GOAL = 3;

const root = resolve(import.meta.dirname, '..');
const bin = join(root, 'bin/compactlab.cjs');
const log = (text: string): void => {
  process.stderr.write(`${text}\n`);
};

/** The first whole lines of `from` up to about `bytes`, written to `to` (reused when present). */
function writeHead(from: string, to: string, bytes: number): string {
  if (existsSync(to) && Math.abs(statSync(to).size - bytes) < bytes * 0.1) return to;
  const fd = openSync(from, 'r');
  const buffer = Buffer.alloc(bytes);
  const n = readSync(fd, buffer, 0, bytes, 0);
  closeSync(fd);
  const end = buffer.subarray(0, n).lastIndexOf(0x0a);
  writeFileSync(to, buffer.subarray(0, end + 1));
  return to;
}

/** Best wall time (ms) of `runs` fresh processes; a failed run aborts with its stderr. */
function bestMs(
  label: string,
  args: string[],
  runs: number,
  options: { input?: string; env?: NodeJS.ProcessEnv } = {},
): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const r = spawnSync(process.execPath, args, {
      input: options.input,
      env: { ...process.env, ...options.env },
      stdio: ['pipe', 'ignore', 'pipe'],
      maxBuffer: 1 << 26,
    });
    const ms = performance.now() - started;
    if (r.status !== 0)
      throw new Error(`${label} failed (${r.status}): ${r.stderr.toString().slice(0, 300)}`);
    best = Math.min(best, ms);
  }
  log(`${label}: best of ${runs} ${best.toFixed(0)} ms`);
  return best;
}

const PLAIN_SCRIPT = `const t=require('fs').readFileSync(process.argv[1],'utf8');let n=0;for(const l of t.split('\\n')){if(l){JSON.parse(l);n++}}`;

log('building dist/cli (npm run build:cli)');
const build = spawnSync(process.execPath, [join(root, 'scripts/build-cli.mjs')], {
  stdio: 'inherit',
  cwd: root,
});
if (build.status !== 0) process.exit(1);
const check = spawnSync(process.execPath, [bin, '--help'], {
  env: { ...process.env, COMPACTLAB_DEBUG_START: '1' },
  encoding: 'utf8',
});
if (!/running .*dist/.test(check.stderr)) {
  log(`bin/compactlab.cjs does not run the bundle: ${check.stderr}`);
  process.exit(1);
}

const benchDir = join(root, '.bench');
const big = await ensureBenchFile(benchDir, log);
const small = writeHead(big, join(benchDir, 'session-1mb.jsonl'), 1 << 20);
const medium = writeHead(big, join(benchDir, 'session-10mb.jsonl'), 10 << 20);
const mbOf = (path: string) => `${(statSync(path).size / 1e6).toFixed(1)} MB`;

const inspectSmall = bestMs('inspect 1 MB', [bin, 'inspect', small], 7);
const plainSmall = bestMs('plain read+split+parse 1 MB', ['-e', PLAIN_SCRIPT, small], 7);
const inspectBig = bestMs(`inspect ${mbOf(big)}`, [bin, 'inspect', big], 3);
const plainBig = bestMs(`plain read+split+parse ${mbOf(big)}`, ['-e', PLAIN_SCRIPT, big], 3);

const cacheDir = mkdtempSync(join(os.tmpdir(), 'compactlab-bench-statusline-'));
const payload = JSON.stringify({
  session_id: 'bench',
  transcript_path: medium,
  model: { id: 'claude-sonnet-4-5', display_name: 'Sonnet' },
  version: '2.1.19',
});
const env = { COMPACTLAB_CACHE_DIR: cacheDir };
const statuslineFirst = bestMs(`statusline ${mbOf(medium)}, first call`, [bin, 'statusline'], 1, {
  input: payload,
  env,
});
const statuslineSecond = bestMs(`statusline ${mbOf(medium)}, second call`, [bin, 'statusline'], 7, {
  input: payload,
  env,
});
const nodeFloor = bestMs('node -e 0', ['-e', '0'], 7);

const cpu = os.cpus()[0]?.model.trim() ?? 'unknown CPU';
const load = os.loadavg()[0]!.toFixed(1);
const ms = (x: number) => `${x.toFixed(0)} ms`;
const goal = (ok: boolean) => (ok ? '(met)' : '(missed)');
const lines = [
  '',
  `Machine: ${cpu}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Node ${process.version}, ${os.platform()} ${os.arch()}; load average ${load} when it ended`,
  '',
  '| command (fresh process, best wall time) | compactlab | reference | ratio | goal |',
  '|---|---|---|---|---|',
  `| \`compactlab inspect\`, ${mbOf(small)} | ${ms(inspectSmall)} | plain script ${ms(plainSmall)} | ${(inspectSmall / plainSmall).toFixed(2)} | < ${INSPECT_1MB_GOAL_MS} ms ${goal(inspectSmall < INSPECT_1MB_GOAL_MS)} |`,
  `| \`compactlab inspect\`, ${mbOf(big)} | ${ms(inspectBig)} | plain script ${ms(plainBig)} | ${(inspectBig / plainBig).toFixed(2)} | ≤ ${INSPECT_100MB_GOAL}× ${goal(inspectBig / plainBig <= INSPECT_100MB_GOAL)} |`,
  `| \`compactlab statusline\`, ${mbOf(medium)}, first call | ${ms(statuslineFirst)} | \`node -e 0\` ${ms(nodeFloor)} | ${(statuslineFirst / nodeFloor).toFixed(2)} | |`,
  `| \`compactlab statusline\`, ${mbOf(medium)}, second call | ${ms(statuslineSecond)} | \`node -e 0\` ${ms(nodeFloor)} | ${(statuslineSecond / nodeFloor).toFixed(2)} | ≤ ${STATUSLINE_GOAL}× ${goal(statuslineSecond / nodeFloor <= STATUSLINE_GOAL)} |`,
];
process.stdout.write(`${lines.join('\n')}\n`);
