import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMockServer as createAnthropicMock } from '../../mock/anthropic-mock.mjs';
import { createMockServer as createOpenAiMock } from '../../mock/openai-mock.mjs';
import { generateSession } from '../../sample/generate-session';
import { startWaitNotice } from '../../src/cli/wait-notice';
import { createFixtureText } from '../summarize/fixture';

// `compactlab summarize` against a server that accepts the connection and never answers said
// nothing at all, for as long as the server held on (the page says "Waiting for the server's first
// token · N s (Cancel stops it)"), and so did `stats --retention-summarizer`'s calls. Both now say
// what they wait for on stderr, in plain lines when stderr is not a terminal (no control
// sequence), and Ctrl-C still stops them.

describe('the wait notice', () => {
  it('on a terminal: one line rewritten each second, cleared when the answer comes and at the end', () => {
    vi.useFakeTimers();
    try {
      let t = 0;
      const written: string[] = [];
      const notice = startWaitNotice('x: ', { tty: true, write: (s) => written.push(s), now: () => t });
      const step = (ms: number) => {
        for (let done = 0; done < ms; done += 1_000) {
          t += 1_000;
          vi.advanceTimersByTime(1_000);
        }
      };
      step(3_000);
      expect(written).toEqual([
        "\rx: waiting for the server's first token · 1 s (Ctrl-C stops it)\u001b[K",
        "\rx: waiting for the server's first token · 2 s (Ctrl-C stops it)\u001b[K",
        "\rx: waiting for the server's first token · 3 s (Ctrl-C stops it)\u001b[K",
      ]);
      notice.onText('abc');
      expect(written.at(-1)).toBe('\r\u001b[K');
      step(6_000);
      expect(written.at(-1)).toBe(
        '\rx: summarizing… 3 characters · 9 s · nothing new for 6 s (Ctrl-C stops it)\u001b[K',
      );
      notice.end();
      expect(written.at(-1)).toBe('\r\u001b[K');
      const count = written.length;
      step(5_000);
      expect(written).toHaveLength(count);
    } finally {
      vi.useRealTimers();
    }
  });

  it('off a terminal: plain lines at 5, 10, 20, 40 s, no control character', () => {
    vi.useFakeTimers();
    try {
      let t = 0;
      const written: string[] = [];
      const notice = startWaitNotice('x: ', { tty: false, write: (s) => written.push(s), now: () => t });
      for (let i = 0; i < 45; i++) {
        t += 1_000;
        vi.advanceTimersByTime(1_000);
      }
      expect(written.map((l) => /· (\d+) s/.exec(l)?.[1])).toEqual(['5', '10', '20', '40']);
      notice.onText('0123456789');
      for (let i = 0; i < 12; i++) {
        t += 1_000;
        vi.advanceTimersByTime(1_000);
      }
      notice.end();
      expect(written.slice(4)).toEqual([
        'x: summarizing… 10 characters · 50 s · nothing new for 5 s (Ctrl-C stops it)\n',
        'x: summarizing… 10 characters · 55 s · nothing new for 10 s (Ctrl-C stops it)\n',
      ]);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the point is that there are none.
      expect(written.join('')).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    } finally {
      vi.useRealTimers();
    }
  });
});

const BIN = join(__dirname, '../../bin/compactlab.cjs');

describe('a summarizer CLI command on a server that never answers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'compactlab-hang-'));
  const file = join(dir, 'session.jsonl');
  const projects = join(dir, 'projects');
  const servers = { anthropic: createAnthropicMock(), openai: createOpenAiMock() };
  const urls = { anthropic: '', openai: '' };
  beforeAll(async () => {
    writeFileSync(file, createFixtureText());
    // A generated session that compacts at 60%: stats has a summary call to make.
    for (const f of generateSession({ seed: 60, apiCalls: 240 }).files) {
      const p = join(projects, f.name);
      mkdirSync(dirname(p), { recursive: true });
      writeFileSync(p, f.text);
    }
    for (const name of ['anthropic', 'openai'] as const) {
      await new Promise<void>((resolve) => servers[name].listen(0, '127.0.0.1', resolve));
      urls[name] = `http://127.0.0.1:${(servers[name].address() as AddressInfo).port}`;
    }
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    for (const server of Object.values(servers)) await new Promise<void>((r) => server.close(() => r()));
  });

  /** Runs the CLI until stderr matches `said`, then sends Ctrl-C: it ends at once, the connection with it. */
  async function expectWaitThenCtrlC(args: string[], kind: 'anthropic' | 'openai', said: RegExp) {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, ANTHROPIC_API_KEY: 'sk-test-hang', OPENAI_API_KEY: 'sk-test-hang' },
    });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const closed = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      child.on('close', (code, signal) => resolve({ code, signal })),
    );
    await vi.waitFor(() => expect(stderr).toMatch(said), { timeout: 30_000, interval: 200 });
    // biome-ignore lint/suspicious/noControlCharactersInRegex: a pipe gets no control sequence.
    expect(stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    const request = servers[kind].requests.at(-1)!;
    expect(request.closedEarly).toBe(false);
    const sentAt = Date.now();
    child.kill('SIGINT');
    const end = await closed;
    expect(end.signal ?? end.code).toBe(end.signal ? 'SIGINT' : 130);
    expect(Date.now() - sentAt).toBeLessThan(5_000);
    // The connection is closed with it: the server sees the client gone.
    await vi.waitFor(() => expect(request.closedEarly).toBe(true), { timeout: 5_000 });
  }

  it.each([
    [
      'openai',
      'mock-hang',
      /^compactlab summarize: waiting for the server's first token · 5 s \(Ctrl-C stops it\)$/m,
    ],
    [
      'anthropic',
      'mock-hang-mid-stream',
      /^compactlab summarize: summarizing… \d+ characters · \d+ s · nothing new for 5 s \(Ctrl-C stops it\)$/m,
    ],
  ] as const)(
    'summarize, %s %s: says what it waits for on stderr, plain; Ctrl-C stops it',
    async (kind, model, said) => {
      await expectWaitThenCtrlC(
        ['summarize', file, '--at', 'c0', '--summarizer', kind, '--model', model, '--base-url', urls[kind]],
        kind,
        said,
      );
    },
    60_000,
  );

  it('stats --retention-summarizer openai, mock-hang: the call says what it waits for; Ctrl-C stops it', async () => {
    await expectWaitThenCtrlC(
      [
        'stats',
        projects,
        '--strategy',
        'claude-code',
        '--knob',
        'autocompactPctOverride=60',
        '--retention',
        '--retention-summarizer',
        'openai',
        '--retention-model',
        'mock-hang',
        '--base-url',
        urls.openai,
        '--summary-cache',
        join(dir, 'cache'),
        '--yes',
        '--jobs',
        '0',
      ],
      'openai',
      /^compactlab stats: summary call 1\/\d+: waiting for the server's first token · 5 s \(Ctrl-C stops it\)$/m,
    );
  }, 60_000);
});
