#!/usr/bin/env node
// The package's command-line tool. It runs the bundle `npm install` builds (`dist/cli/`, the
// `prepare` script) when that bundle is newer than every source file it was built from; otherwise
// (a fresh clone before `npm install`, or sources edited since) it runs the TypeScript through tsx.
// COMPACTLAB_DEBUG_START=1 says on stderr which one ran. `inspect` runs its own script of that
// bundle, `inspect.cjs`, through V8's code cache (scripts/build-cli.mjs).
//
// CommonJS on purpose: Node starts an ES module entry through its ES module loader, and an ES
// module's `import … from 'node:fs'` builds that module's whole facade, which loads the stream
// modules behind `fs.ReadStream`; together ~10% of a 1 MB `inspect` (docs/benchmarks.md#cli-start).
'use strict';
const { existsSync, readFileSync, statSync } = require('node:fs');
const { basename, dirname, join } = require('node:path');
const { pathToFileURL } = require('node:url');

const root = join(__dirname, '..');
const built = join(root, 'dist', 'cli', 'compactlab.mjs');
const inspectScript = join(root, 'dist', 'cli', 'inspect.cjs');
/** The sources each script of dist/cli was built from, as scripts/build-cli.mjs lists them. */
const sourcesFile = join(root, 'dist', 'cli', 'sources.json');

/**
 * Whether `script` may run: it exists and no source it was built from is newer or gone. A package
 * shipped without its sources (no src/) has only the bundle to run. Only the script's own sources
 * are checked (~100 for inspect, not every file under src/): a file no script imports cannot make
 * one stale, and a new import is an edit of a file that is listed.
 */
function isBuiltFresh(script) {
  if (process.env.COMPACTLAB_FROM_SOURCE === '1' || !existsSync(script)) return false;
  if (!existsSync(join(root, 'src'))) return true;
  let sources;
  try {
    sources = JSON.parse(readFileSync(sourcesFile, 'utf8'))[basename(script)];
  } catch {
    return false; // a build from before the list: rebuild it (`npm run build:cli`)
  }
  if (!Array.isArray(sources)) return false;
  const builtMs = statSync(script).mtimeMs;
  // Concatenated, not path.join: joining ~100 paths was a third of this check at every start.
  return sources.every((path) => {
    const stat = statSync(`${root}/${path}`, { throwIfNoEntry: false });
    return stat !== undefined && stat.mtimeMs <= builtMs;
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
function loadInspectScript(say) {
  const { renameSync, writeFileSync } = require('node:fs');
  const { createRequire } = require('node:module');
  const { Script } = require('node:vm');
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

async function start() {
  const debug = process.env.COMPACTLAB_DEBUG_START === '1';
  const say = (text) => debug && process.stderr.write(`compactlab: ${text}\n`);
  const argv = process.argv.slice(2);
  let main;
  if (argv[0] === 'inspect' && isBuiltFresh(inspectScript)) main = loadInspectScript(say);
  else if (isBuiltFresh(built)) {
    say(`running ${built}`);
    ({ main } = await import(pathToFileURL(built).href));
  } else {
    say('no fresh build in dist/cli, running src/cli/main.ts through tsx');
    const { register } = await import('tsx/esm/api');
    register();
    ({ main } = await import(pathToFileURL(join(root, 'src/cli/main.ts')).href));
  }
  process.exitCode = await main(argv);
}

start();
