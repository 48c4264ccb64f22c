#!/usr/bin/env node
// Bundles the CLI (`src/cli/main.ts` and the `stats` worker) into `dist/cli/` with esbuild, so
// `compactlab` starts as plain JavaScript instead of compiling TypeScript through tsx at every run
// (about 0.26 s each time). Run by the `prepare` script on `npm install` / `npm ci`.
// Code splitting keeps each command's code in its own chunk: the status line loads only its own.

import { rmSync } from 'node:fs';

let esbuild;
try {
  esbuild = await import('esbuild');
} catch (error) {
  // Never fail an install over it: bin/compactlab.mjs runs the TypeScript through tsx instead.
  process.stderr.write(`compactlab: esbuild unavailable (${error.message}); the CLI will run through tsx\n`);
  process.exit(0);
}

// Chunks are named by content hash: a stale one from an earlier build would stay beside the new.
rmSync('dist/cli', { recursive: true, force: true });
await esbuild.build({
  entryPoints: {
    compactlab: 'src/cli/main.ts',
    'stats-worker': 'src/cli/stats/stats-worker.ts',
    'strategy-worker': 'src/cli/strategy-worker.ts',
  },
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
