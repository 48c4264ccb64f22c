import { appendFileSync, copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { watchCommand } from '../../src/cli/live/watch';
import { computeStatusLine } from '../../src/cli/live/statusline';
import { FIXTURES } from '../parse/dialect-fixtures';
import { CORPUS, corpusOrSkip } from '../helpers/corpus';

// watch and statusline know Claude Code's and Codex's thresholds only: a pi, Gemini CLI, Cline,
// OpenCode or claude-trace log is said to be one they cannot follow, never shown against Claude
// Code's 200k window; a folder, an empty file and out-of-range counts are said or left out.

const ROOT = join(__dirname, '../..');
// The status line's cache in a folder of this test's own.
process.env.COMPACTLAB_CACHE_DIR = mkdtempSync(join(tmpdir(), 'compactlab-statusline-'));

async function watchOnce(path: string): Promise<{ code: number; out: string[]; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    err.push(String(chunk));
    return true;
  });
  try {
    const code = await watchCommand([path, '--once', '--json'], (t) => out.push(t));
    return { code, out, err: err.join('') };
  } finally {
    spy.mockRestore();
  }
}

/** Each fixture of a dialect without a live reader, as one file on disk. */
const others = Object.entries(FIXTURES)
  .filter(([id]) => !['claude-code', 'codex-cli', 'claude-sdk-stream', 'cline-task-metadata'].includes(id))
  .flatMap(([id, fixtures]) =>
    fixtures.filter((f) => !f.name.includes('broken')).map((f) => ({ id, path: f.files[0] })),
  )
  .filter((f): f is { id: string; path: string } => typeof f.path === 'string');

describe('watch and statusline on logs of other agents', () => {
  it(`say they cannot follow them (${others.length} fixtures), never Claude Code's thresholds`, async () => {
    expect(others.length).toBeGreaterThanOrEqual(7);
    const problems: string[] = [];
    for (const { id, path } of others) {
      const full = join(ROOT, path);
      const { code, out, err } = await watchOnce(full);
      if (code !== 1 || !/the live status follows only/.test(err))
        problems.push(`${id} watch: exit ${code}, stderr ${JSON.stringify(err)}`);
      if (out.some((l) => l.includes('"autoCompactTokens"'))) problems.push(`${id} watch printed a status`);
      const line = await computeStatusLine(JSON.stringify({ transcript_path: full }));
      if (!/the live status follows only/.test(line) || /200k/.test(line))
        problems.push(`${id} statusline: ${line}`);
    }
    expect(problems).toEqual([]);
  });

  it('says a folder is one, and an empty file that nothing was read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'compactlab-watch-'));
    const folder = await watchOnce(dir);
    expect([folder.code, folder.err]).toEqual([2, expect.stringContaining('is a folder')]);
    expect(folder.err).not.toContain('EISDIR');
    writeFileSync(join(dir, 'empty.jsonl'), '');
    const empty = await watchOnce(join(dir, 'empty.jsonl'));
    expect([empty.code, empty.err]).toEqual([1, expect.stringContaining('no API call or compaction read')]);
  });

  it('follows a Claude Code log named as a Gemini CLI chat is (session-….jsonl): its records decide', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'compactlab-named-'));
    const file = join(dir, 'session-10mb.jsonl');
    copyFileSync(join(ROOT, 'tests/fixtures/tiny.jsonl'), file);
    const line = await computeStatusLine(JSON.stringify({ transcript_path: file }));
    expect(line).toMatch(/^ctx \d[^ ]*\/200k .* compact at 167k \(v2\.1\.68\)/);
    const { code } = await watchOnce(file);
    expect(code).toBe(0);
  });

  it('leaves a negative usage out of the context (no "ctx -50004/200k")', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'compactlab-watch-'));
    const file = join(dir, 'session.jsonl');
    const text = readFileSync(join(ROOT, 'tests/fixtures/tiny.jsonl'), 'utf8').replace(
      /"input_tokens":\d+/g,
      '"input_tokens":-984990',
    );
    writeFileSync(file, text);
    const line = await computeStatusLine(JSON.stringify({ transcript_path: file }));
    expect(line).toMatch(/^ctx \d/);
    const { out } = await watchOnce(file);
    const status = out.map((l) => JSON.parse(l)).find((l) => l.kind === 'status');
    expect(status.usedTokens).toBeGreaterThanOrEqual(0);
  });
});

