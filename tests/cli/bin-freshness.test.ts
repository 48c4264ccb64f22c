import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';

// bin/compactlab.cjs runs a script of dist/cli only when none of the sources it was built from
// (dist/cli/sources.json, written by scripts/build-cli.mjs) is newer or gone: a source edited since
// the build must never run the stale bundle. Checked on
// a copy of the real bin in a folder of its own, beside a bundle and sources that say which ran
// (the repository's own sources are never touched: other tests run its bundle meanwhile).

const ROOT = join(__dirname, '../..');
const home = mkdtempSync(join(tmpdir(), 'compactlab-freshness-'));
const BUNDLE = join(home, 'dist/cli/compactlab.mjs');
/** `inspect`'s own script (scripts/build-cli.mjs), run through V8's code cache beside it. */
const INSPECT_SCRIPT = join(home, 'dist/cli/inspect.cjs');
/** The code caches beside the script, one for each Node and flags (`inspect.cjs.<key>.cache`). */
const codeCaches = () => readdirSync(join(home, 'dist/cli')).filter((name) => name.endsWith('.cache'));
const NESTED_SOURCE = join(home, 'src/engine/parse/dialects/some-dialect/normalizer.ts');
const NOTES = join(home, 'src/engine/notes.md');
/** A source no script imports (a new file, not yet imported by any). */
const UNUSED_SOURCE = join(home, 'src/engine/unused.ts');
const SOURCES = [join(home, 'src/cli/main.ts'), join(home, 'src/engine/types.ts'), NESTED_SOURCE];
const SOURCES_LIST = join(home, 'dist/cli/sources.json');
/** The list as the build writes it: each script's sources, relative to the package. */
const LISTED = JSON.stringify({
  'compactlab.mjs': SOURCES.map((path) => path.slice(home.length + 1)),
  'inspect.cjs': SOURCES.map((path) => path.slice(home.length + 1)),
});
/** The bundle's time, an hour ago (seconds since the epoch, as utimes takes it). */
const BUILT_S = Date.now() / 1000 - 3600;

