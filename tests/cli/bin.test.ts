import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusJsonl, corpusOrSkip, foreignFiles } from '../helpers/corpus';

// The `compactlab` command as a user runs it: `bin/compactlab.cjs` starts the bundle `npm install`
// built into dist/cli when it is fresh, the TypeScript through tsx otherwise; either must work.

const ROOT = join(__dirname, '../..');
const BIN = join(ROOT, 'bin/compactlab.cjs');
const FIXTURES = join(ROOT, 'tests/fixtures');
const cacheDir = mkdtempSync(join(tmpdir(), 'compactlab-bin-'));

function runBin(args: string[], input?: string) {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    input,
    encoding: 'utf8',
    env: { ...process.env, COMPACTLAB_DEBUG_START: '1', COMPACTLAB_CACHE_DIR: cacheDir },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('bin/compactlab.cjs', () => {
  it(`says on stderr which build it ran (${existsSync(join(ROOT, 'dist/cli/compactlab.mjs')) ? 'a bundle exists' : 'no bundle: tsx'}), only when asked`, () => {
    const { code, stderr } = runBin(['--help']);
    expect(code).toBe(0);
    expect(stderr).toMatch(
      /^compactlab: (running .*dist[\\/]cli[\\/]compactlab\.mjs|no fresh build in dist\/cli)/,
    );
    const quiet = spawnSync(process.execPath, [BIN, '--help'], { encoding: 'utf8' });
    expect(quiet.stderr).toBe('');
    expect(quiet.stdout).toMatch(/compactlab statusline/);
  });

  it('runs the status line on a payload piped to stdin', () => {
    const payload = JSON.parse(readFileSync(join(FIXTURES, 'statusline/context-window.json'), 'utf8'));
    payload.transcript_path = join(FIXTURES, 'tiny.jsonl');
    const { code, stdout } = runBin(['statusline'], JSON.stringify(payload));
    expect(code).toBe(0);
    expect(stdout).toMatch(/^ctx 122\.9k\/200k \(61%\) · compact at 167k \(v2\.1\.68\) · 44\.1k left/);
    expect(stdout.trimEnd().split('\n')).toHaveLength(1);
  });

  it('a status line whose transcript is not there says so, exits 0 and names the path on stderr', () => {
    // The tester's payload: a path and nothing else (it printed `ctx 0/200k (0%) …`, no word).
    const path = join(cacheDir, 'no-such-session.jsonl');
    const { code, stdout, stderr } = runBin(['statusline'], JSON.stringify({ transcript_path: path }));
    expect(code).toBe(0);
    expect(stdout).toBe('compactlab: transcript not found (no-such-session.jsonl)\n');
    expect(stderr).toContain(`compactlab statusline: no file at ${path}`);
  });

  it('runs stats in a worker thread and watch --once --json', () => {
    const stats = runBin(['stats', join(FIXTURES, 'folder'), '--jobs', '1']);
    expect(stats.code).toBe(0);
    const row = JSON.parse(stats.stdout);
    expect(row).toMatchObject({ apiCalls: 7, compactions: 2, subagentFiles: 5 });
    const watch = runBin(['watch', join(FIXTURES, 'tiny.jsonl'), '--once', '--json']);
    expect(watch.code).toBe(0);
    const lines = watch.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    // The compaction the file already holds is its history (counted), not one seen landing.
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      kind: 'status',
      apiCalls: 6,
      compactions: 1,
      autoCompactTokens: 167_000,
    });
  });
});

// `inspect` runs its own script of the bundle (dist/cli/inspect.cjs, through V8's code cache taken
// after an inspect of the bundled sample, scripts/build-cli.mjs): it must print what main.ts
// prints, on real logs of the sample's dialect and of one the cache did not see run.
const bundled = existsSync(join(ROOT, 'dist/cli/inspect.cjs'));
/** Whether the bin runs the bundle: sources edited since `npm run prepare` run through tsx. */
const bundleFresh =
  bundled &&
  !/no fresh build/.test(
    spawnSync(process.execPath, [BIN, '--help'], {
      encoding: 'utf8',
      env: { ...process.env, COMPACTLAB_DEBUG_START: '1', COMPACTLAB_FROM_SOURCE: undefined },
    }).stderr,
  );
