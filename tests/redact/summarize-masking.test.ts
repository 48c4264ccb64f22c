import { mkdtempSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMockServer } from '../../mock/anthropic-mock.mjs';
import { createMockServer as createOpenAiMock } from '../../mock/openai-mock.mjs';
import { getPrintableUrl } from '../../src/engine/redact/printable-url';
import { CORPUS, corpusOrSkip } from '../helpers/corpus';
import { runCli } from '../helpers/run-cli';
import { createFixtureText } from '../summarize/fixture';

// Issue 22, item 5: what goes to a model. `compactlab summarize` masks the span's secrets by
// default (--send-unmasked sends it as is) and never prints a base URL's credentials or query; a
// key or a found secret that a server echoes back (an error, an HTML error page, the summary) is
// masked in what it prints (the mock servers' echo modes).

const SECRET = 'glpat-Xq7mWz2LkP9vTb4nRc8s';

describe('compactlab summarize masking', () => {
  const dir = mkdtempSync(join(tmpdir(), 'compactlab-sum-mask-'));
  const file = join(dir, 'session.jsonl');
  // The fixture's first user text gets a GitLab token: the request must not carry it.
  const lines = createFixtureText().split('\n');
  const i = lines.findIndex((l) => l.includes('"type":"user"'));
  const record = JSON.parse(lines[i]!);
  const c = record.message.content;
  record.message.content =
    typeof c === 'string' ? `${c} token ${SECRET}` : [...c, { type: 'text', text: `token ${SECRET}` }];
  lines[i] = JSON.stringify(record);
  writeFileSync(file, lines.join('\n'));

  async function run(args: string[]): Promise<string> {
    const { code, text } = await runCli(['summarize', file, '--at', 'c0', '--json', ...args]);
    expect(code).toBe(0);
    return text;
  }

  it('masks the request by default and sends it as is with --send-unmasked', async () => {
    const masked = JSON.parse(await run([]));
    expect(JSON.stringify(masked.request)).not.toContain(SECRET);
    expect(JSON.stringify(masked.request)).toContain('[REDACTED:gitlab-pat]');
    const raw = JSON.parse(await run(['--send-unmasked']));
    expect(JSON.stringify(raw.request)).toContain(SECRET);
  });

  const KEY = 'sk-ant-api03-EchoedKeyNeverPrinted0123456789abcdefXYZ-AA';
  const anthropic = createMockServer({ chunkDelayMs: 0, echo: [SECRET] });
  const openai = createOpenAiMock({ chunkDelayMs: 0, echo: [SECRET] });
  const url = { anthropic: '', openai: '' };
  beforeAll(async () => {
    for (const [name, server] of [
      ['anthropic', anthropic],
      ['openai', openai],
    ] as const) {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url[name] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    }
  });
  afterAll(async () => {
    for (const server of [anthropic, openai])
      await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  /** Runs summarize against a mock; what it printed on stdout and stderr. */
  async function runEcho(args: string[]): Promise<{ code: number; printed: string }> {
    vi.stubEnv('ANTHROPIC_API_KEY', KEY);
    vi.stubEnv('OPENAI_API_KEY', KEY);
    try {
      const { code, text, err } = await runCli(['summarize', file, '--at', 'c0', ...args]);
      return { code, printed: `${text}\n${err}` };
    } finally {
      vi.unstubAllEnvs();
    }
  }

  for (const provider of ['anthropic', 'openai'] as const) {
    it(`masks the key and a found secret that ${provider}’s server echoes in an error, an HTML page or the summary`, async () => {
      for (const [mode, expected] of [
        ['echo-key', 1],
        ['echo-html', 1],
        ['echo-summary', 0],
      ] as const) {
        const base = ['--summarizer', provider, '--base-url', url[provider], '--model', `mock-${mode}`];
        const { code, printed } = await runEcho([...base, ...(mode === 'echo-summary' ? ['--json'] : [])]);
        expect(code, mode).toBe(expected);
        // The server did echo (the masks stand where the key and the secret were).
        expect(printed, mode).toContain('[REDACTED:');
        expect(printed, mode).not.toContain(KEY);
        expect(printed, mode).not.toContain(SECRET);
      }
    });
  }

  it('prints a network error without the base URL’s credentials or query string', async () => {
    const { code, printed } = await runEcho([
      '--summarizer',
      'openai',
      '--base-url',
      'http://someone:hunter2pw@127.0.0.1:9/v1?api_key=querykey123',
    ]);
    expect(code).toBe(1);
    expect(printed).toContain('Could not reach');
    expect(printed).toContain('http://127.0.0.1:9/v1');
    for (const part of ['someone', 'hunter2pw', 'querykey123']) expect(printed).not.toContain(part);
  });

  it('prints a base URL without its credentials or query string', () => {
    expect(getPrintableUrl('https://user:pw@proxy.example.test/v1?key=abc#x')).toBe(
      'https://proxy.example.test/v1',
    );
  });
});

// A real Claude Code 2.0.67 session whose code assigns `generateToken = function() {` (and
// `hashToken = function`): the masking took "function" for a token's value and masked it wherever
// it occurs, 142 times in compaction 2's request, the claude-code-full prompt's own "function
// signatures" with them (the page's run then stored that prompt, marked "edited prompt"). A keyword
// or a call is code, never a value: the request keeps every "function" and masks nothing there.
describe.skipIf(!corpusOrSkip('summarize masking on a real session'))('summarize masking, real code', () => {
  it('leaves the code keywords of a real session and the preset prompt unmasked', async () => {
    const file = join(
      CORPUS,
      'reviewchaser__dealerflow/claude__projects__C--Users-georg-dealerflow__57c87a56-24c0-4296-be22-193aa3e1e16c.jsonl',
    );
    const { code, text } = await runCli(['summarize', file, '--at', 'c1', '--json']);
    expect(code).toBe(0);
    const request = JSON.stringify(JSON.parse(text).request);
    // Booleans: a failure prints no transcript text.
    expect(request.includes('- function signatures'), 'the preset prompt').toBe(true);
    expect(request.includes('generateToken = function ()'), 'the code').toBe(true);
    expect(request.match(/\[REDACTED:env-secret\]/g) ?? []).toEqual([]);
  }, 60_000);
});
