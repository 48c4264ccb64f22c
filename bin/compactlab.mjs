#!/usr/bin/env node
// The package's command-line tool. It runs the bundle `npm install` builds (`dist/cli/`, the
// `prepare` script) when that bundle is newer than every source file it was built from; otherwise
// (a fresh clone before `npm install`, or sources edited since) it runs the TypeScript through tsx.
// COMPACTLAB_DEBUG_START=1 says on stderr which one ran.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'dist', 'cli', 'compactlab.mjs');

/** Newest modification time (ms) of the `.ts` files under `dir`. */
function newestSourceMs(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    // Concatenated, not path.join: joining ~150 names was half this check's cost at every start.
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) newest = Math.max(newest, newestSourceMs(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** The bundle is used only when it exists and no source under src/cli or src/engine is newer. */
function isBuiltFresh() {
  if (process.env.COMPACTLAB_FROM_SOURCE === '1' || !existsSync(built)) return false;
  const builtMs = statSync(built).mtimeMs;
  // A package shipped without its sources has only the bundle to run.
  return ['cli', 'engine'].every((dir) => {
    const path = join(root, 'src', dir);
    return !existsSync(path) || newestSourceMs(path) <= builtMs;
  });
}

const debug = process.env.COMPACTLAB_DEBUG_START === '1';
let main;
if (isBuiltFresh()) {
  if (debug) process.stderr.write(`compactlab: running ${built}\n`);
  ({ main } = await import(pathToFileURL(built).href));
} else {
  if (debug)
    process.stderr.write('compactlab: no fresh build in dist/cli, running src/cli/main.ts through tsx\n');
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
process.exitCode = await main(process.argv.slice(2));
