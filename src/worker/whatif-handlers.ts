// The library's what-if: every listed session replayed under one strategy at each setting, with
// the code `compactlab stats --strategy` runs (engine/stats/setting-rows.ts), one session at a
// time. A session's rows and the running totals go back as progress, so the page draws them as
// they come and keeps what was done when the user cancels.

import { PRICES_SEEN } from '../engine/cost/prices-seen';
import { getSweepValues, type SweepRange } from '../engine/replay/sweep';
import { computeSettingRows, SettingTotals } from '../engine/stats/setting-rows';
import { getStrategy } from '../engine/strategies/registry';
import { createBlobSource } from './blob-source';
import type { EngineHandlers } from './engine-host';
import { expandDatabases } from './sqlite';

/** Lets the worker take its messages (a cancel) between two sessions. */
const yieldToEventLoop = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** The values of a swept range, as `stats --sweep` gives them; throws on a knob that is not a number. */
function getRangeValues(strategyId: string, range: SweepRange): number[] {
  const knob = getStrategy(strategyId).knobSpecs.find((k) => k.key === range.knob);
  if (knob?.kind !== 'number') throw new RangeError(`"${range.knob}" is not a numeric knob of ${strategyId}`);
  return getSweepValues(knob, range);
}

export const WHATIF_HANDLERS: Pick<EngineHandlers, 'library-whatif'> = {
  'library-whatif': async (request, { signal, onProgress }) => {
    const t0 = performance.now();
    const { sessions, range } = request;
    const spec = range
      ? {
          ...request.spec,
          sweep: { knob: range.knob, values: getRangeValues(request.spec.strategyId, range) },
        }
      : request.spec;
    const totals = new SettingTotals(spec, PRICES_SEEN);
    for (const [i, s] of sessions.entries()) {
      await yieldToEventLoop();
      signal.throwIfAborted();
      let rows: Awaited<ReturnType<typeof computeSettingRows>> = [];
      let error: string | undefined;
      try {
        const sources = await expandDatabases(s.files.map((f) => createBlobSource(f.name, f.blob)));
        rows = await computeSettingRows(s.file, sources, spec, signal);
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
};