function write(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

mkdirSync(join(home, 'bin'));
// As the package's own: its .ts and .mjs files are ES modules.
writeFileSync(join(home, 'package.json'), '{ "type": "module" }\n');
copyFileSync(join(ROOT, 'bin/compactlab.cjs'), join(home, 'bin/compactlab.cjs'));
// The tsx the fallback imports, resolved from the copy's folder.
symlinkSync(join(ROOT, 'node_modules'), join(home, 'node_modules'), 'dir');
// Evaluating the bundle at all says so: a stale one must not even be imported (a check run
// concurrently with the bundle's import, docs/benchmarks.md's command line, evaluates it first).
write(
  BUNDLE,
  "process.stderr.write('bundle evaluated\\n');\nexport async function main(argv) { process.stdout.write(['bundle', ...argv].join(' ') + '\\n'); return 0; }\n",
);
write(
  INSPECT_SCRIPT,
  "process.stderr.write('script evaluated\\n');\nexports.main = async (argv) => { process.stdout.write(['script', ...argv].join(' ') + '\\n'); return 0; };\n",
);
write(
  SOURCES[0]!,
  "export async function main(argv: string[]): Promise<number> { process.stdout.write(['source', ...argv].join(' ') + '\\n'); return 0; }\n",
);
for (const path of [...SOURCES.slice(1), UNUSED_SOURCE]) write(path, 'export {};\n');
write(NOTES, 'not a source\n');

/** Every source a minute before the bundle: a fresh build. */
function setFreshBuild(): void {
  write(SOURCES_LIST, LISTED);
  for (const path of [...SOURCES, NOTES, UNUSED_SOURCE]) utimesSync(path, BUILT_S - 60, BUILT_S - 60);
  utimesSync(BUNDLE, BUILT_S, BUILT_S);
  utimesSync(INSPECT_SCRIPT, BUILT_S, BUILT_S);
  for (const name of codeCaches()) rmSync(join(home, 'dist/cli', name));
}

function run(env: NodeJS.ProcessEnv = {}, args = ['inspect', 'x.jsonl']) {
  const r = spawnSync(process.execPath, [join(home, 'bin/compactlab.cjs'), ...args], {
    encoding: 'utf8',
    env: { ...process.env, COMPACTLAB_DEBUG_START: undefined, COMPACTLAB_FROM_SOURCE: undefined, ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('bin/compactlab.cjs: the bundle runs only when no source is newer', () => {
  beforeEach(setFreshBuild);

  it('a fresh bundle runs, with the arguments: inspect its own script, every other command the bundle', () => {
    expect(run()).toMatchObject({
      code: 0,
      stdout: 'script inspect x.jsonl\n',
      stderr: 'script evaluated\n',
    });
    expect(run({}, ['stats', 'x.jsonl'])).toMatchObject({
      code: 0,
      stdout: 'bundle stats x.jsonl\n',
      stderr: 'bundle evaluated\n',
    });
  });

  it("inspect's code cache: written after a first run, used only when V8 takes it and it is newer than the script", () => {
    const debug = { COMPACTLAB_DEBUG_START: '1' };
    const none = run(debug);
    expect(none.stderr).toContain('inspect.cjs (code cache none)');
    expect(none.stdout).toBe('script inspect x.jsonl\n');
    expect(codeCaches()).toHaveLength(1);
    const cache = join(home, 'dist/cli', codeCaches()[0]!);
    const taken = run(debug);
    expect(taken.stderr).toContain('inspect.cjs (code cache used)');
    expect(taken.stdout).toBe('script inspect x.jsonl\n');
    // A script written after its cache (V8 itself checks only the source's length): not read, and
    // replaced after the run.
    utimesSync(cache, BUILT_S - 1, BUILT_S - 1);
    expect(run(debug).stderr).toContain('inspect.cjs (code cache none)');
    expect(run(debug).stderr).toContain('inspect.cjs (code cache used)');
    // Bytes V8 refuses (a cut file, a cache of flags the key cannot see): the script compiles as
    // without one, and the file is left as it is, never rewritten run after run.
    writeFileSync(cache, 'not a code cache');
    const refused = run(debug);
    expect(refused.stderr).toContain('inspect.cjs (code cache rejected)');
    expect(refused).toMatchObject({ code: 0, stdout: 'script inspect x.jsonl\n' });
    expect(readFileSync(cache, 'utf8')).toBe('not a code cache');
    // Other flags (V8 would refuse the first cache): a cache of their own beside it.
    const flags = { ...debug, NODE_OPTIONS: '--max-old-space-size=3000' };
    expect(run(flags).stderr).toContain('inspect.cjs (code cache none)');
    expect(run(flags).stderr).toContain('inspect.cjs (code cache used)');
    expect(codeCaches()).toHaveLength(2);
  });

  it('a source edited after the build, however deep, runs the sources through tsx and never evaluates the bundle', () => {
    const now = Date.now() / 1000;
    utimesSync(NESTED_SOURCE, now, now);
    const r = run();
    expect(r).toMatchObject({ code: 0, stdout: 'source inspect x.jsonl\n' });
    expect(r.stderr).not.toContain('bundle evaluated');
    expect(r.stderr).not.toContain('script evaluated');
    // One second after the build is newer too.
    utimesSync(NESTED_SOURCE, BUILT_S + 1, BUILT_S + 1);
    expect(run().stdout).toBe('source inspect x.jsonl\n');
  });

  it('a newer file no script was built from (notes, a source not yet imported) leaves the bundle fresh', () => {
    const now = Date.now() / 1000;
    utimesSync(NOTES, now, now);
    utimesSync(UNUSED_SOURCE, now, now);
    expect(run().stdout).toBe('script inspect x.jsonl\n');
    expect(run({}, ['stats']).stdout).toBe('bundle stats\n');
  });

  it('a source the build listed and since deleted, or no list at all (a build before it), runs the sources', () => {
    const listed = JSON.parse(LISTED);
    write(
      SOURCES_LIST,
      JSON.stringify({ ...listed, 'inspect.cjs': [...listed['inspect.cjs'], 'src/engine/gone.ts'] }),
    );
    expect(run().stdout).toBe('bundle inspect x.jsonl\n');
    write(SOURCES_LIST, JSON.stringify({ 'inspect.cjs': [...listed['inspect.cjs'], 'src/engine/gone.ts'] }));
    expect(run().stdout).toBe('source inspect x.jsonl\n');
    rmSync(SOURCES_LIST);
    expect(run().stdout).toBe('source inspect x.jsonl\n');
    expect(run({}, ['stats']).stdout).toBe('source stats\n');
  });

  it('COMPACTLAB_FROM_SOURCE=1 runs the sources even beside a fresh bundle', () => {
    const r = run({ COMPACTLAB_FROM_SOURCE: '1' });
    expect(r).toMatchObject({ code: 0, stdout: 'source inspect x.jsonl\n' });
    expect(r.stderr).not.toContain('bundle evaluated');
    expect(r.stderr).not.toContain('script evaluated');
  });
});
