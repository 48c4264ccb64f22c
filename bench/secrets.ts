// `node bin/run-ts.mjs bench/secrets.ts`: the Secrets scan on the generated ~100 MB session
// (bench-file.ts). Every string of every record (as the scan visits them, key names of 8+
// characters too) is collected once, then `findSecretsInText` runs over all of them, best of 3,
// with the two parts that run on every string apart: gitleaks' rules (keyword pass, then the
// rules whose keyword a string holds) and the entropy rule. Not part of `npm run bench`.

import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { findHighEntropySecrets } from '../src/engine/redact/entropy-secrets';
import { findSecretsInText } from '../src/engine/redact/find-secrets';
import { findProviderSecrets } from '../src/engine/redact/gitleaks-rules';
import { ensureBenchFile } from './bench-file';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const root = resolve(import.meta.dirname, '..');
const log = (text: string): void => {
  process.stderr.write(`${text}\n`);
};

const file = await ensureBenchFile(join(root, '.bench'), log);
const strings: string[] = [];
const visit = (value: unknown): void => {
  if (typeof value === 'string') strings.push(value);
  else if (Array.isArray(value)) for (const v of value) visit(v);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k.length >= 8) strings.push(k);
      visit(v);
    }
  }
};
for (const line of readFileSync(file, 'utf8').split('\n')) if (line) visit(JSON.parse(line));
const chars = strings.reduce((n, s) => n + s.length, 0);
log(`${strings.length.toLocaleString('en-US')} strings, ${(chars / 1e6).toFixed(1)} M characters`);

function best(label: string, run: (s: string) => unknown): number {
  let min = Number.POSITIVE_INFINITY;
  let found = 0;
  for (let r = 0; r < RUNS; r++) {
    const t = performance.now();
    found = 0;
    for (const s of strings) found += (run(s) as unknown[]).length;
    min = Math.min(min, performance.now() - t);
  }
  log(`${label.padEnd(34)} ${(min / 1000).toFixed(2)} s  (${found.toLocaleString('en-US')} found)`);
  return min;
}

best('findSecretsInText (all)', findSecretsInText);
best('  gitleaks rules (with keyword pass)', findProviderSecrets);
best('  entropy rule', findHighEntropySecrets);
