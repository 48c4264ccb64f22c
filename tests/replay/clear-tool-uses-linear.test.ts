import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeBigSession } from '../../e2e/big-session';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { computeReplay } from '../../src/engine/replay/compute-replay';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { DEFAULTS } from '../../src/engine/strategies/api-clear-tool-uses/descriptor';
import { ToolUseSums } from '../../src/engine/strategies/api-clear-tool-uses/tool-use-sums';
import { cpuMs } from '../helpers/cpu-time';

// The API's `clear_tool_uses` replayed over long sessions. Its choice scanned every live tool
// result at every call past the trigger: a generated 40k-call session took 24 s to replay (20k
// calls 2.9 s, 10k 0.8 s), and the compare view's Cancel waited for it. The run keeps sums over
// the call order instead (`ToolUseSums`); the scan stays as the probe's and is the reference here.

const dir = mkdtempSync(join(tmpdir(), 'compactlab-clear-'));
async function prepare(turns: number, pad: number) {
  const file = join(dir, `s${turns}-${pad}.jsonl`);
  writeBigSession(file, turns, pad);
  return prepareReplay(await parseSession([createMemorySource('s.jsonl', readFileSync(file))]));
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('clear_tool_uses over long sessions', () => {
  it('clears what the per-call scan clears, at the same calls', async () => {
    const prepared = await prepare(1_500, 2_000);
    let cleared = 0;
    for (const knobs of [
      {},
      { keepToolUses: 0, clearAtLeastTokens: 0 },
      { keepToolUses: 40, clearAtLeastTokens: 20_000, triggerTokens: 60_000 },
      { compaction: true, compactTriggerTokens: 150_000 },
    ]) {
      const all = { ...DEFAULTS, ...knobs };
      const summed = computeReplay(prepared, 'api-clear-tool-uses', all);
      vi.spyOn(ToolUseSums.prototype, 'select').mockReturnValue('back');
      const scanned = computeReplay(prepared, 'api-clear-tool-uses', all);
      vi.restoreAllMocks();
      const events = (r: typeof summed) =>
        r.events.map((e) => [e.kind, e.afterApiCall, 'clearedToolIds' in e ? e.clearedToolIds : []]);
      expect(events(summed), JSON.stringify(knobs)).toEqual(events(scanned));
      expect([...summed.simulatedTokens]).toEqual([...scanned.simulatedTokens]);
      cleared += summed.events.filter((e) => e.kind === 'microcompact').length;
    }
    // The comparison means something only where the edit clears.
    expect(cleared).toBeGreaterThan(10);
  });

  // 10k and 40k: at 5k and 20k the replay takes 10 and 66 ms, and the ratio moved between 4.7
  // and 8.2 from run to run (the same at the commit before). At 10k and 40k it is 3–5× alone and
  // read 6.4× once in a fresh clone's whole suite (26 → 167 ms); the bound, ours, lies between
  // linear (4×) and quadratic (16×), and the old scan's 30×.
  it('replays in time linear in the calls (10k and 40k turns, 4×: under 10×)', async () => {
    const small = await prepare(10_000, 40);
    const large = await prepare(40_000, 40);
    const smallMs = cpuMs(() => computeReplay(small, 'api-clear-tool-uses', DEFAULTS));
    const largeMs = cpuMs(() => computeReplay(large, 'api-clear-tool-uses', DEFAULTS));
    // The scan took 30× here (0.8 s → 24 s).
    expect(largeMs / Math.max(1, smallMs), `${smallMs} ms → ${largeMs} ms`).toBeLessThan(10);
  });
});
