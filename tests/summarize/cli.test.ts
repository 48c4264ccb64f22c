import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMockServer } from '../../mock/anthropic-mock.mjs';
import { createMockServer as createOpenAiMock } from '../../mock/openai-mock.mjs';
import { main } from '../../src/cli/main';
import { corpusFiles, corpusOrSkip } from '../helpers/corpus';
import { createFixtureText, LAST_REQUEST } from './fixture';

const KEY = 'sk-cli-secret-never-printed';

describe('compactlab summarize', () => {
  const dir = mkdtempSync(join(tmpdir(), 'compactlab-cli-'));
  const file = join(dir, 'session.jsonl');
  const server = createMockServer({ chunkDelayMs: 0 });
  let baseUrl = '';
  beforeAll(async () => {
    writeFileSync(file, createFixtureText());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  async function run(args: string[]): Promise<{ code: number; text: string }> {
    const lines: string[] = [];
    const code = await main(['summarize', file, ...args], (t) => lines.push(t));
    return { code, text: lines.join('\n') };
  }

  it('prints the span, the request, the built-in summary and its retention score', async () => {
    const { code, text } = await run(['--at', 'c0']);
    expect(code).toBe(0);
    expect(text).toMatch(/^Span: compaction 1 \(auto\)/);
    expect(text).toContain('Request: preset claude-code-full');
    expect(text).toContain('Summarizer: builtin');
    expect(text).toContain(LAST_REQUEST);
    expect(text).toMatch(/retention: \d+\/\d+ facts kept/);
  });

  it('--json gives the request, summary, tokens and per-fact matches', async () => {
    const { code, text } = await run(['--at', '2', '--preset', 'codex', '--json']);
    expect(code).toBe(0);
    const json = JSON.parse(text);
    expect(json.span.point).toEqual({ kind: 'api-call', apiCallIndex: 2 });
    expect(json.request.prompt).toContain('CONTEXT CHECKPOINT COMPACTION');
    expect(json.summary.tokens).toBeGreaterThan(0);
    expect(json.retention.facts.every((f: { match: string }) => typeof f.match === 'string')).toBe(true);
  });

  it('calls the Anthropic API with the key from the environment and never prints it', async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', KEY);
    try {
      const { code, text } = await run([
        '--at',
        'c0',
        '--summarizer',
        'anthropic',
        '--base-url',
        baseUrl,
        '--json',
      ]);
      expect(code).toBe(0);
      expect(text).not.toContain(KEY);
      expect(JSON.parse(text).summary.usage.inputTokens).toBeGreaterThan(0);
      expect(server.requests.at(-1)!.hasAuthorization).toBe(true);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('reports an API failure in words and exits 1', async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', KEY);
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const { code } = await run([
        '--at',
        'c0',
        '--summarizer',
        'anthropic',
        '--model',
        'mock-401',
        '--base-url',
        baseUrl,
      ]);
      expect(code).toBe(1);
      const written = stderr.mock.calls.map((c) => String(c[0])).join('');
      expect(written).toMatch(/rejected the API key \(401/);
      expect(written).not.toContain(KEY);
    } finally {
      stderr.mockRestore();
      vi.unstubAllEnvs();
    }
  });

  it("the recorded summarizer returns the transcript's own summary", async () => {
    const { code, text } = await run(['--at', 'c0', '--summarizer', 'recorded', '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(text).summary.text).toContain('make the build pass; add --verbose to src/cli.ts');
  });
});

// A real session (the corpus's 05541cb5, compaction 5: the summary of compaction 4 and the 182
// messages after it) through both providers' mocks, and a malformed answer quoting the key, run
// as a user runs the command (its own process: what it writes to stderr is all there is to see).
const REAL = corpusFiles((f) => /05541cb5-fe43-41c9-87ef-2a6d89bba271\.jsonl$/.test(f))[0];
const BIN = join(__dirname, '../../bin/compactlab.cjs');

describe.skipIf(!corpusOrSkip('compactlab summarize on a real session') || !REAL)(
  'compactlab summarize on a real session',
  () => {
    const anthropic = createMockServer({ chunkDelayMs: 0 });
    const openai = createOpenAiMock({ chunkDelayMs: 0 });
    const dir = mkdtempSync(join(tmpdir(), 'compactlab-cli-real-'));
    const promptFile = join(dir, 'prompt.md');
    const PROMPT = 'Summarize the span in five lines. Name every file path.';
    const urls = { anthropic: '', openai: '' };
    beforeAll(async () => {
      writeFileSync(promptFile, PROMPT);
      await new Promise<void>((resolve) => anthropic.listen(0, '127.0.0.1', resolve));
      await new Promise<void>((resolve) => openai.listen(0, '127.0.0.1', resolve));
      urls.anthropic = `http://127.0.0.1:${(anthropic.address() as AddressInfo).port}`;
      urls.openai = `http://127.0.0.1:${(openai.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      rmSync(dir, { recursive: true, force: true });
      await new Promise<void>((resolve) => anthropic.close(() => resolve()));
      await new Promise<void>((resolve) => openai.close(() => resolve()));
    });

    async function runBin(args: string[], env: Record<string, string>) {
      const child = spawn(process.execPath, [BIN, 'summarize', REAL!, ...args], {
        env: { ...process.env, ...env },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => {
        stdout += d;
      });
      child.stderr.on('data', (d) => {
        stderr += d;
      });
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      return { code, stdout, stderr };
    }

    it('sends the span the log replaced and the prompt file to each provider; the key never printed', async () => {
      const json = await runBin(
        [
          '--at',
          'c4',
          '--prompt-file',
          promptFile,
          '--summarizer',
          'anthropic',
          '--base-url',
          urls.anthropic,
          '--json',
        ],
        { ANTHROPIC_API_KEY: KEY },
      );
      expect(json.code, json.stderr).toBe(0);
      expect(json.stdout + json.stderr).not.toContain(KEY);
      const out = JSON.parse(json.stdout);
      expect(out.span.label).toBe('compaction 5 (auto) at line 411');
      expect(out.request.messages).toHaveLength(183);
      const sent = anthropic.requests.at(-1)!.body as { messages: { content: unknown }[] };
      expect(sent.messages).toHaveLength(183 + 1);
      expect(sent.messages.at(-1)!.content).toEqual([{ type: 'text', text: PROMPT }]);
      expect(out.summary.usage.inputTokens).toBeGreaterThan(0);

      const local = await runBin(
        ['--at', 'c4', '--prompt-file', promptFile, '--summarizer', 'openai', '--base-url', urls.openai],
        { OPENAI_API_KEY: KEY },
      );
      expect(local.code, local.stderr).toBe(0);
      expect(local.stdout).toMatch(/^Span: compaction 5 \(auto\) at line 411 — entries 50–409, 183 messages/);
      expect(local.stdout).toMatch(/─── retention: \d+\/\d+ facts kept/);
      expect(local.stdout + local.stderr).not.toContain(KEY);
      const chat = openai.requests.at(-1)!.body as { messages: { role: string; content: string }[] };
      expect(chat.messages.at(-1)!.content.endsWith(PROMPT)).toBe(true);
    }, 60_000);

    it("the recorded summary carries its call's figures from the log; its chars and tokens agree", async () => {
      // Compaction 5's boundary, read here without the engine.
      const boundaries = readFileSync(REAL!, 'utf8')
        .split('\n')
        .filter((l) => l.includes('"compact_boundary"'))
        .map((l) => JSON.parse(l) as { compactMetadata: { preTokens: number } });
      expect(boundaries[4]!.compactMetadata.preTokens).toBe(170_115);
      const lines: string[] = [];
      expect(
        await main(['summarize', REAL!, '--at', 'c4', '--summarizer', 'recorded'], (t) => lines.push(t)),
      ).toBe(0);
      const text = lines.join('\n');
      // It said "in 0 / out 3,312" and "13,026 chars · 3,312 tokens (chars / 4)": no figure of the
      // log, and the tokens of the summary before its secrets were masked, the chars after.
      expect(text).toMatch(
        /^Summarizer: recorded · model recorded · 0 ms · in 170,115 \/ out [\d,]+ tokens$/m,
      );
      const [, chars, tokens] = /^Summary: ([\d,]+) chars · ([\d,]+) tokens \(chars \/ 4\)$/m.exec(text)!;
      const n = (s: string) => Number(s.replace(/,/g, ''));
      expect(n(tokens!)).toBe(Math.round(n(chars!) / 4));
    });

    it.each([
      ['anthropic', 'ANTHROPIC_API_KEY', /^compactlab summarize: Anthropic sent an event that is not JSON/],
      [
        'openai',
        'OPENAI_API_KEY',
        /^compactlab summarize: OpenAI-compatible server sent an event that is not JSON.*"proxy":"key \[REDACTED:[\w-]+\]"/,
      ],
    ])(
      '%s: a malformed event quoting the key is said in words and exits 1; the key on neither stream',
      async (kind, envName, message) => {
        const { code, stdout, stderr } = await runBin(
          [
            '--at',
            'c4',
            '--summarizer',
            kind,
            '--model',
            'mock-malformed-stream',
            '--base-url',
            urls[kind as 'anthropic' | 'openai'],
          ],
          { [envName]: KEY },
        );
        expect(code).toBe(1);
        expect(stderr).toMatch(message);
        // The Anthropic SDK wrote the raw event (the key in it) to stderr.
        expect(stdout + stderr).not.toContain(KEY);
        expect(stderr.trim().split('\n')).toHaveLength(1);
      },
      60_000,
    );
  },
);
