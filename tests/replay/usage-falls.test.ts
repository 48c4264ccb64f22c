import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeFileSource } from '../../src/cli/node-source';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { getCallContext } from '../../src/engine/query/usage-coverage';
import { computeReplay } from '../../src/engine/replay/compute-replay';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { sumTokenProvenance } from '../../src/engine/replay/provenance';
import { STRATEGIES } from '../../src/engine/strategies/registry';
import { getSessionInfo } from '../../src/engine/strategies/types';
import { CORPUS, corpusJsonl, corpusOrSkip, foreignFiles, REAL_LOGS } from '../helpers/corpus';

// Usage that falls between two calls with no record saying why (Codex's earlier reasoning and web
// search results no longer sent at a new turn) was left in the log's history priced per message:
// a replay whose own summary had replaced that content still lost the fall. On a real Codex
// rollout the call after the Anthropic SDK's third simulated compaction read −9,049 tokens (learn
// mode: "the next call reports −6,125 tokens, 29,821 under it"), and a real Gemini CLI chat, whose
// calls without usage were estimated at the system prompt alone, read −1,314,582. The falls are
// now the log's `usageFalls`, held by a history only while it holds what came before them.

const CODEX = join(
  CORPUS,
  'LAF-US__IDAHO-VAULT/codex__archived_sessions__rollout-2026-03-24T21-27-50-019d2308-c368-7ca0-8331-65a7d470352c.jsonl',
);
const GEMINI_NO_USAGE = join(
  REAL_LOGS,
  'fabien-lessirard__dotfiles/.gemini/tmp/dashboard-mictlan/chats/session-2026-02-23T08-58-c9da8256.json',
);

async function prepare(path: string) {
  const session = await parseSession([createNodeFileSource(path)]);
  return prepareReplay(session);
}

describe('the falls of the usage', () => {
  it.skipIf(!corpusOrSkip('usage falls') || !existsSync(CODEX))(
    'are not lost again after a simulated summary replaced what fell (real Codex rollout)',
    async () => {
      const prepared = await prepare(CODEX);
      // The third compaction of the SDK's replay: call 67; the log's usage fell by 29,301 at call 68.
      expect(prepared.recorded[66]! - prepared.recorded[67]!).toBe(29_301);
      const result = computeReplay(prepared, 'anthropic-sdk-compaction', {}, { summaryModel: 'ratio' });
      const third = result.events.filter((e) => e.kind === 'compact')[2]!;
      expect(third.afterApiCall + 1).toBe(67);
      // The next call starts from the context after (it read −9,049 under a 20,772 after).
      expect(result.simulatedTokens[third.afterCallPos + 1]).toBeCloseTo(third.postTokens, 6);
      expect(third.postTokens).toBeGreaterThan(20_000);
    },
  );

  it.skipIf(!corpusOrSkip('usage falls'))(
    'leave no simulated context below 0, and every event’s parts sum to its figures (corpus, every strategy)',
    async () => {
      const files = [...corpusJsonl(), ...foreignFiles().filter((f) => /\.jsonl?$/.test(f))].filter(
        (f) => !/manifest\.json$|logs\.json$/.test(f),
      );
      let replays = 0;
      let falls = 0;
      for (const file of files) {
        const prepared = await prepare(file);
        if (prepared.calls.length < 2) continue;
        falls += prepared.usageFalls.pos.length;
        for (const strategy of STRATEGIES) {
          const { knobs } = strategy.getSessionKnobs(getSessionInfo(prepared));
          const result = computeReplay(prepared, strategy.id, knobs, { summaryModel: 'ratio' });
          const where = `${basename(file)} ${strategy.id}`;
          expect(Math.min(...result.simulatedTokens), where).toBeGreaterThanOrEqual(0);
          for (const e of result.events) {
            const at = `${where} ${e.kind} after call ${e.afterApiCall + 1}`;
            expect(Math.abs(sumTokenProvenance(e.preSource) - e.preTokens), `${at} before`).toBeLessThan(
              1e-6,
            );
            expect(Math.abs(sumTokenProvenance(e.postSource) - e.postTokens), `${at} after`).toBeLessThan(
              1e-6,
            );
          }
          replays++;
        }
      }
      expect(replays).toBeGreaterThan(300);
      // The corpus has falls to hold (the point of the test).
      expect(falls).toBeGreaterThan(20);
    },
    300_000,
  );
});

