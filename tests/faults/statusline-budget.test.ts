import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeStatusLine } from '../../src/cli/live/statusline';
import { READ_CHUNK_BYTES } from '../../src/engine/parse/incremental-reader';
import { generateSessionLines } from '../../sample/generate-session';

// Issue 25 item 9: the status line never waits past its budget, on any input. A transcript too big
// to read in the budget gives the line of what was read, saying how much, and the next calls go on
// from there to the same line a whole read gives; a disk that does not answer gives the payload's
// line; a stdin never closed gives the line or a short message, and the process ends.

const ROOT = join(__dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'compactlab-statusline-budget-'));
const big = join(dir, 'big.jsonl');
const previousCacheDir = process.env.COMPACTLAB_CACHE_DIR;
const PAYLOAD = JSON.parse(readFileSync(join(ROOT, 'tests/fixtures/statusline/context-window.json'), 'utf8'));
const payloadFor = (path: string) => JSON.stringify({ ...PAYLOAD, transcript_path: path });

describe('statusline within its budget', () => {
  beforeAll(() => {
    const lines: string[] = [];
    for (const { file, line } of generateSessionLines({ seed: 25, targetBytes: 3 * READ_CHUNK_BYTES + 1 }))
      if (!file.includes('/')) lines.push(line);
    writeFileSync(big, `${lines.join('\n')}\n`);
  });
  afterAll(() => {
    if (previousCacheDir === undefined) delete process.env.COMPACTLAB_CACHE_DIR;
    else process.env.COMPACTLAB_CACHE_DIR = previousCacheDir;
  });

  it('reads a big transcript over several calls, each stopping at its deadline, to the whole read’s line', async () => {
    process.env.COMPACTLAB_CACHE_DIR = join(dir, 'whole');
    const whole = await computeStatusLine(payloadFor(big), { deadline: Number.POSITIVE_INFINITY });
    expect(whole).not.toContain('transcript read');

    process.env.COMPACTLAB_CACHE_DIR = join(dir, 'budgeted');
    const lines: string[] = [];
    // A read time already past: each call reads one chunk, then answers.
    for (let i = 0; i < 10; i++) {
      const line = await computeStatusLine(payloadFor(big), {
        deadline: Number.POSITIVE_INFINITY,
        readUntil: performance.now(),
      });
      lines.push(line);
      if (!line.includes('transcript read')) break;
    }
    expect(lines.length).toBeGreaterThanOrEqual(3);
    const percents = lines.slice(0, -1).map((l) => Number(/transcript read (\d+)%/.exec(l)?.[1]));
    for (let i = 0; i < percents.length; i++) {
      expect(percents[i]).toBeLessThan(100);
      if (i > 0) expect(percents[i]).toBeGreaterThan(percents[i - 1]!);
    }
    expect(lines.at(-1)).toBe(whole);
  });

  it('answers from the payload when the disk does not, saying so', async () => {
    process.env.COMPACTLAB_CACHE_DIR = join(dir, 'stuck');
    {
      // A reader whose disk never answers: the read neither ends nor fails.
      const line = await computeStatusLine(payloadFor(big), {
        deadline: performance.now() + 200,
        readTranscript: () => new Promise(() => {}),
      });
      // The payload's own context (context-window.json: 122,920 of 200k) and the reason.
      expect(line).toMatch(/^ctx 122\.9k\/200k \(61%\)/);
      expect(line).toContain('transcript not read in time (slow disk?)');
    }
  });

  /** Runs the command with stdin held open; resolves with its output once the process has ended. */
  function runWithOpenStdin(input: string): Promise<{ code: number | null; stdout: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [join(ROOT, 'bin/compactlab.cjs'), 'statusline'], {
        env: { ...process.env, COMPACTLAB_CACHE_DIR: join(dir, 'bin') },
      });
      let stdout = '';
      child.stdout.on('data', (d) => (stdout += d));
      if (input) child.stdin.write(input);
      // stdin is never ended: a writer that hangs.
      child.on('close', (code) => resolve({ code, stdout }));
    });
  }

  it('ends with a short message when stdin stays open and empty, and with the line when it holds the payload', async () => {
    const empty = await runWithOpenStdin('');
    expect(empty.code).toBe(0);
    expect(empty.stdout).toBe('compactlab: no statusLine JSON on stdin within 1 s\n');
    const full = await runWithOpenStdin(payloadFor(join(ROOT, 'tests/fixtures/tiny.jsonl')));
    expect(full.code).toBe(0);
    expect(full.stdout).toMatch(/^ctx 122\.9k\/200k \(61%\) · compact at 167k \(v2\.1\.68\)/);
  }, 60_000);
});
