import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer as createAnthropicMock } from '../../mock/anthropic-mock.mjs';
import { createMockServer as createOpenAiMock } from '../../mock/openai-mock.mjs';
import { generateSession } from '../../sample/generate-session';
import { computeReplayErosion } from '../../src/engine/erosion/erosion';
import { hashSummaryRequest, type ModelStepOptions } from '../../src/engine/erosion/model-step';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { computeReplay } from '../../src/engine/replay/compute-replay';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { computeSettingRows, type SettingsModel, SettingTotals } from '../../src/engine/stats/setting-rows';
import { getStrategy } from '../../src/engine/strategies/registry';
import { getSessionInfo } from '../../src/engine/strategies/types';
import { createAnthropicSummarizer } from '../../src/engine/summarize/anthropic';
import { createOpenAiSummarizer } from '../../src/engine/summarize/openai-compatible';
import type { Summarizer, SummaryRequest } from '../../src/engine/summarize/types';
import { ABORT_ERROR, type WhatIfCall, type WhatIfProgress } from '../../src/worker/protocol';
import { WHATIF_HANDLERS } from '../../src/worker/whatif-handlers';

// Retention on a real model's summaries, against the local protocol mocks: each replayed
// compaction's request (the one it would send) goes to the server, its answer is scored by the
// same scorer; a failed call leaves that step unscored and the rest scored; a cancel aborts the
// call in flight; a cache by request hash answers a second run without a call; the worker asks
// the page for each summary and waits for its answer.

const generated = generateSession({ seed: 7, apiCalls: 300 });
const files = generated.files.map((f) => ({ name: f.name, text: f.text }));
const sources = () => files.map((f) => createMemorySource(f.name, new TextEncoder().encode(f.text)));
const SPEC = {
  strategyId: 'claude-code',
  overrides: {},
  sweep: { knob: 'autocompactPctOverride', values: [50] },
  retention: true,
};

async function replayEvents() {
  const session = await parseSession(sources());
  const strategy = getStrategy('claude-code');
  const prepared = prepareReplay(session);
  const { knobs } = strategy.getSessionKnobs(getSessionInfo(prepared));
  const result = computeReplay(
    prepared,
    strategy.id,
    strategy.normalizeKnobs({ autocompactPctOverride: 50 }, knobs),
  );
  return { session, events: result.events };
}

async function listen(server: ReturnType<typeof createOpenAiMock>): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A model hook over a summarizer, with an optional cache by request hash. */
function viaSummarizer(
  summarizer: Summarizer,
  model: string,
  options: {
    cache?: Map<string, string>;
    signal?: AbortSignal;
    rename?: (step: number) => string | undefined;
  } = {},
): ModelStepOptions & { calls: SummaryRequest[] } {
  const calls: SummaryRequest[] = [];
  return {
    model,
    calls,
    summarize: async (request, info) => {
      expect(info.hash).toBe(await hashSummaryRequest(request));
      const cached = options.cache?.get(info.hash);
      if (cached !== undefined) return cached;
      const sent = { ...request, model: options.rename?.(info.step) ?? request.model };
      calls.push(sent);
      const result = await summarizer.summarize(sent, { signal: options.signal });
      options.cache?.set(info.hash, result.text);
      return result.text;
    },
  };
}

