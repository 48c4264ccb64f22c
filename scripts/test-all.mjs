#!/usr/bin/env node
// The whole test suite, as CI and developers run it (`npm test`): typecheck, lint, unit/golden/
// corpus tests (vitest project `unit`), the naive-reference checks on the big generated sessions
// (vitest project `reference`), then a production build and the Playwright e2e tests in Chromium
// (two at a time; the timing budgets are `npm run bench`'s). After the build, `entry-size` holds the
// page's startup JavaScript to its budget (scripts/entry-size.mjs). `npm test -- unit e2e` runs just those
// stages. Prints each stage's time and one closing line with the totals:
// "tests: N passed, N failed, N skipped".
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

// Not `test-results/`: Playwright empties its output folder when it starts.
const OUT = '.test-reports';
mkdirSync(OUT, { recursive: true });
const VITEST_JSON = `${OUT}/vitest.json`;
const REFERENCE_JSON = `${OUT}/vitest-reference.json`;
const PLAYWRIGHT_JSON = `${OUT}/playwright.json`;
for (const report of [VITEST_JSON, REFERENCE_JSON, PLAYWRIGHT_JSON]) rmSync(report, { force: true });

const only = process.argv.slice(2); // e.g. `npm test -- unit` runs just that stage
const stages = [
  ['typecheck', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']],
  ['typecheck-engine', 'npx', ['tsc', '--noEmit', '-p', 'src/engine/tsconfig.json']],
  ['lint', 'npx', ['biome', 'check', '--error-on-warnings', '.']],
  [
    'unit',
    'npx',
    [
      'vitest',
      'run',
      '--project=unit',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${VITEST_JSON}`,
    ],
  ],
  [
    'reference',
    'npx',
    [
      'vitest',
      'run',
      '--project=reference',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${REFERENCE_JSON}`,
    ],
  ],
  ['build', 'npx', ['vite', 'build']],
  // The page's startup JavaScript (entry + static imports, gzipped) against its budget (issue 20).
  ['entry-size', 'node', ['scripts/entry-size.mjs', 'dist']],
  [
    'e2e',
    'npx',
    ['playwright', 'test', '--reporter=list,json'],
    { PLAYWRIGHT_JSON_OUTPUT_NAME: PLAYWRIGHT_JSON },
  ],
];

/** The e2e tests drive Debian's Chromium; on a fresh machine (root, apt) install it first. */
function ensureChromium() {
  const paths = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  if (paths.some((p) => p && existsSync(p))) return true;
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) {
    console.log('e2e needs Chromium: install it (Debian: apt-get install -y chromium) or set CHROMIUM_PATH');
    return false;
  }
  console.log('=== installing Debian chromium for the e2e tests (apt-get install -y chromium)');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  return spawnSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env }).status === 0;
}

const failedStages = [];
const times = [];
const suiteStarted = Date.now();
for (const [name, cmd, args, env] of stages) {
  if (only.length && !only.includes(name)) continue;
  if (name === 'e2e' && !ensureChromium()) {
    failedStages.push(name);
    continue;
  }
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
  const started = Date.now();
  const result = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    failedStages.push(name);
    console.log(`=== ${name}: FAILED (exit ${result.status}, ${seconds} s)`);
    // A broken build makes the e2e stage meaningless; later independent stages still run.
    if (name === 'build') break;
  } else console.log(`=== ${name}: ok (${seconds} s)`);
  times.push(`${name} ${seconds} s`);
}
console.log(`\nstage times: ${times.join(', ')}; total ${((Date.now() - suiteStarted) / 1000).toFixed(1)} s`);

let passed = 0;
let failed = 0;
let skipped = 0;
// Each failed test by name, with the first lines of its reason, repeated at the end: a CI log is
// often kept only in part (its tail), and the failure must be readable there.
const failures = [];
const firstLines = (text) =>
  String(text ?? '')
    .replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '')
    .split('\n')
    .slice(0, 4)
    .join(' | ');
for (const report of [VITEST_JSON, REFERENCE_JSON]) {
  if (!existsSync(report)) continue;
  const v = JSON.parse(readFileSync(report, 'utf8'));
  passed += v.numPassedTests;
  failed += v.numFailedTests;
  skipped += v.numPendingTests + v.numTodoTests;
  for (const file of v.testResults ?? []) {
    for (const t of file.assertionResults ?? []) {
      if (t.status === 'failed')
        failures.push(
          `${file.name.replace(`${process.cwd()}/`, '')} › ${t.fullName}: ${firstLines(t.failureMessages?.[0])}`,
        );
    }
    if (file.status === 'failed' && !(file.assertionResults ?? []).some((t) => t.status === 'failed'))
      failures.push(`${file.name.replace(`${process.cwd()}/`, '')}: ${firstLines(file.message)}`);
  }
}
if (existsSync(PLAYWRIGHT_JSON)) {
  const report = JSON.parse(readFileSync(PLAYWRIGHT_JSON, 'utf8'));
  const s = report.stats;
  passed += s.expected + s.flaky;
  failed += s.unexpected;
  skipped += s.skipped;
  const walk = (suite, path) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        if (t.status !== 'unexpected') continue;
        const error = t.results?.at(-1)?.error?.message;
        failures.push(
          `${spec.file}:${spec.line} › ${[...path, spec.title].join(' › ')}: ${firstLines(error)}`,
        );
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...path, child.title].filter(Boolean));
  };
  for (const suite of report.suites ?? []) walk(suite, []);
}
if (failures.length) console.log(`\nfailed tests:\n${failures.map((f) => `  ✗ ${f}`).join('\n')}`);
// A stage that failed without failing a test (typecheck, lint, build) still fails the run.
failed += failedStages.filter((s) => !['unit', 'reference', 'e2e'].includes(s)).length;
if (failedStages.length) console.log(`\nfailed stages: ${failedStages.join(', ')}`);
console.log(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failedStages.length ? 1 : 0);
