#!/usr/bin/env node
// Bundles the CLI (`src/cli/main.ts` and the `stats` worker) into `dist/cli/` with esbuild, so
// `compactlab` starts as plain JavaScript instead of compiling TypeScript through tsx at every run
// (about 0.26 s each time). Run by the `prepare` script on `npm install` / `npm ci`.
// Code splitting keeps each command's code in its own chunk: the status line loads only its own.
// `inspect` also gets a script of its own, `dist/cli/inspect.cjs` (src/cli/inspect-main.ts), that
// the bin runs through V8's code cache, `inspect.cjs.cache`: taken here after an inspect of the
// bundled sample session has run, it holds the parse's functions compiled, not only the script's
// top level (Node 20 caches no ES module, and a cache taken before the run holds little). A Node
// or flags V8 refuses that cache for get their own, written after their first inspect.

import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

let esbuild;
try {
  esbuild = await import('esbuild');
} catch (error) {
  // Never fail an install over it: bin/compactlab.cjs runs the TypeScript through tsx instead.
  process.stderr.write(`compactlab: esbuild unavailable (${error.message}); the CLI will run through tsx\n`);
  process.exit(0);
}

// Chunks are named by content hash: a stale one from an earlier build would stay beside the new.
rmSync('dist/cli', { recursive: true, force: true });
const main = await esbuild.build({
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
  metafile: true,
});

// One CommonJS script, no chunks: V8's code cache is per script. Its `import()` of a package
// (sql.js, for an OpenCode database) becomes a `require`: Node 20 loses a script's dynamic import
// callback when the script comes from a code cache ("A dynamic import callback was not specified").
const inspect = await esbuild.build({
  entryPoints: { inspect: 'src/cli/inspect-main.ts' },
  outdir: 'dist/cli',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  supported: { 'dynamic-import': false },
  packages: 'external',
  logLevel: 'warning',
  metafile: true,
});

// The sources each entry script was built from (the bin's freshness check: a script runs only when
// none of them is newer than it). The ES module bundle's chunks are built together: one list.
const sourcesOf = (build) =>
  Object.keys(build.metafile.inputs)
    .filter((path) => path.startsWith('src/'))
    .sort();
writeFileSync(
  'dist/cli/sources.json',
  `${JSON.stringify({ 'compactlab.mjs': sourcesOf(main), 'inspect.cjs': sourcesOf(inspect) })}\n`,
);

// The cache, written by the bin itself after inspecting the sample (the script is wrapped and
// compiled exactly as it will be at every run). Without the sample (a package shipped without
// public/) or with a cache V8 refuses, the script compiles as any script does.
const samples = 'public/samples';
const sample = existsSync(`${samples}/index.json`)
  ? `${samples}/${JSON.parse(readFileSync(`${samples}/index.json`, 'utf8')).files[0].path}`
  : undefined;
if (sample && existsSync(sample)) {
  const run = spawnSync(process.execPath, ['bin/compactlab.cjs', 'inspect', sample], {
    env: { ...process.env, COMPACTLAB_WRITE_CODE_CACHE: '1', COMPACTLAB_FROM_SOURCE: undefined },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (run.status !== 0 || !readdirSync('dist/cli').some((name) => /^inspect\.cjs\.\w+\.cache$/.test(name)))
    process.stderr.write(
      'compactlab: no code cache for inspect (the sample did not run); it starts without one\n',
    );
}
