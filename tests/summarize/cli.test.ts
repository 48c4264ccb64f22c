import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMockServer } from '../../mock/anthropic-mock.mjs';
import { main } from '../../src/cli/main';
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
