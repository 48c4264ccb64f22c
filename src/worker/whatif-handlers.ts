// The library's what-if: every listed session replayed under one strategy at each setting, with
// the code `compactlab stats --strategy` runs (engine/stats/setting-rows.ts), one session at a
// time. A session's rows and the running totals go back as progress, so the page draws them as
// they come and keeps what was done when the user cancels.
//
// With a model for the retention, each compaction's summary request goes to the page as a `call`
// progress and the chain waits for the page's `library-whatif-answer`: the page holds the key
// (it never comes here), makes the call, caches the answer.

import { PRICES_SEEN } from '../engine/cost/prices-seen';
import { getSweepValues, type SweepRange } from '../engine/replay/sweep';
import { computeSettingRows, type SettingsModel, SettingTotals } from '../engine/stats/setting-rows';
import { getStrategy } from '../engine/strategies/registry';
import { createBlobSource } from './blob-source';
import type { EngineHandlers } from './engine-host';
import type { EngineRequest, WhatIfCall } from './protocol';
import { expandDatabases } from './sqlite';

/** Lets the worker take its messages (a cancel) between two sessions. */
const yieldToEventLoop = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** The values of a swept range, as `stats --sweep` gives them; throws on a knob that is not a number. */
function getRangeValues(strategyId: string, range: SweepRange): number[] {
  const knob = getStrategy(strategyId).knobSpecs.find((k) => k.key === range.knob);
  if (knob?.kind !== 'number') throw new RangeError(`"${range.knob}" is not a numeric knob of ${strategyId}`);
  return getSweepValues(knob, range);
}

/** Calls waiting for the page's answer, by `runId:callId`. */
const waiting = new Map<string, { resolve: (text: string) => void; reject: (e: Error) => void }>();

/** The page's summarizer, as the engine's chain sees it: a call sent as progress, its answer awaited. */
function createPageModel(
  model: { model: string; runId: string },
  signal: AbortSignal,
  post: (call: WhatIfCall) => void,
): SettingsModel {
  let next = 0;
  return {
    model: model.model,
    summarize: (request, info) =>
      new Promise<string>((resolve, reject) => {
        signal.throwIfAborted();
        const callId = next++;
        const key = `${model.runId}:${callId}`;
        const onAbort = () => {
          waiting.delete(key);
          reject(signal.reason instanceof Error ? signal.reason : new Error('Cancelled'));
        };
        signal.addEventListener('abort', onAbort, { once: true });
        waiting.set(key, {
          resolve: (text) => {
            signal.removeEventListener('abort', onAbort);
            resolve(text);
          },
          reject: (e) => {
            signal.removeEventListener('abort', onAbort);
            reject(e);
          },
        });
        post({ call: { runId: model.runId, callId, request, info } });
      }),
  };
}

function answer(request: EngineRequest<'library-whatif-answer'>): boolean {
  const key = `${request.runId}:${request.callId}`;
  const pending = waiting.get(key);
  if (!pending) return false;
  waiting.delete(key);
  if (request.error !== undefined) pending.reject(new Error(request.error));
  else pending.resolve(request.text ?? '');
  return true;
}

export const WHATIF_HANDLERS: Pick<EngineHandlers, 'library-whatif' | 'library-whatif-answer'> = {
  'library-whatif': async (request, { signal, onProgress }) => {
    const t0 = performance.now();
    const { sessions, range } = request;
    const spec = range
      ? {
          ...request.spec,
          sweep: { knob: range.knob, values: getRangeValues(request.spec.strategyId, range) },
        }
      : request.spec;
    const model =
      request.model && spec.retention ? createPageModel(request.model, signal, onProgress) : undefined;
    const totals = new SettingTotals(spec, PRICES_SEEN, model?.model);
    for (const [i, s] of sessions.entries()) {
      await yieldToEventLoop();
      signal.throwIfAborted();
      let rows: Awaited<ReturnType<typeof computeSettingRows>> = [];
      let error: string | undefined;
      try {
        const sources = await expandDatabases(s.files.map((f) => createBlobSource(f.name, f.blob)));
        rows = await computeSettingRows(s.file, sources, spec, signal, model);
        totals.add(rows);
      } catch (e) {
        signal.throwIfAborted();
        error = e instanceof Error ? e.message : String(e);
        totals.addError();
      }
      onProgress({
        done: i + 1,
        total: sessions.length,
        file: s.file,
        rows,
        error,
        totals: totals.rows().map((t) => ({ ...t })),
      });
    }
    return { result: { totals: totals.rows(), computeMs: performance.now() - t0 } };
  },
  'library-whatif-answer': async (request) => ({ result: answer(request) }),
};