describe('retention on a local OpenAI-compatible server', () => {
  const server = createOpenAiMock();
  let baseUrl = '';
  beforeAll(async () => {
    baseUrl = await listen(server);
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends each compaction its own request and scores the answers', async () => {
    const { session, events } = await replayEvents();
    const compactions = events.filter((e) => e.kind === 'compact').length;
    expect(compactions, 'the replay compacts more than once').toBeGreaterThan(1);
    const before = server.requests.length;
    const model = viaSummarizer(createOpenAiSummarizer({ baseUrl }), 'mock-model');
    const chain = await computeReplayErosion(session, sources(), events, 'claude-code', { model });
    expect(server.requests.length - before).toBe(compactions);
    expect(chain.modelSteps).toBe(compactions);
    expect(chain.failures).toEqual([]);
    expect(chain.steps.every((s) => s.summarySource === 'model')).toBe(true);
    // What the server received: the span, then the compaction's prompt as the last user message.
    const first = server.requests.at(before)!.body as { messages: { role: string; content: unknown }[] };
    const last = first.messages.at(-1)!;
    expect(JSON.stringify(last.content)).toContain('Your task is to create a detailed summary');
    // The 2nd request opens with the 1st answer (cleaned), as the continuation would carry it.
    expect(JSON.stringify(model.calls[1]!.messages[0])).toContain('summarized by the local mock server');
    // Scored by the retention scorer: the mock keeps file paths, so some facts are kept, most lost.
    const end = chain.steps.at(-1)!;
    expect(end.total).toBeGreaterThan(10);
    expect(end.kept).toBeGreaterThan(0);
    expect(end.kept).toBeLessThan(end.total);
    // Differs from the built-in summarizer's chain over the same events.
    const builtin = await computeReplayErosion(session, sources(), events, 'claude-code');
    expect(builtin.steps.every((s) => s.summarySource === 'builtin')).toBe(true);
    expect(builtin.steps.at(-1)!.kept).not.toBe(end.kept);
  });

  it('reports a failed call for its compaction and scores the others', async () => {
    const { session, events } = await replayEvents();
    const compactions = events.filter((e) => e.kind === 'compact').length;
    const model = viaSummarizer(createOpenAiSummarizer({ baseUrl }), 'mock-model', {
      rename: (step) => (step === 1 ? 'mock-503' : undefined),
    });
    const chain = await computeReplayErosion(session, sources(), events, 'claude-code', { model });
    expect(chain.failures).toHaveLength(1);
    expect(chain.failures![0]!.label).toMatch(/^replay compaction 2 after API call \d+$/);
    expect(chain.failures![0]!.error).toMatch(/503|overloaded/i);
    expect(chain.steps).toHaveLength(compactions - 1);
    expect(chain.modelSteps).toBe(compactions - 1);
    // The failed span's facts are checked by the next step: its facts stay in the pool (extracted
    // over the two spans joined, a fact split at their boundary may read differently: within 2%).
    const ok = await computeReplayErosion(session, sources(), events, 'claude-code', {
      model: viaSummarizer(createOpenAiSummarizer({ baseUrl }), 'mock-model'),
    });
    const pooled = chain.steps.at(-1)!.total;
    expect(Math.abs(pooled - ok.steps.at(-1)!.total)).toBeLessThanOrEqual(ok.steps.at(-1)!.total * 0.02);
    expect(pooled).toBeGreaterThan(ok.steps.at(-2)!.total);
  });

  it('answers a second run from the cache: no call', async () => {
    const cache = new Map<string, string>();
    const first = await computeSettingRows('s.jsonl', sources(), SPEC, undefined, pageModel(cache));
    const before = server.requests.length;
    const second = await computeSettingRows('s.jsonl', sources(), SPEC, undefined, pageModel(cache));
    expect(server.requests.length).toBe(before);
    expect(second).toEqual(first);
    expect(first[0]!.retentionModel).toBe('mock-model');
    expect(first[0]!.retentionCalls).toBeGreaterThan(1);
    expect(first[0]!.retentionCallsFailed).toBe(0);
    expect(cache.size).toBe(first[0]!.retentionCalls);
    // Totals carry the model and the calls; a built-in run has neither.
    const totals = new SettingTotals(SPEC, 'x', 'mock-model');
    totals.add(first);
    expect(totals.rows()[0]).toMatchObject({
      retentionModel: 'mock-model',
      retentionCalls: first[0]!.retentionCalls,
    });
    const builtin = await computeSettingRows('s.jsonl', sources(), SPEC);
    expect(builtin[0]!.retentionModel).toBeUndefined();
    const builtinTotals = new SettingTotals(SPEC, 'x');
    builtinTotals.add(builtin);
    expect(builtinTotals.rows()[0]).not.toHaveProperty('retentionCalls');

    function pageModel(c: Map<string, string>): SettingsModel {
      const hook = viaSummarizer(createOpenAiSummarizer({ baseUrl }), 'mock-model', { cache: c });
      return { model: 'mock-model', summarize: (request, info) => hook.summarize(request, info) };
    }
  });

  it('goes through the worker: each summary asked of the page, answered, scored', async () => {
    const summarizer = createOpenAiSummarizer({ baseUrl });
    const sessions = [
      { file: 'gen.jsonl', files: files.map((f) => ({ name: f.name, blob: new Blob([f.text]) })) },
    ];
    const asked: WhatIfCall['call'][] = [];
    const progress: WhatIfProgress[] = [];
    const reply = await WHATIF_HANDLERS['library-whatif'](
      { kind: 'library-whatif', sessions, spec: SPEC, model: { model: 'mock-model', runId: 'r1' } },
      {
        state: {},
        signal: new AbortController().signal,
        onProgress: (p) => {
          if (!('call' in p)) {
            progress.push(p);
            return;
          }
          asked.push(p.call);
          // The page answers: the 3rd call fails.
          void summarizer.summarize(p.call.request).then((r) =>
            WHATIF_HANDLERS['library-whatif-answer'](
              {
                kind: 'library-whatif-answer',
                runId: 'r1',
                callId: p.call.callId,
                ...(asked.length === 3 ? { error: 'HTTP 500 from the server' } : { text: r.text }),
              },
              { state: {}, signal: new AbortController().signal, onProgress: () => {} },
            ),
          );
        },
      },
    );
    expect(asked.length).toBeGreaterThan(2);
    expect(asked[0]!.info).toMatchObject({
      file: 'gen.jsonl',
      setting: 'autocompactPctOverride=50',
      step: 0,
    });
    const total = reply.result.totals[0]!;
    expect(total).toMatchObject({
      retentionModel: 'mock-model',
      retentionCalls: asked.length,
      retentionCallsFailed: 1,
    });
    expect(total.retention).toBeGreaterThan(0);
    expect(progress.at(-1)!.rows[0]!.retentionCallsFailed).toBe(1);
  });
});

