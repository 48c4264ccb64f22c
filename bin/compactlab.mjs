#!/usr/bin/env node
// The package's command-line tool. It runs the bundle `npm install` builds (`dist/cli/`, the
// `prepare` script; its CommonJS file through V8's code cache, else its ES modules) when that
// bundle is newer than every source file it was built from; otherwise
// (a fresh clone before `npm install`, or sources edited since) it runs the TypeScript through tsx.
// COMPACTLAB_DEBUG_START=1 says on stderr which one ran.
import { existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import vm from 'node:vm';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'dist', 'cli', 'compactlab.mjs');
const builtCjs = join(root, 'dist', 'cli', 'compactlab.cjs');

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

/**
 * The CommonJS build of the commands, compiled with the V8 code cache kept beside it: the
 * functions a command ran before start compiled. The cache is written after a run when there was
 * none or V8 refused it (another Node version); a folder that cannot be written only costs speed.
 */
function loadWithCodeCache(path) {
  const cachePath = `${path}.cache`;
  let cachedData;
  try {
    cachedData = readFileSync(cachePath);
  } catch {
    // None yet: written after this run.
  }
  const script = new vm.Script(Module.wrap(readFileSync(path, 'utf8')), {
    filename: path,
    cachedData,
  });
  const module = { exports: {} };
  script
    .runInThisContext()
    .call(module.exports, module.exports, createRequire(path), module, path, dirname(path));
  const saveCache = () => {
    if (cachedData && !script.cachedDataRejected) return;
    try {
      const tmp = `${cachePath}.${process.pid}.tmp`;
      writeFileSync(tmp, script.createCachedData());
      renameSync(tmp, cachePath);
    } catch {
      // A read-only install: the next run compiles again.
    }
  };
  return { main: module.exports.main, saveCache };
}

const debug = process.env.COMPACTLAB_DEBUG_START === '1';
let main;
let saveCache = () => {};
if (isBuiltFresh()) {
  if (debug) process.stderr.write(`compactlab: running ${existsSync(builtCjs) ? builtCjs : built}\n`);
  if (existsSync(builtCjs)) ({ main, saveCache } = loadWithCodeCache(builtCjs));
  else ({ main } = await import(pathToFileURL(built).href));
} else {
  if (debug)
    process.stderr.write('compactlab: no fresh build in dist/cli, running src/cli/main.ts through tsx\n');
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
process.exitCode = await main(process.argv.slice(2));
saveCache();
