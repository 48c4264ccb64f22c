#!/usr/bin/env node
// The page's startup JavaScript against its budget (issue 20): the entry chunk and every chunk it
// imports statically (what the browser must fetch and run before the first render), gzipped, read
// from the build's manifest (`vite build` writes dist/.vite/manifest.json). Dynamic imports (the
// engine's in-process fallback, the summarizers, Monaco, sql.js) and the workers' own bundles are
// not counted: they load when used, off the first render's path. `npm test` runs it after the build.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** Ours (issue 20's goal): the entry was 174 kB gzipped before the engine grew into it. */
export const ENTRY_BUDGET_BYTES = 250 * 1000;

/**
 * The entry's static closure in `dist` and its gzipped size (zlib's default level, as servers
 * compress): one row per chunk, the entry first.
 */
export function measureEntry(dist) {
  const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
  const entries = Object.keys(manifest).filter((k) => manifest[k].isEntry);
  if (entries.length !== 1) throw new Error(`expected one entry in the manifest, found ${entries.length}`);
  const seen = new Set();
  const chunks = [];
  const visit = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`the manifest names ${key} but has no such chunk`);
    const bytes = readFileSync(join(dist, chunk.file));
    chunks.push({ file: chunk.file, bytes: bytes.length, gzipBytes: gzipSync(bytes).length });
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(entries[0]);
  return { chunks, gzipBytes: chunks.reduce((s, c) => s + c.gzipBytes, 0) };
}

const kB = (n) => `${(n / 1000).toFixed(1)} kB`;

if (import.meta.url === `file://${process.argv[1]}`) {
  const dist = process.argv[2] ?? 'dist';
  const { chunks, gzipBytes } = measureEntry(dist);
  for (const c of chunks)
    console.log(`${c.file.padEnd(40)} ${kB(c.bytes).padStart(10)}  gzip ${kB(c.gzipBytes).padStart(9)}`);
  const verdict = gzipBytes <= ENTRY_BUDGET_BYTES ? 'within' : 'OVER';
  console.log(
    `startup JavaScript: ${kB(gzipBytes)} gzipped, ${verdict} the budget of ${kB(ENTRY_BUDGET_BYTES)}`,
  );
  process.exit(gzipBytes <= ENTRY_BUDGET_BYTES ? 0 : 1);
}
