import { getPrintableUrl } from '../../engine/redact/printable-url';
import type { Summarizer } from '../../engine/summarize/types';
import { getEngineClient } from '../../worker/engine-client';
import type { WhatIfCall } from '../../worker/protocol';

// The what-if's retention written by a language model: the worker sends each compaction's request
// (`call` progress), the page answers it here — from the cache of answers by request hash, or by
// calling the configured API / local server with the key it holds (never sent to the worker,
// never stored). A plan run answers without calling (a stand-in per request), counting the calls and
// their estimated input, so the user reads what a run will cost before it is made.

/** The summarizer the user picked for the retention (built-in: none of this runs). */
export interface WhatIfModelConfig {
  kind: 'anthropic' | 'openai';
  model: string;
  baseUrl: string;
  /** In memory only: used for the call and dropped. */
  apiKey?: string;
}

/** What a plan counted. */
export interface WhatIfPlan {
  /** Calls the run will make (not answered from the cache). */
  calls: number;
  /** Calls the cache answers (or a call of the same run made for the same request). */
  cached: number;
  /** Claude Code's estimate (chars / 4) of the calls' input. */
  inputTokens: number;
  /** Their output cap, summed: the most they can write. */
  maxOutputTokens: number;
  /** USD of that input at the model's list price (absent: no list price for the model). */
  inputUsd?: number;
}

/** A call that failed, named by its session, setting and compaction. */
interface WhatIfCallFailure {
  file: string;
  setting: string;
  label: string;
  error: string;
}

/** A run's calls so far. */
export interface WhatIfCalls {
  model: string;
  /** Calls sent (answered, failed or in flight). */
  made: number;
  cached: number;
  failed: WhatIfCallFailure[];
  /** The call in flight (its compaction), if any. */
  current?: string;
}

/** The key masked out of what comes back (as the Summaries view does: summaries/run-controller.ts). */
const maskKey = (text: string, apiKey: string | undefined) =>
  apiKey ? text.split(apiKey).join('[REDACTED:env-secret]') : text;

/** Answers by summarizer (kind and printable URL) and request hash; the page's session long. */
const answers = new Map<string, string>();

const cacheKey = (config: WhatIfModelConfig, hash: string) =>
  `${config.kind}|${getPrintableUrl(config.baseUrl)}|${hash}`;

async function createModelSummarizer(config: WhatIfModelConfig): Promise<Summarizer> {
  if (config.kind === 'anthropic') {
    const { createAnthropicSummarizer } = await import('../../engine/summarize/anthropic');
    return createAnthropicSummarizer({ apiKey: config.apiKey ?? '', baseUrl: config.baseUrl });
  }
  const { createOpenAiSummarizer } = await import('../../engine/summarize/openai-compatible');
  return createOpenAiSummarizer({ baseUrl: config.baseUrl, apiKey: config.apiKey || undefined });
}

async function reply(call: WhatIfCall['call'], answer: { text?: string; error?: string }): Promise<void> {
  try {
    await getEngineClient().request({
      kind: 'library-whatif-answer',
      runId: call.runId,
      callId: call.callId,
      ...answer,
    });
  } catch {
    // The run was cancelled or the worker is gone: nobody waits for it.
  }
}

/**
 * Answers a plan's calls: the cached ones with their answer (so the chain goes on as the run
 * will), the others with a stand-in naming the request, counted once per distinct request.
 */
export function createPlanAnswerer(config: WhatIfModelConfig, plan: WhatIfPlan) {
  // A request seen before in this plan (two settings compacting alike) is answered by that call.
  const counted = new Set<string>();
  return (call: WhatIfCall['call']) => {
    const cached = answers.get(cacheKey(config, call.info.hash));
    if (cached !== undefined || counted.has(call.info.hash)) plan.cached++;
    else {
      counted.add(call.info.hash);
      plan.calls++;
      plan.inputTokens += call.info.estimatedTokens;
      plan.maxOutputTokens += call.request.maxOutputTokens;
      if (call.info.estimatedInputUsd !== undefined)
        plan.inputUsd = (plan.inputUsd ?? 0) + call.info.estimatedInputUsd;
    }
    // A stand-in per request: chains that differ go on differing, as their real answers will.
    void reply(call, { text: cached ?? `[summary of request ${call.info.hash}]` });
  };
}

/**
 * Answers a run's calls: from the cache, else by the model (`signal` aborts the call in flight);
 * a failure is answered as such (that step is not scored) and listed.
 */
export function createRunAnswerer(
  config: WhatIfModelConfig,
  calls: WhatIfCalls,
  signal: AbortSignal,
  onChange: () => void,
) {
  let summarizer: Promise<Summarizer> | undefined;
  return (call: WhatIfCall['call']) => {
    const key = cacheKey(config, call.info.hash);
    const cached = answers.get(key);
    if (cached !== undefined) {
      calls.cached++;
      onChange();
      void reply(call, { text: cached });
      return;
    }
    calls.current = `${call.info.file} · ${call.info.setting} · ${call.info.label}`;
    calls.made++;
    onChange();
    summarizer ??= createModelSummarizer(config);
    void summarizer
      .then((s) => s.summarize(call.request, { signal }))
      .then(
        (result) => {
          const text = maskKey(result.text, config.apiKey);
          answers.set(key, text);
          return { text };
        },
        (e: unknown) => {
          const error = maskKey(e instanceof Error ? e.message : String(e), config.apiKey);
          if (!signal.aborted)
            calls.failed.push({
              file: call.info.file,
              setting: call.info.setting,
              label: call.info.label,
              error,
            });
          return { error };
        },
      )
      .then((answer) => {
        calls.current = undefined;
        onChange();
        if (!signal.aborted) void reply(call, answer);
      });
  };
}
