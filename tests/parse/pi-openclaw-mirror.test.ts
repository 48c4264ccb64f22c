import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeFileSource } from '../../src/cli/node-source';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { REAL_LOGS } from '../helpers/corpus';

// OpenClaw mirrors into a session what it delivered to a chat channel for it: an assistant message
// of model "delivery-mirror" with all-zero usage (provider "dna" in its source,
// openclaw/openclaw@013c24e74a262690bbe83a479f03f50404a8ef13:src/config/sessions/transcript.ts:70-120;
// "clawdbot" or "openclaw" in real sessions). No request was made; each was read as an API call of
// context 0 (17 in the real sessions below). The reference is a plain count of their lines: an
// assistant message is a mirror, a failed request (error or abort, no usage) or a call.

interface Line {
  type?: string;
  message?: { role?: string; model?: string; stopReason?: string; usage?: Record<string, unknown> };
}

const used = (u: Record<string, unknown> | undefined) =>
  ['input', 'output', 'cacheRead', 'cacheWrite'].reduce((n, k) => n + (Number(u?.[k]) || 0), 0);

function plainCount(file: string) {
  const answers = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Line)
    .filter((l) => l.type === 'message' && l.message?.role === 'assistant')
    .map((l) => l.message!);
  const mirrors = answers.filter((m) => m.model === 'delivery-mirror' && used(m.usage) === 0).length;
  const failed = answers.filter(
    (m) => (m.stopReason === 'error' || m.stopReason === 'aborted') && used(m.usage) === 0,
  ).length;
  return { mirrors, failed, calls: answers.length - mirrors - failed };
}

const CASES: [string, { mirrors: number; failed: number; calls: number }][] = [
  [
    'Musk-fanX__openclaw-backup/agents/main/sessions/676ff86e-7673-4625-92e4-a7b5a6454395.jsonl',
    { mirrors: 7, failed: 0, calls: 233 },
  ],
  [
    'Musk-fanX__openclaw-backup/agents/main/sessions/027da24a-c5e8-42b3-919b-0bcc93b98ce8.jsonl',
    { mirrors: 1, failed: 18, calls: 154 },
  ],
  [
    'Musk-fanX__openclaw-backup/agents/main/sessions/b4c26dcb-b630-4911-8f01-5b463210db72.jsonl',
    { mirrors: 1, failed: 4, calls: 208 },
  ],
  [
    'ReinforcementSleeping__openclaw-backup/agents/anuo/sessions/0139686e-bbb1-4d89-8ef1-936bb36dd277.jsonl',
    { mirrors: 9, failed: 4, calls: 405 },
  ],
].map(([name, count]) => [name as string, count as { mirrors: number; failed: number; calls: number }]);

const present = CASES.every(([name]) => existsSync(join(REAL_LOGS, name)));
if (!present)
  console.warn('the OpenClaw delivery-mirror test over real sessions is skipped: .real-logs is not restored');

describe.skipIf(!present)('pi: OpenClaw delivery mirrors are no API call (real sessions)', () => {
  it.each(CASES)('%s', async (name, count) => {
    const file = join(REAL_LOGS, name);
    expect(plainCount(file)).toEqual(count);
    const session = await parseSession([createNodeFileSource(file)]);
    expect(session.apiCalls.length).toBe(count.calls);
    expect(session.failedRequests?.length ?? 0).toBe(count.failed);
    expect(session.meta.models).not.toContain('delivery-mirror');
  });
});

describe('pi: an OpenClaw delivery mirror (written from its source)', () => {
  const zero = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 };
  const lines = [
    { type: 'session', version: 3, id: 's1', timestamp: '2026-03-05T13:54:01.942Z', cwd: '/w' },
    {
      type: 'message',
      id: 'a1',
      parentId: null,
      timestamp: '2026-03-05T13:54:05.000Z',
      message: {
        role: 'assistant',
        content: [{ type: 'text', text: 'Hi' }],
        provider: 'deepseek',
        model: 'deepseek-chat',
        usage: { input: 9000, output: 20, cacheRead: 0, cacheWrite: 0, totalTokens: 9020 },
        stopReason: 'stop',
      },
    },
    ...['dna', 'clawdbot', 'openclaw'].map((provider, i) => ({
      type: 'message',
      id: `m${i}`,
      parentId: i === 0 ? 'a1' : `m${i - 1}`,
      timestamp: `2026-03-05T13:55:0${i}.000Z`,
      message: {
        role: 'assistant',
        content: [{ type: 'text', text: 'Delivered' }],
        api: 'openai-responses',
        provider,
        model: 'delivery-mirror',
        usage: zero,
        stopReason: 'stop',
      },
    })),
  ];

  it('is in the transcript and is no call, whatever the gateway called itself', async () => {
    const text = lines.map((l) => JSON.stringify(l)).join('\n');
    const session = await parseSession([createMemorySource('s1.jsonl', text)]);
    expect(session.apiCalls).toHaveLength(1);
    expect(session.entries.filter((e) => e.model === 'delivery-mirror')).toHaveLength(3);
    expect(session.meta.models).toEqual(['deepseek-chat']);
  });
});