describe('a call without usage in a log without a uuid tree', () => {
  // A generated Gemini CLI chat: its third answer records no `tokens`.
  const text = 'x'.repeat(40_000);
  const chat = {
    sessionId: 's',
    projectHash: 'p',
    startTime: '2026-01-01T00:00:00.000Z',
    lastUpdated: '2026-01-01T00:10:00.000Z',
    messages: [
      { id: 'u1', timestamp: '2026-01-01T00:00:00.000Z', type: 'user', content: text },
      {
        id: 'g1',
        timestamp: '2026-01-01T00:01:00.000Z',
        type: 'gemini',
        content: 'ok',
        model: 'gemini-2.5-pro',
        tokens: { input: 12_000, output: 10, cached: 0, thoughts: 0, tool: 0, total: 12_010 },
      },
      { id: 'u2', timestamp: '2026-01-01T00:02:00.000Z', type: 'user', content: text },
      {
        id: 'g2',
        timestamp: '2026-01-01T00:03:00.000Z',
        type: 'gemini',
        content: 'ok',
        model: 'gemini-2.5-pro',
      },
      { id: 'u3', timestamp: '2026-01-01T00:04:00.000Z', type: 'user', content: 'go on' },
      {
        id: 'g3',
        timestamp: '2026-01-01T00:05:00.000Z',
        type: 'gemini',
        content: 'ok',
        model: 'gemini-2.5-pro',
        tokens: { input: 22_100, output: 10, cached: 0, thoughts: 0, tool: 0, total: 22_110 },
      },
    ],
  };

  it('is estimated from the messages before it in file order, not the system prompt alone', async () => {
    const session = await parseSession([
      createMemorySource('session-2026-01-01T00-00-abcdef12.json', JSON.stringify(chat)),
    ]);
    expect(session.apiCalls).toHaveLength(3);
    const estimate = getCallContext(session, 1);
    expect(estimate.estimated).toBe(true);
    // Two 10,000-token user messages and an answer, over a base of 2,000: it read 2,000.
    expect(estimate.tokens).toBeGreaterThan(20_000);
    const prepared = prepareReplay(session);
    expect(Math.min(...prepared.recorded)).toBeGreaterThan(10_000);
  });

  // After a compression the chat keeps every message, and the notice is the context's restart:
  // the messages since it alone put a call without usage at 10,575 between calls of 171,019 and
  // 171,127 (the real chat below). It continues from the last call with usage instead.
  it('after a compression, continues from the last call that has usage', async () => {
    const big = 'y'.repeat(400_000);
    const answer = (id: string, minute: number, input?: number) => ({
      id,
      timestamp: `2026-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`,
      type: 'gemini',
      content: 'ok',
      model: 'gemini-2.5-pro',
      ...(input === undefined
        ? {}
        : { tokens: { input, output: 10, cached: 0, thoughts: 0, tool: 0, total: input + 10 } }),
    });
    const user = (id: string, minute: number, content: string) => ({
      id,
      timestamp: `2026-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`,
      type: 'user',
      content,
    });
    const compressed = {
      ...chat,
      messages: [
        user('u1', 0, big),
        answer('g1', 1, 102_000),
        {
          id: 'i1',
          timestamp: '2026-01-01T00:02:00.000Z',
          type: 'info',
          content:
            'IMPORTANT: This conversation exceeded the compress threshold. A compressed context will be sent for future messages (compressed from: 102010 to 60000 tokens)',
        },
        user('u2', 3, 'go on'),
        answer('g2', 4, 60_100),
        user('u3', 5, 'x'.repeat(4_000)),
        answer('g3', 6),
        user('u4', 7, 'more'),
        answer('g4', 8, 61_300),
      ],
    };
    const session = await parseSession([
      createMemorySource('session-2026-01-01T00-00-abcdef13.json', JSON.stringify(compressed)),
    ]);
    expect(session.compactions).toHaveLength(1);
    expect(session.apiCalls).toHaveLength(4);
    const estimate = getCallContext(session, 2);
    expect(estimate.estimated).toBe(true);
    // 60,100 at the call before, plus its answer and the 1,000-token message since.
    expect(estimate.tokens).toBeGreaterThan(61_000);
    expect(estimate.tokens).toBeLessThan(61_300);
  });

  it.skipIf(!existsSync(GEMINI_NO_USAGE))(
    'reads a real Gemini CLI chat’s 21 messages without usage as no calls (holders of cancelled tool calls)',
    async () => {
      const session = await parseSession([
        createMemorySource(basename(GEMINI_NO_USAGE), readFileSync(GEMINI_NO_USAGE)),
      ]);
      // They were estimated as calls (the 12th between 16,581 and 17,007); each follows "Request
      // cancelled." and holds only the cancelled tool calls (tests/parse/gemini-cancelled-tools.test.ts).
      expect(session.apiCalls).toHaveLength(332);
      expect(session.apiCalls.every((_, i) => !getCallContext(session, i).estimated)).toBe(true);
      const prepared = prepareReplay(session);
      for (const strategy of STRATEGIES) {
        const { knobs } = strategy.getSessionKnobs(getSessionInfo(prepared));
        const result = computeReplay(prepared, strategy.id, knobs, { summaryModel: 'ratio' });
        expect(Math.min(...result.simulatedTokens), strategy.id).toBeGreaterThanOrEqual(0);
      }
    },
  );
});
