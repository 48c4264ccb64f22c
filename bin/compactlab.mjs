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
 * The name of the code cache for this Node and these flags, `inspect.cjs.<key>.cache`: V8 refuses
 * a cache taken under another version or any other flag (`NODE_OPTIONS=--max-old-space-size=…`
 * too), so each keeps its own. The key is an FNV-1a hash of what V8 checks.
 */
function codeCacheFile() {
  const text = `${process.version} ${process.arch} ${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return `${inspectScript}.${(hash >>> 0).toString(16).padStart(8, '0')}.cache`;
}

/**
 * The `main` of dist/cli/inspect.cjs, compiled with its code cache when that cache is newer than
 * the script (V8 checks its own version, flags and the source's length, not the source's text).
 * Without one, the cache is written after a run that succeeds (the build's run on the bundled
 * sample writes the first; COMPACTLAB_WRITE_CODE_CACHE=1 writes it whatever there was); a cache
 * V8 refused is left as it is, so runs under flags the key cannot see never rewrite it in turn.
 */
async function loadInspectScript(say) {
  const [{ readFileSync, renameSync, writeFileSync }, { createRequire }, { Script }] = await Promise.all([
    import('node:fs'),
    import('node:module'),
    import('node:vm'),
  ]);
  const cacheFile = codeCacheFile();
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
  const force = process.env.COMPACTLAB_WRITE_CODE_CACHE === '1';
  if (cachedData !== undefined && !force) return module.exports.main;
  return async (argv) => {
    const code = await module.exports.main(argv);
    if (code !== 0 && !force) return code;
    try {
      const temporary = `${cacheFile}.${process.pid}.tmp`;
      writeFileSync(temporary, script.createCachedData());
      renameSync(temporary, cacheFile);
      say(`wrote ${cacheFile}`);
    } catch (error) {
      // A folder this user cannot write (a package installed by another): no cache, same output.
      say(`no code cache written: ${error.message}`);
    }
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
