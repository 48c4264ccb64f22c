import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeFileSource } from '../../src/cli/node-source';
import { parseSession } from '../../src/engine/parse/parse-session';
import { computeReplay } from '../../src/engine/replay/compute-replay';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { CLINE_STRATEGY } from '../../src/engine/strategies/cline';
import { CLINE_DESCRIPTOR } from '../../src/engine/strategies/cline/descriptor';
import { getSessionInfo } from '../../src/engine/strategies/types';
import { getSpanBars, getWindowSpans } from '../../src/ui/timeline/threshold-bars';
import { corpusOrSkip, FOREIGN } from '../helpers/corpus';

// A real Cline task (haram-333/fineye, the foreign corpus) sent its requests to grok-code-fast-1,
// then Claude Sonnet 4.5 (then grok again, each of those failing: no calls). The replay checked
// each call against its model's window, but the chart drew one set of lines, the session's
// (256,000: maxAllowedSize 216,000), over all of them: the replay now says each call's window
// (`callWindows`), and the chart draws each stretch's lines over its calls (e2e/real-logs.spec.ts).

const present = corpusOrSkip('Cline model-switch spans test');
const TASK = join(FOREIGN, 'haram-333__fineye/ui_messages.json');

interface UiRecord {
  say?: string;
  text?: string;
  modelInfo?: { modelId: string };
}

/** The models of the UI log's answered requests, in runs: a plain read of `api_req_started` (its `modelInfo`, its text's tokens). */
function modelRuns(): { model: string; calls: number }[] {
  const runs: { model: string; calls: number }[] = [];
  for (const r of JSON.parse(readFileSync(TASK, 'utf8')) as UiRecord[]) {
    if (r.say !== 'api_req_started' || !r.modelInfo) continue;
    const tokens = JSON.parse(r.text ?? '{}') as { tokensIn?: number; tokensOut?: number };
    if (!tokens.tokensIn && !tokens.tokensOut) continue;
    const last = runs.at(-1);
    if (last?.model === r.modelInfo.modelId) last.calls++;
    else runs.push({ model: r.modelInfo.modelId, calls: 1 });
  }
  return runs;
}

describe.skipIf(!present)('Cline: a real task that switches models, drawn per window', () => {
  it("each stretch of calls gets its model's window and lines", async () => {
    const runs = modelRuns();
    expect(runs.map((r) => r.model)).toEqual(['x-ai/grok-code-fast-1', 'anthropic/claude-sonnet-4.5']);
    const prepared = prepareReplay(await parseSession([createNodeFileSource(TASK)]));
    const { knobs } = CLINE_STRATEGY.getSessionKnobs(getSessionInfo(prepared));
    expect(knobs.windowPerModel).toBe(true);
    const result = computeReplay(prepared, 'cline', knobs);
    const windows = result.callWindows;
    expect(windows).toBeDefined();
    const modelOf = (k: number) => prepared.session.apiCalls[result.callIndex[k]!]!.model;
    for (let k = 0; k < windows!.length; k++)
      expect(windows![k], `call ${k + 1}`).toBe(/claude/.test(modelOf(k)) ? 200_000 : 256_000);
    const spans = getWindowSpans(windows, (k) => k)!;
    expect(spans.map((s) => s.windowTokens)).toEqual([256_000, 200_000]);
    expect(spans.map((s) => s.toX - s.fromX + 1)).toEqual(runs.map((r) => r.calls));
    const bars = getSpanBars(
      spans,
      (w) => CLINE_DESCRIPTOR.thresholds({ ...knobs, contextWindow: w }),
      256_000,
    );
    // maxAllowedSize: the window − 40,000 (Cline's rule on a 200k or larger window).
    expect(bars.map((b) => [b.testId, b.tokens])).toEqual([
      ['threshold-maxallowed-0', 216_000],
      ['threshold-maxallowed-1', 160_000],
      ['threshold-window-1', 200_000],
    ]);
    // One window for all (the knob off): no spans, the lines as before.
    expect(computeReplay(prepared, 'cline', { ...knobs, windowPerModel: false }).callWindows).toBeUndefined();
  });
});
