import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateSessionLines } from '../../sample/generate-session';

// `compactlab export --jsonl` of a large session: the compacted transcript was built whole, then
// joined, then written (a generated 100 MB log peaked at 991 MB, 30 MB at 337 MB where inspect
// takes 135 MB); it is now written line by line into `<file>.<pid>.part`, renamed when complete
// (100 MB: 312 MB; 30 MB: 181 MB), and a Ctrl-C on the way removes the part and keeps the file
// that was there.

const ROOT = resolve(__dirname, '../..');
const BIN = join(ROOT, 'bin/compactlab.cjs');
const RSS_HOOK = join(ROOT, 'bench/report-rss.mjs');
const dir = mkdtempSync(join(tmpdir(), 'compactlab-export-stream-'));
const session = join(dir, 'session.jsonl');

/** Peak resident set size of `compactlab <args>` in bytes (bench/report-rss.mjs). */
function peakRss(args: string[]): number {
  const rssFile = join(dir, 'rss');
  const run = spawnSync(process.execPath, ['--import', RSS_HOOK, BIN, ...args], {
    env: { ...process.env, REPORT_RSS_FILE: rssFile },
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  expect(run.status, run.stderr).toBe(0);
  return Number(readFileSync(rssFile, 'utf8'));
}

describe('export --jsonl of a large session', () => {
  beforeAll(() => {
    const lines: string[] = [];
    for (const { file, line } of generateSessionLines({ seed: 7, targetBytes: 20_000_000 }))
      if (!file.includes('/')) lines.push(line);
    writeFileSync(session, `${lines.join('\n')}\n`);
  }, 60_000);

  it('holds little more than inspect does, whatever the output size', () => {
    const size = statSync(session).size;
    const inspect = peakRss(['inspect', session, '--json']);
    const out = join(dir, 'out.jsonl');
    const exported = peakRss(['export', session, '--jsonl', '-o', out]);
    expect(statSync(out).size).toBeGreaterThan(size * 0.9);
    // Before: about 6.7 times the file's size above inspect's peak (the lines, their join, the
    // string written); now about 1.5 times. 3 (ours) stands between the two.
    expect(exported - inspect, `export ${exported} B, inspect ${inspect} B`).toBeLessThan(3 * size);
  }, 60_000);

  it('Ctrl-C while the file is written: exit 130, the file that was there kept, no part left', async () => {
    const out = join(dir, 'kept.jsonl');
    writeFileSync(out, 'an earlier export\n');
    const child = spawn(process.execPath, [BIN, 'export', session, '--jsonl', '-o', out], {
      stdio: 'ignore',
    });
    const parts = () => readdirSync(dir).filter((f) => f.endsWith('.part'));
    // Sent once the part holds its first bytes and well before its last (the output is about the
    // session's size): mid-write, not in the instant it is created or renamed.
    const half = statSync(session).size / 2;
    let interrupted = false;
    const poll = setInterval(() => {
      if (interrupted) return;
      const [part] = parts();
      const size = part === undefined ? 0 : (statSync(join(dir, part), { throwIfNoEntry: false })?.size ?? 0);
      if (size === 0 || size > half) return;
      interrupted = true;
      child.kill('SIGINT');
    }, 2);
    const code = await new Promise<number | null>((done) => child.on('exit', (c) => done(c)));
    clearInterval(poll);
    expect(interrupted, 'the part file was seen while the export ran').toBe(true);
    expect(code).toBe(130);
    expect(readFileSync(out, 'utf8')).toBe('an earlier export\n');
    expect(parts()).toEqual([]);
    expect(existsSync(out)).toBe(true);
  }, 60_000);
});
