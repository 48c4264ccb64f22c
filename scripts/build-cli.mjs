#!/usr/bin/env node
// Bundles the CLI (`src/cli/main.ts` and the `stats` worker) into `dist/cli/` with esbuild, so
// `compactlab` starts as plain JavaScript instead of compiling TypeScript through tsx at every run
// (about 0.26 s each time). Run by the `prepare` script on `npm install` / `npm ci`.
// Code splitting keeps each command's code in its own chunk: the status line loads only its own.
import { build } from 'esbuild';

await build({
  entryPoints: { compactlab: 'src/cli/main.ts', 'stats-worker': 'src/cli/stats/stats-worker.ts' },
  outdir: 'dist/cli',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
});