describe('watch and statusline on a file that goes away or is no file', () => {
  it('watch waits for a deleted file to come back, then reads it again', async () => {
    const { rmSync } = await import('node:fs');
    const dir = mkdtempSync(join(tmpdir(), 'compactlab-watch-'));
    const file = join(dir, 'session.jsonl');
    const text = readFileSync(join(ROOT, 'tests/fixtures/tiny.jsonl'), 'utf8');
    writeFileSync(file, text);
    const out: string[] = [];
    const stop = new AbortController();
    const done = watchCommand([file, '--json', '--interval-ms', '50'], (t) => out.push(t), stop.signal);
    const waitFor = async (ok: () => boolean) => {
      for (let waited = 0; !ok(); waited += 25) {
        if (waited > 10_000) throw new Error('timed out');
        await new Promise((r) => setTimeout(r, 25));
      }
    };
    await waitFor(() => out.some((l) => l.includes('"apiCalls":6')));
    rmSync(file);
    // Said gone, the last status standing (never an empty session's `apiCalls: 0`).
    await waitFor(() => out.some((l) => l.includes('"event":"gone"')));
    writeFileSync(file, text);
    await waitFor(() => out.some((l) => l.includes('"event":"back"')));
    appendFileSync(file, `${text.trimEnd().split('\n').at(-1)}\n`);
    await waitFor(() => out.filter((l) => l.includes('"kind":"status"')).length >= 2);
    stop.abort();
    expect(await done).toBe(0);
    expect(out.filter((l) => l.includes('"apiCalls":0'))).toEqual([]);
  });

  it.skipIf(process.platform === 'win32')('statusline never blocks on a FIFO', async () => {
    const { execFileSync } = await import('node:child_process');
    const fifo = join(mkdtempSync(join(tmpdir(), 'compactlab-fifo-')), 'session.jsonl');
    execFileSync('mkfifo', [fifo]);
    const start = process.cpuUsage();
    const line = await computeStatusLine(JSON.stringify({ transcript_path: fifo }));
    expect(line).toMatch(/^ctx /);
    const used = process.cpuUsage(start);
    expect((used.user + used.system) / 1000).toBeLessThan(1_000);
  });
});

describe('statusline payload counts out of range', () => {
  it('leaves a negative or infinite count out (no "ctx -50004/200k (-25%)")', async () => {
    const line = await computeStatusLine(
      JSON.stringify({
        context_window: {
          context_window_size: 200_000,
          current_usage: { input_tokens: -50_004, output_tokens: 3 },
        },
      }),
    );
    expect(line).toMatch(/^ctx 3\/200k \(0%\)/);
    const huge = await computeStatusLine('{"context_window":{"context_window_size":1e999}}');
    expect(huge).not.toMatch(/Infinity|NaN|-\d/);
  });
});

const STREAM_JSON = join(CORPUS, 'bdevz__og-system/audit.jsonl');

describe.skipIf(!corpusOrSkip('stream-json live test') || !existsSync(STREAM_JSON))(
  "a Claude Code stream-json log (claude -p, the corpus's audit.jsonl)",
  () => {
    it('is named by its format, not "a log of Claude Code" beside "follows only … Claude Code logs"', async () => {
      const line = await computeStatusLine(JSON.stringify({ transcript_path: STREAM_JSON }));
      expect(line).toBe(
        'compactlab: audit.jsonl: a log of Claude Agent SDK stream-json; the live status follows only Codex CLI rollout and Claude Code session (JSONL) logs, whose thresholds it knows (compactlab inspect and replay read this one under its own strategy)',
      );
      const { code, err } = await watchOnce(STREAM_JSON);
      expect(code).toBe(1);
      expect(err).toContain('a log of Claude Agent SDK stream-json;');
    });
  },
);
