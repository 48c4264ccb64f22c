import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeBigSession } from '../../e2e/big-session';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { computeReplay } from '../../src/engine/replay/compute-replay';
import { prepareReplay } from '../../src/engine/replay/prepare';
import type { PreparedReplay } from '../../src/engine/simulation/prepared';
import { lowerBound } from '../../src/engine/simulation/search';
import { GEMINI_CLI_STRATEGY } from '../../src/engine/strategies/gemini-cli';
import {
  MASKED_RESPONSE_TOKENS,
  MASKING_EXEMPT_TOOLS,
  MaskingPlanner,
  MEMORY_TOOL,
} from '../../src/engine/strategies/gemini-cli/masking';
import type { ReplayView } from '../../src/engine/strategies/types';
import { cpuMs } from '../helpers/cpu-time';
import { parseFixture } from './transcript-fixture';

// Gemini CLI's tool-output masking replayed over long sessions. Its planner scanned every function
// response of the history at every call: a generated 40k-call session took 42 s to replay under
// the gemini-cli strategy (20k calls 5.3 s, 10k 1.6 s), and the compare view's Cancel waited for
// it. The planner keeps sums instead; here it is held, call by call, to that scan (kept below as
// the reference) and to time linear in the calls.

/** The per-call scan the planner replaced (masking.ts before), newest response first. */
function planByScanning(
  view: ReplayView,
  prepared: PreparedReplay,
  knobs: {
    maskingProtectionTokens: number;
    maskingMinPrunableTokens: number;
    maskingProtectLatestTurn: boolean;
  },
  exempt: ReadonlySet<string>,
) {
  const { pos, tool, estimate } = prepared.clearables;
  const { session, ctxEntry } = prepared;
  let historyEnd = view.boundaryPos;
  while (historyEnd > view.liveFromPos && session.entries[ctxEntry[historyEnd - 1]!]?.kind !== 'assistant')
    historyEnd--;
  if (historyEnd === view.liveFromPos) historyEnd = view.boundaryPos;
  const latest = historyEnd - 1;
  let protectedTokens = 0;
  let crossed = false;
  let prunableTokens = 0;
  const prunable: number[] = [];
  const first = lowerBound(pos, view.liveFromPos);
  for (let i = lowerBound(pos, historyEnd) - 1; i >= first; i--) {
    if (tool[i]! < 0) continue;
    if (knobs.maskingProtectLatestTurn && pos[i]! >= latest) continue;
    if (exempt.has(prepared.toolNames[tool[i]!]!)) continue;
    if (view.isCleared(i)) continue;
    const t = estimate[i]!;
    if (!crossed && protectedTokens + t <= knobs.maskingProtectionTokens) {
      protectedTokens += t;
      continue;
    }
    crossed = true;
    prunable.push(i);
    prunableTokens += t;
  }
  if (prunableTokens < knobs.maskingMinPrunableTokens) return undefined;
  const items = prunable.filter((i) => estimate[i]! > MASKED_RESPONSE_TOKENS).reverse();
  if (items.length === 0) return undefined;
  let estimatedSavedTokens = 0;
  for (const i of items) estimatedSavedTokens += estimate[i]! - MASKED_RESPONSE_TOKENS;
  return { items, prunableTokens, estimatedSavedTokens };
}

/** Replays under masking with every plan checked against the scan; returns the calls compared. */
const plan = MaskingPlanner.prototype.plan;

function replayChecked(
  prepared: PreparedReplay,
  knobs: Record<string, unknown>,
): { calls: number; masks: number } {
  let calls = 0;
  let masks = 0;
  const all = { ...GEMINI_CLI_STRATEGY.defaultKnobs, ...knobs };
  const exempt = new Set([...MASKING_EXEMPT_TOOLS, MEMORY_TOOL]);
  vi.spyOn(MaskingPlanner.prototype, 'plan').mockImplementation(function (this: MaskingPlanner, view) {
    const expected = planByScanning(view, prepared, all, exempt);
    const actual = plan.call(this, view);
    expect(actual, `call ${view.apiCall}`).toEqual(expected);
    calls++;
    if (actual) masks++;
    return actual;
  });
  computeReplay(prepared, 'gemini-cli', all);
  vi.restoreAllMocks();
  return { calls, masks };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('Gemini CLI masking over long sessions', () => {
  it('plans what the per-call scan plans, at every call (generated sessions, masking firing)', async () => {
    // 400 responses of ~300 tokens (over a masked one's 211): masking fires every ~100 calls.
    const dir = mkdtempSync(join(tmpdir(), 'compactlab-mask-'));
    writeBigSession(join(dir, 'big.jsonl'), 400, 1_200);
    const big = await parseSession([createMemorySource('big.jsonl', readFileSync(join(dir, 'big.jsonl')))]);
    const small = await parseFixture({
      calls: Array.from({ length: 16 }, (_, t) => ({
        prompt: t === 0 ? 'Read the files one by one.' : undefined,
        context: 20_000 + t * 10_000,
        output: 100,
        tools: [
          { name: t % 5 === 0 ? 'save_memory' : 'read_file', path: `/w/f${t}.ts`, resultChars: 40_000 },
        ],
      })),
    });
    let masked = 0;
    for (const session of [big, small.session]) {
      const prepared = prepareReplay(session);
      for (const knobs of [
        { profile: 'masking-default' },
        { profile: 'masking-default', maskingProtectLatestTurn: false },
        { profile: 'masking-always', maskingMinPrunableTokens: 50_000, maskingProtectionTokens: 20_000 },
      ]) {
        const { calls, masks } = replayChecked(prepared, knobs);
        expect(calls).toBeGreaterThan(10);
        masked += masks;
      }
    }
    // The comparison means something only where masking fires.
    expect(masked).toBeGreaterThan(5);
  });

  it('replays in time linear in the calls (5k and 20k turns, 4×: under 6×)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'compactlab-mask-'));
    const prepare = async (turns: number) => {
      const file = join(dir, `s${turns}.jsonl`);
      writeBigSession(file, turns, 40);
      return prepareReplay(await parseSession([createMemorySource('s.jsonl', readFileSync(file))]));
    };
    const small = await prepare(5_000);
    const large = await prepare(20_000);
    const knobs = { ...GEMINI_CLI_STRATEGY.defaultKnobs, profile: 'masking-default' };
    const smallMs = cpuMs(() => computeReplay(small, 'gemini-cli', knobs));
    const largeMs = cpuMs(() => computeReplay(large, 'gemini-cli', knobs));
    // The scan took 13× here (405 ms → 5.3 s).
    expect(largeMs / Math.max(1, smallMs)).toBeLessThan(6);
  });
});
