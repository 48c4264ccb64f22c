import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main';
import { keepCliBundle } from '../../vite.config';

// The small faults of issue 25: what said nothing, what deleted the CLI's bundle, what let raw
// HTML from a transcript into a Markdown export.

const fixture = (name: string) => readFileSync(join(__dirname, '../fixtures', name), 'utf8');

/** Runs the CLI, its stdout and stderr captured. */
async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    err.push(String(chunk));
    return true;
  });
  try {
    const code = await main(argv, (t) => out.push(t));
    return { code, out: out.join('\n'), err: err.join('') };
  } finally {
    spy.mockRestore();
  }
}

describe('commands that exited 1 without a word', () => {
  it('stats on a folder without sessions says so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'compactlab-empty-'));
    const { code, err } = await run(['stats', dir]);
    expect(code).toBe(1);
    expect(err).toContain(`no session file found in ${dir}`);
  });

  it('bash-summaries on an empty file gives the reason', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'compactlab-empty-')), 'session.jsonl');
    writeFileSync(file, '');
    const { code, err } = await run(['bash-summaries', file]);
    expect(code).toBe(1);
    expect(err).toMatch(/no record read from .*session\.jsonl: session\.jsonl is empty/);
  });
});

describe('export --md with HTML in the transcript', () => {
  it('escapes it outside the code fences, as the HTML report does', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'compactlab-md-'));
    const file = join(dir, '<b>session.jsonl');
    writeFileSync(
      file,
      fixture('tiny.jsonl')
        .replaceAll('claude-opus-4-6', '<img src=x onerror=alert(1)>')
        .replaceAll('"version":"2.1.68"', '"version":"<script>alert(2)</script>"'),
    );
    const target = join(dir, 'out.md');
    expect((await run(['export', file, '--md', '-o', target])).code).toBe(0);
    const prose = readFileSync(target, 'utf8')
      .split(/^`{3,}.*$/m)
      .filter((_, k) => k % 2 === 0)
      .join('\n');
    expect(prose).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(prose).toContain('&lt;script&gt;alert(2)&lt;/script&gt;');
    expect(prose).not.toMatch(/<[a-z/]/i);
  });
});

describe('npm run build', () => {
  it('empties dist but keeps dist/cli, the CLI bundle', () => {
    const root = mkdtempSync(join(tmpdir(), 'compactlab-build-'));
    mkdirSync(join(root, 'dist', 'cli'), { recursive: true });
    mkdirSync(join(root, 'dist', 'assets'));
    writeFileSync(join(root, 'dist', 'cli', 'compactlab.mjs'), '');
    writeFileSync(join(root, 'dist', 'assets', 'old.js'), '');
    writeFileSync(join(root, 'dist', 'index.html'), '');
    const plugin = keepCliBundle() as unknown as {
      configResolved(c: { root: string; build: { outDir: string } }): void;
      buildStart(): void;
    };
    plugin.configResolved({ root, build: { outDir: 'dist' } });
    plugin.buildStart();
    expect(readdirSync(join(root, 'dist'))).toEqual(['cli']);
    expect(existsSync(join(root, 'dist', 'cli', 'compactlab.mjs'))).toBe(true);
  });
});

describe('a file truncated while it is read', () => {
  it('is an issue, and the header gives the size that was read', async () => {
    const { parseSession } = await import('../../src/engine/parse/parse-session');
    const text = new TextEncoder().encode(fixture('tiny.jsonl'));
    const cut = text.lastIndexOf(10, Math.floor(text.length / 2)) + 1;
    let reads = 0;
    // The file as it was at open (its size), then cut after the first chunk was read.
    const source = {
      name: 'tiny.jsonl',
      sizeBytes: text.length,
      read: async (at: number, length: number) =>
        reads++ === 0
          ? text.subarray(at, at + length)
          : text.subarray(Math.min(at, cut), Math.min(at + length, cut)),
    };
    const session = await parseSession([source], { chunkBytes: 4_096 });
    expect(session.issues).toContainEqual(
      expect.objectContaining({
        code: 'file-shrunk',
        message: expect.stringContaining(`cut to ${cut} bytes`),
      }),
    );
    expect(session.files[0]!.sizeBytes).toBe(cut);
    expect(session.entries.length).toBeGreaterThan(0);
  });
});

describe('an OpenCode message file ending in NUL bytes', () => {
  it('is read (its trailing zeros an issue), not dropped', async () => {
    const { parseSession } = await import('../../src/engine/parse/parse-session');
    const { createMemorySource } = await import('../../src/engine/parse/source');
    const { FIXTURES } = await import('../parse/dialect-fixtures');
    const paths = FIXTURES.opencode![0]!.files as string[];
    const files = paths.map((p) => ({
      name: p,
      text: new Uint8Array(readFileSync(join(__dirname, '../..', p))),
    }));
    const clean = await parseSession(files.map((f) => createMemorySource(f.name, f.text)));
    const k = files.findIndex((f) => f.name.includes('/message/'));
    const padded = new Uint8Array(files[k]!.text.length + 64);
    padded.set(files[k]!.text);
    files[k] = { ...files[k]!, text: padded };
    const session = await parseSession(files.map((f) => createMemorySource(f.name, f.text)));
    expect(session.entries.length).toBe(clean.entries.length);
    expect(session.apiCalls.length).toBe(clean.apiCalls.length);
    expect(session.issues.filter((i) => i.code === 'not-json')).toEqual([
      expect.objectContaining({
        message: expect.stringMatching(/ends with 64 NUL bytes after its JSON/),
      }),
    ]);
  });
});