if (bundled && !bundleFresh)
  console.warn(
    "bin: inspect's script against the sources skipped: sources edited since the bundle was built (npm run prepare)",
  );
describe.skipIf(!bundleFresh || !corpusOrSkip("bin: inspect's script against the sources"))(
  "bin/compactlab.cjs inspect: the bundle's own script prints what the sources print",
  () => {
    const fromSource = (args: string[]) =>
      spawnSync(process.execPath, [BIN, ...args], {
        encoding: 'utf8',
        env: { ...process.env, COMPACTLAB_FROM_SOURCE: '1' },
      });
    const largestClaude = corpusJsonl().sort((a, b) => statSync(b).size - statSync(a).size)[0]!;
    const codex = foreignFiles().find((f) => /rollout-.*\.jsonl$/.test(f))!;
    it.each([
      ['a Claude Code session, --json', [largestClaude, '--json']],
      ['a Codex rollout, text', [codex]],
      // sql.js, loaded on the first database: a dynamic import in a script from a code cache fails
      // in Node 20, so the script requires it.
      ['an OpenCode database, --json', [join(FIXTURES, 'opencode/db/opencode.db'), '--json']],
      ['--help', ['--help']],
      ['no file: the usage, exit 2', []],
    ])('%s', (_, args) => {
      const bundle = runBin(['inspect', ...args]);
      expect(bundle.stderr).toMatch(
        /^compactlab: running .*inspect\.cjs \(code cache (used|rejected|none)\)/,
      );
      const source = fromSource(['inspect', ...args]);
      expect(bundle.stdout).toBe(source.stdout);
      expect(bundle.code).toBe(source.status);
      expect(bundle.stdout.length).toBeGreaterThan(300);
    });
  },
);

// A Node or flags without a cache get one written after their first inspect: V8's code cache holds
// compiled code, never what the code read. Checked on a copy of the bin and the built script (a
// package without its sources, so always fresh), the transcript planted with a key and a path.
describe.skipIf(!bundled)('bin/compactlab.cjs inspect: the code cache a run writes', () => {
  it('holds none of the transcript it was taken after, and the next run takes it', () => {
    const home = mkdtempSync(join(tmpdir(), 'compactlab-code-cache-'));
    mkdirSync(join(home, 'bin'));
    mkdirSync(join(home, 'dist/cli'), { recursive: true });
    copyFileSync(BIN, join(home, 'bin/compactlab.cjs'));
    for (const name of ['compactlab.mjs', 'inspect.cjs'])
      copyFileSync(join(ROOT, 'dist/cli', name), join(home, 'dist/cli', name));
    const planted = 'sk-ant-api03-PLANTEDcodeCACHEkey0000000000';
    const transcript = join(home, 'planted.jsonl');
    writeFileSync(
      transcript,
      readFileSync(join(FIXTURES, 'tiny.jsonl'), 'utf8').replaceAll(
        '"cwd":"',
        `"cwd":"/home/PLANTEDuser/${planted}/`,
      ),
    );
    const inspect = () =>
      spawnSync(process.execPath, [join(home, 'bin/compactlab.cjs'), 'inspect', transcript, '--json'], {
        encoding: 'utf8',
        env: { ...process.env, COMPACTLAB_DEBUG_START: '1', NODE_OPTIONS: '--max-old-space-size=2999' },
      });
    const first = inspect();
    expect(first.status).toBe(0);
    expect(first.stdout).toContain(planted);
    expect(first.stderr).toContain('(code cache none)');
    const caches = readdirSync(join(home, 'dist/cli')).filter((name) => name.endsWith('.cache'));
    expect(caches).toHaveLength(1);
    const bytes = readFileSync(join(home, 'dist/cli', caches[0]!));
    expect(bytes.length).toBeGreaterThan(10_000);
    for (const text of [planted, 'PLANTEDuser'])
      expect(bytes.includes(text, 0, 'latin1') || bytes.includes(text, 0, 'utf16le')).toBe(false);
    const second = inspect();
    expect(second.stderr).toContain('(code cache used)');
    expect(second.stdout).toBe(first.stdout);
    rmSync(home, { recursive: true, force: true });
  });
});
