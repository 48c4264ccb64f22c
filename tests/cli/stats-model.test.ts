import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer } from '../../mock/openai-mock.mjs';
import { generateSession } from '../../sample/generate-session';
import { runCli } from '../helpers/run-cli';

// `compactlab stats --strategy … --retention --retention-summarizer openai` against the local
// OpenAI-compatible mock: the plan sends nothing and stops without --yes; with it, the calls it
// counted are made and scored; a second run answers from the on-disk cache; a key the server
// echoes back is masked in everything printed.

const root = mkdtempSync(join(tmpdir(), 'compactlab-stats-model-'));
for (let i = 0; i < 2; i++) {
  const generated = generateSession({ seed: 60 + i, apiCalls: 240 });
  for (const f of generated.files) {
    const p = join(root, 'projects', `p${i}`, f.name);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, f.text);
  }
}
const cache = join(root, 'cache');
const KEY = 'sk-test-openai-key-not-real-0123456789';
const server = createMockServer({ chunkDelayMs: 0 });
let url = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function run(extra: string[]): Promise<{ code: number; out: string; err: string }> {
  const previous = process.env.OPENAI_API_KEY;
  process.env.OPENAI_API_KEY = KEY;
  try {
    const args = [
      'stats',
      join(root, 'projects'),
      '--strategy',
      'claude-code',
      '--knob',
      'autocompactPctOverride=60',
    ];
    const base = [
      '--retention',
      '--retention-summarizer',
      'openai',
      '--base-url',
      url,
      '--summary-cache',
      cache,
    ];
    const { code, text, err } = await runCli([...args, ...base, ...extra]);
    return { code, out: text, err };
  } finally {
    if (previous === undefined) delete process.env.OPENAI_API_KEY;
    else process.env.OPENAI_API_KEY = previous;
  }
}

describe('stats --retention-summarizer', () => {
  it('plans, calls with --yes, then answers from the cache', async () => {
    const plan = await run(['--retention-model', 'mock-model']);
    expect(plan.code).toBe(2);
    expect(server.requests).toHaveLength(0);
    const calls = Number(/(\d+) summary calls to mock-model/.exec(plan.err)?.[1]);
    expect(calls).toBeGreaterThan(1);
    expect(plan.err).toContain('add --yes');
    expect(plan.out).toBe('');

    const made = await run(['--retention-model', 'mock-model', '--yes']);
    expect(made.code).toBe(0);
    expect(server.requests.filter((r) => r.path === '/v1/chat/completions')).toHaveLength(calls);
    const total = JSON.parse(made.out.trim().split('\n').at(-1)!);
    expect(total).toMatchObject({
      row: 'total',
      retentionModel: 'mock-model',
      retentionCalls: calls,
      retentionCallsFailed: 0,
    });
    expect(total.retention).toBeGreaterThan(0);
    expect(readdirSync(cache).filter((f) => f.endsWith('.txt'))).toHaveLength(calls);

    const again = await run(['--retention-model', 'mock-model']);
    expect(again.code).toBe(0);
    expect(again.err).toContain(`no summary call to make: the ${calls} answers are in the cache`);
    expect(server.requests.filter((r) => r.path === '/v1/chat/completions')).toHaveLength(calls);
    expect(JSON.parse(again.out.trim().split('\n').at(-1)!)).toEqual(total);
  });

  it('reports failed calls per compaction and masks a key the server echoes', async () => {
    const failed = await run(['--retention-model', 'mock-echo-key', '--yes', '--sessions']);
    expect(failed.code).toBe(0);
    expect(failed.err).toMatch(/replay compaction 1 after API call \d+: the call failed, not scored/);
    expect(failed.err).toContain('[REDACTED:env-secret]');
    expect(failed.err + failed.out).not.toContain(KEY);
    const total = JSON.parse(failed.out.trim().split('\n').at(-1)!);
    expect(total.retentionCallsFailed).toBe(total.retentionCalls);
    const echoed = await run(['--retention-model', 'mock-echo-summary', '--yes', '--csv', '--sessions']);
    expect(echoed.code).toBe(0);
    expect(echoed.err + echoed.out).not.toContain(KEY);
    expect(readdirSync(cache).length).toBeGreaterThan(0);
  });
});