describe('retention on the Anthropic API (local mock)', () => {
  const server = createAnthropicMock({ chunkDelayMs: 1 });
  let baseUrl = '';
  beforeAll(async () => {
    baseUrl = await listen(server);
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('scores each compaction on the model’s answer; the key is sent, not kept', async () => {
    const { session, events } = await replayEvents();
    const compactions = events.filter((e) => e.kind === 'compact').length;
    const key = 'sk-ant-test-key-not-real-0123456789';
    const model = viaSummarizer(createAnthropicSummarizer({ apiKey: key, baseUrl }), 'claude-sonnet-4-6');
    const before = server.requests.length;
    const chain = await computeReplayErosion(session, sources(), events, 'claude-code', { model });
    expect(server.requests.length - before).toBe(compactions);
    expect(server.requests.slice(before).every((r) => r.hasAuthorization || r.path === '/v1/messages')).toBe(
      true,
    );
    expect(chain.modelSteps).toBe(compactions);
    expect(chain.steps.at(-1)!.kept).toBeGreaterThan(0);
    expect(JSON.stringify(chain)).not.toContain(key);
  });

  it('cancel mid-run aborts the call in flight and ends the chain', async () => {
    const { session, events } = await replayEvents();
    const controller = new AbortController();
    let steps = 0;
    const slow = createAnthropicSummarizer({ apiKey: 'k', baseUrl });
    const model: ModelStepOptions = {
      model: 'mock-slow',
      summarize: async (request, info) => {
        steps = info.step + 1;
        if (info.step === 1) setTimeout(() => controller.abort(), 300);
        const sent = { ...request, model: info.step === 0 ? 'claude-sonnet-4-6' : 'mock-slow' };
        return (await slow.summarize(sent, { signal: controller.signal })).text;
      },
    };
    const t0 = Date.now();
    const running = computeReplayErosion(session, sources(), events, 'claude-code', {
      model,
      signal: controller.signal,
    });
    await expect(running).rejects.toThrow();
    expect(steps).toBe(2);
    // The slow stream (a chunk every 250 ms) was cut, not waited out.
    expect(Date.now() - t0).toBeLessThan(5_000);
  });

  it('a cancelled worker run ends while a call waits for the page', async () => {
    const controller = new AbortController();
    const sessions = [
      { file: 'gen.jsonl', files: files.map((f) => ({ name: f.name, blob: new Blob([f.text]) })) },
    ];
    const running = WHATIF_HANDLERS['library-whatif'](
      { kind: 'library-whatif', sessions, spec: SPEC, model: { model: 'm', runId: 'r2' } },
      {
        state: {},
        signal: controller.signal,
        onProgress: (p) => {
          if ('call' in p) controller.abort();
        },
      },
    );
    await expect(running).rejects.toSatisfy(
      (e: Error) => e.name === ABORT_ERROR || controller.signal.aborted,
    );
  });
});
