#!/usr/bin/env node
// Restores the real logs named in tests/real-logs/manifest.json (other people's public sessions:
// pointers only, never committed) into `.real-logs/<owner>__<repo>/<path>`, the layout of
// ../shared/corpus/foreign/. Each log is read from a local git snapshot of its repository
// (`--mirrors DIR`, default /work/.mirror, one `<owner>+<repo>/repo` git directory each, as the
// search tool's `fetch` leaves them) at the manifest's blob, and checked against its size.
// Prints the repositories it could not find, so they can be fetched first.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const args = process.argv.slice(2);
const mirrors = args.includes('--mirrors') ? args[args.indexOf('--mirrors') + 1] : '/work/.mirror';
const outDir = args.includes('--out') ? args[args.indexOf('--out') + 1] : '.real-logs';
const manifest = JSON.parse(readFileSync('tests/real-logs/manifest.json', 'utf8'));

let restored = 0;
const missing = new Set();
for (const log of manifest) {
  const gitDir = join(mirrors, log.repo.replace('/', '+'), 'repo');
  if (!existsSync(gitDir)) {
    missing.add(log.repo);
    continue;
  }
  const bytes = execFileSync('git', ['--git-dir', gitDir, 'cat-file', 'blob', log.blob], {
    maxBuffer: 1 << 30,
  });
  if (bytes.length !== log.bytes)
    throw new Error(`${log.repo}:${log.path}: ${bytes.length} bytes, manifest says ${log.bytes}`);
  const out = join(outDir, log.repo.replace('/', '__'), log.path);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, bytes);
  restored++;
}
console.log(`restored ${restored} of ${manifest.length} real logs into ${outDir}/`);
if (missing.size) console.log(`fetch these repositories first (github:<repo>): ${[...missing].join(', ')}`);
