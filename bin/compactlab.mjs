#!/usr/bin/env node
// The package's command-line tool. It runs the bundle `npm install` builds (`dist/cli/`, the
// `prepare` script) when that bundle is newer than every source file it was built from; otherwise
// (a fresh clone before `npm install`, or sources edited since) it runs the TypeScript through tsx.
// COMPACTLAB_DEBUG_START=1 says on stderr which one ran. `inspect` runs its own script of that
// bundle, `inspect.cjs`, through V8's code cache (scripts/build-cli.mjs).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'dist', 'cli', 'compactlab.mjs');
const inspectScript = join(root, 'dist', 'cli', 'inspect.cjs');

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
 * The `main` of dist/cli/inspect.cjs, compiled with the code cache beside it when that cache is
 * newer than the script (V8 checks its own version, flags and the source's length, not the
 * source's text). COMPACTLAB_WRITE_CODE_CACHE=1 (the build's) writes the cache after the run.
 */
async function loadInspectScript(say) {
  const [{ readFileSync, renameSync, writeFileSync }, { createRequire }, { Script }] = await Promise.all([
    import('node:fs'),
    import('node:module'),
    import('node:vm'),
  ]);
  const cacheFile = `${inspectScript}.cache`;
  const cacheMs = statSync(cacheFile, { throwIfNoEntry: false })?.mtimeMs;
  const cachedData =
    cacheMs !== undefined && cacheMs >= statSync(inspectScript).mtimeMs ? readFileSync(cacheFile) : undefined;
  const source = readFileSync(inspectScript, 'utf8');
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: inspectScript,
    cachedData,
  });
  say(
    `running ${inspectScript} (code cache ${cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'used'})`,
  );
  const module = { exports: {} };
  script.runInThisContext()(
    module.exports,
    createRequire(inspectScript),
    module,
    inspectScript,
    dirname(inspectScript),
  );
  if (process.env.COMPACTLAB_WRITE_CODE_CACHE !== '1') return module.exports.main;
  return async (argv) => {
    const code = await module.exports.main(argv);
    writeFileSync(`${cacheFile}.tmp`, script.createCachedData());
    renameSync(`${cacheFile}.tmp`, cacheFile);
    return code;
  };
}

const debug = process.env.COMPACTLAB_DEBUG_START === '1';
const say = (text) => debug && process.stderr.write(`compactlab: ${text}\n`);
const argv = process.argv.slice(2);
let main;
if (isBuiltFresh()) {
  if (argv[0] === 'inspect' && existsSync(inspectScript)) main = await loadInspectScript(say);
  else {
    say(`running ${built}`);
    ({ main } = await import(pathToFileURL(built).href));
  }
} else {
  say('no fresh build in dist/cli, running src/cli/main.ts through tsx');
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
process.exitCode = await main(argv);
