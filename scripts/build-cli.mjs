#!/usr/bin/env node
// Bundles the CLI (`src/cli/main.ts` and the `stats` worker) into `dist/cli/` with esbuild, so
// `compactlab` starts as plain JavaScript instead of compiling TypeScript through tsx at every run
// (about 0.26 s each time). Run by the `prepare` script on `npm install` / `npm ci`.
// Code splitting keeps each command's code in its own chunk: the status line loads only its own.
// A CommonJS build of the same commands is run through V8's code cache (below).

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

// The commands again as one CommonJS file, which bin/compactlab.mjs runs through V8's code cache
// (`vm.Script` cachedData, kept beside it): a command then starts without compiling the functions
// it ran before, about 15 ms of a 1 MB `inspect` (docs/benchmarks.md). Node 20 has no code cache
// for ES modules. `import.meta.url` is the ES build's entry, so `stats` finds its worker there.
await esbuild.build({
  entryPoints: { compactlab: 'src/cli/main.ts' },
  outdir: 'dist/cli',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  define: { 'import.meta.url': '__compactlabEsmUrl' },
  // `import()` of a package (sql.js, the Anthropic SDK) as `require`: a script run from the code
  // cache has no dynamic-import callback (and Node 20's is experimental).
  supported: { 'dynamic-import': false },
  banner: {
    js: "const __compactlabEsmUrl = require('node:url').pathToFileURL(require('node:path').join(__dirname, 'compactlab.mjs')).href;",
  },
  logLevel: 'warning',
});
