import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';
import { computeReplay } from '../../src/engine/replay/compute-replay';
import { computeNaiveOpenCodePrune } from './reference/opencode';
import { checkReplayInvariants } from './invariants';
import { type PreparedReplay, prepareReplay } from '../../src/engine/replay/prepare';
import type { ReplayResult } from '../../src/engine/replay/types';
import {
  OPENCODE_STRATEGY,
  type OpenCodeKnobs,
  selectOpenCodePrune,
} from '../../src/engine/strategies/opencode';
import { getOpenCodeUsable } from '../../src/engine/strategies/opencode/descriptor';
import { getStrategy } from '../../src/engine/strategies/registry';
import { getSessionInfo } from '../../src/engine/strategies/types';
import { buildTranscript, type CallSpec, parseFixture, type TranscriptSpec } from './transcript-fixture';

// The OpenCode strategy (strategies/opencode/index.ts): hand-written Claude Code-shaped logs whose tool
// outputs have known sizes, for the prune rules (protect the newest 40,000 tokens of tool output
// and the last 2 user turns, protected tools, more than 20,000 tokens or nothing), the compaction
// line (limit − max output; input limit − reserved) and the stall guard.

/** One user turn per call; each call reads a file of `tokens` tokens (Claude Code's chars / 4). */
function turnsSpec(turns: number, tokens = 10_000, tool = (_t: number) => 'Read'): TranscriptSpec {
  return {
    calls: Array.from(
      { length: turns },
      (_, t): CallSpec => ({
        prompt: `Turn ${t}: go on.`,
        context: 20_000 + t * (tokens + 200),
        tools: [{ name: tool(t), path: `/w/src/f${t}.ts`, resultChars: tokens * 4 }],
      }),
    ),
  };
}

async function prepare(spec: TranscriptSpec): Promise<PreparedReplay> {
  return prepareReplay((await parseFixture(spec)).session);
}

/** Far from compacting: the prune alone. */
const WIDE: Partial<OpenCodeKnobs> = { contextLimit: 2_000_000 };

/**
 * The prune as configured (`compaction.prune: true`): off by default in the newest profile, on in
 * early 2026 (strategies/opencode/index.ts OPENCODE_PROFILES); these tests are about what it does.
 */
const PRUNING: Partial<OpenCodeKnobs> = { prune: true };

function run(prepared: PreparedReplay, knobs: Partial<OpenCodeKnobs> = {}): ReplayResult {
  const result = computeReplay(prepared, 'opencode', {
    ...OPENCODE_STRATEGY.defaultKnobs,
    ...PRUNING,
    ...knobs,
  });
  expect(checkReplayInvariants(prepared, result)).toEqual([]);
  return result;
}

const prunes = (r: ReplayResult) => r.events.filter((e) => e.kind === 'microcompact');
const compacts = (r: ReplayResult) => r.events.filter((e) => e.kind === 'compact');

describe('OpenCode strategy', () => {
  it('is registered, with its knobs in the CLI help and defaults from ANCHORS.md', async () => {
    expect(getStrategy('opencode')).toBe(OPENCODE_STRATEGY);
    expect(OPENCODE_STRATEGY.defaultKnobs).toMatchObject({
      pruneProtectTokens: 40_000,
      pruneMinimumTokens: 20_000,
      protectTurns: 2,
      protectedTools: ['skill'],
      stallPercent: 95,
      // The newest profile: prune only when configured.
      profile: 'prune-opt-in',
      prune: false,
    });
    for (const spec of OPENCODE_STRATEGY.knobSpecs) expect(spec.source).toMatch(/opencode|ANCHORS/);
    const out: string[] = [];
    expect(await main(['replay', '--strategy', 'opencode', '--help'], (t) => out.push(t))).toBe(0);
    const help = out.join('\n');
    for (const spec of OPENCODE_STRATEGY.knobSpecs) expect(help).toContain(spec.key);
    expect(help).toMatch(/PRUNE_PROTECT 40,000/);
  });

  it('prunes only what lies beyond the last 2 user turns and the newest 40,000 tokens, once over 20,000', async () => {
    // Ten turns of one 10,000-token read each. When turn 9 starts, turns 7–8 are protected, turns
    // 3–6 hold the newest 40,000 tokens, and turns 0–2 (30,000 > 20,000) are pruned. When turn 8
    // started, only 20,000 (turns 0–1) were beyond: not more than the minimum, nothing pruned.
    const prepared = await prepare(turnsSpec(11));
    const result = run(prepared, WIDE);
    const [first, ...rest] = prunes(result);
    expect(first?.afterCallPos).toBe(8);
    expect(first?.clearedToolIds).toEqual(['toolu_0_0', 'toolu_1_0', 'toolu_2_0']);
    expect(first?.estimatedSavedTokens).toBe(30_000);
    expect(first?.note).toMatch(/^turn ended: prune 3 tool outputs \(30,000 tokens > 20,000\)/);
    // The next turn's end adds one more beyond the protected part: 10,000, under the minimum,
    // and the walk stops at the outputs already pruned.
    expect(rest).toHaveLength(0);
    expect(compacts(result)).toHaveLength(0);

    // The walk ends where turn 9's prompt starts (the line before call 9).
    const knobs = { ...OPENCODE_STRATEGY.defaultKnobs, ...PRUNING };
    const direct = selectOpenCodePrune(prepared, knobs, 0, prepared.callPos[9]! - 1, () => false);
    expect(direct?.prunedTokens).toBe(30_000);
    expect(direct?.totalTokens).toBe(70_000);
    expect(selectOpenCodePrune(prepared, knobs, 0, prepared.callPos[8]! - 1, () => false)).toBeUndefined();
    // Outputs already pruned stop the walk: nothing older is counted.
    expect(selectOpenCodePrune(prepared, knobs, 0, prepared.callPos[10]! - 1, (i) => i <= 2)).toBeUndefined();
  });

  it('moves with its knobs: protected turns, protected tokens, the minimum, prune off', async () => {
    const prepared = await prepare(turnsSpec(11));
    const at = (knobs: Partial<OpenCodeKnobs>) =>
      prunes(run(prepared, { ...WIDE, ...knobs })).map((e) => [e.afterCallPos, e.clearedToolIds?.length]);
    // One protected turn: when turn 8 starts, turns 0–2 lie beyond turn 7 and the newest 40,000.
    expect(at({ protectTurns: 1 })[0]).toEqual([7, 3]);
    expect(at({ pruneProtectTokens: 10_000 })[0]).toEqual([5, 3]);
    expect(at({ pruneMinimumTokens: 9_999 })[0]).toEqual([6, 1]);
    expect(at({ prune: false })).toEqual([]);
  });

  it('never prunes a protected tool (skill), compared without case', async () => {
    // Turn 1 runs the Skill tool: the walk skips it, so turn 9's start finds only 20,000 beyond.
    const prepared = await prepare(turnsSpec(12, 10_000, (t) => (t === 1 ? 'Skill' : 'Read')));
    const result = run(prepared, WIDE);
    const cleared = prunes(result).flatMap((e) => e.clearedToolIds ?? []);
    expect(cleared).not.toContain('toolu_1_0');
    expect(prunes(result)[0]?.afterCallPos).toBe(9);
    expect(prunes(result)[0]?.clearedToolIds).toEqual(['toolu_0_0', 'toolu_2_0', 'toolu_3_0']);
    const unprotected = prunes(run(prepared, { ...WIDE, protectedTools: [] }));
    expect(unprotected[0]?.clearedToolIds).toContain('toolu_1_0');
  });

  it('compacts at limit − max output, or input limit − min(20,000, max output)', async () => {
    const k = OPENCODE_STRATEGY.defaultKnobs;
    expect(getOpenCodeUsable(k)).toBe(168_000);
    expect(getOpenCodeUsable({ ...k, inputLimit: 150_000, maxOutputTokens: 16_000 })).toBe(134_000);
    expect(getOpenCodeUsable({ ...k, inputLimit: 150_000 })).toBe(130_000);
    expect(getOpenCodeUsable({ ...k, inputLimit: 150_000, reservedTokens: 5_000 })).toBe(145_000);
    expect(
      OPENCODE_STRATEGY.thresholds(OPENCODE_STRATEGY.normalizeKnobs({ maxOutputTokens: '8000' })),
    ).toEqual([
      { id: 'compact', label: 'OpenCode compaction', tokens: 192_000, kind: 'trigger' },
      { id: 'window', label: 'Context limit', tokens: 200_000, kind: 'limit' },
    ]);
    // The trigger counts the last response's input and output.
    const prepared = await prepare(turnsSpec(20, 9_800));
    const result = run(prepared, { prune: false });
    const first = compacts(result)[0]!;
    let expected = -1;
    for (let c = 0; c < prepared.calls.length && expected < 0; c++)
      if (prepared.recorded[c]! + prepared.output[c]! >= 168_000) expected = c;
    expect(first.afterCallPos).toBe(expected);
    expect(first.thresholdTokens).toBe(168_000);
    expect(first.mechanism).toBe('full');
    expect(first.request?.promptPresetId).toBe('opencode');
    expect(first.postTokens).toBeLessThan(168_000);
    expect(compacts(run(prepared, { prune: false, autoCompact: false }))).toHaveLength(0);
  });

  it('stops auto-compacting when a compaction leaves 95% of what triggered it (the stall guard)', async () => {
    // A 170,000-token system prompt: no summary brings the context under 168,000.
    const spec: TranscriptSpec = {
      calls: Array.from({ length: 8 }, (_, k) => ({
        prompt: k === 0 ? 'Start.' : undefined,
        context: 170_050 + k * 1_000,
        tools: [{ name: 'Read', path: `/w/f${k}.ts`, resultChars: 3_600 }],
      })),
    };
    const prepared = await prepare(spec);
    expect(prepared.baseTokens).toBeGreaterThan(168_000);
    const result = run(prepared);
    const events = compacts(result);
    // The first compaction fires, the response after it is still over the line (> 95% of the
    // trigger): the guard stops every later one.
    expect(events).toHaveLength(1);
    expect(events[0]!.afterCallPos).toBe(0);
    expect(events[0]!.note).toMatch(/the stall guard stops auto-compaction/);
    expect(events[0]!.note).toMatch(/not under the 168,000 threshold/);
    for (let k = 1; k < prepared.calls.length; k++)
      expect(result.checkTokens[k]!).toBeGreaterThanOrEqual(168_000);
  });

  it('takes the log’s window and max output (capped at 32,000) on another agent’s log', async () => {
    const prepared = await prepare(turnsSpec(4));
    const { knobs, notes } = OPENCODE_STRATEGY.getSessionKnobs(getSessionInfo(prepared));
    expect(knobs.contextLimit).toBe(200_000);
    expect(knobs.maxOutputTokens).toBeLessThanOrEqual(32_000);
    expect(notes.join('\n')).toMatch(/not an OpenCode session/);
  });

  it('picks its profile by the log’s date: prune on unless false in early 2026, off unless true from 2026-04-24', async () => {
    const info = getSessionInfo(await prepare(turnsSpec(4)));
    const early = OPENCODE_STRATEGY.getSessionKnobs({ ...info, startedAt: '2026-02-01T00:00:00Z' });
    expect(early.knobs).toMatchObject({ profile: 'early-2026', prune: true });
    const late = OPENCODE_STRATEGY.getSessionKnobs({ ...info, startedAt: '2026-06-01T00:00:00Z' });
    expect(late.knobs).toMatchObject({ profile: 'prune-opt-in', prune: false });
    expect(late.notes[0]).toMatch(/→ profile 'prune-opt-in'/);
    expect(late.notes[1]).toMatch(/^Prune off/);
    // The fork-only tail / anchor rules are not modelled as upstream, and the profile says so.
    expect(OPENCODE_STRATEGY.knobSpecs.find((k) => k.key === 'profile')?.options?.[1]?.label).toMatch(
      /tail\/anchor rules of forks not modelled/,
    );
  });

  it('runs from the CLI with --strategy opencode and --knob', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'compactlab-opencode-'));
    const file = join(dir, 'session.jsonl');
    writeFileSync(file, `${buildTranscript(turnsSpec(11)).join('\n')}\n`);
    const out: string[] = [];
    const code = await main(
      ['replay', file, '--strategy', 'opencode', '--knob', 'pruneProtectTokens=10000'],
      (t) => out.push(t),
    );
    expect(code).toBe(0);
    expect(out.join('\n')).toMatch(/microcompact: check [\d,]+ ≥ 20,000, cleared 3/);
  });

  it('agrees with the naive prune (tests/replay/reference/opencode.ts) on varied turns, tools and knobs', async () => {
    // Turns of 1–3 calls, each call 0–3 results of varied sizes, some Skill: seeded, no compaction.
    let seed = 7;
    const rand = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const calls: CallSpec[] = [];
    let context = 15_000;
    for (let t = 0; t < 24; t++) {
      const perTurn = 1 + Math.floor(rand() * 3);
      for (let c = 0; c < perTurn; c++) {
        const tools = Array.from({ length: Math.floor(rand() * 4) }, (_, j) => ({
          name: rand() < 0.1 ? 'Skill' : j % 2 ? 'Bash' : 'Read',
          path: `/w/f${t}_${c}_${j}.ts`,
          resultChars: 400 + Math.floor(rand() * 36_000),
        }));
        calls.push({ prompt: c === 0 ? `Turn ${t}.` : undefined, context, tools });
        context += 200 + tools.reduce((a, x) => a + x.resultChars / 4, 0);
      }
    }
    const prepared = await prepare({ calls });
    expect(prepared.real).toHaveLength(0);
    let events = 0;
    for (const knobs of [
      {},
      { protectTurns: 1 },
      { protectTurns: 0, pruneProtectTokens: 15_000 },
      { pruneMinimumTokens: 5_000, protectedTools: [] },
      { pruneProtectTokens: 80_000, pruneMinimumTokens: 0 },
    ] as Partial<OpenCodeKnobs>[]) {
      const full = OPENCODE_STRATEGY.normalizeKnobs({ ...WIDE, ...PRUNING, autoCompact: false, ...knobs });
      const fast = run(prepared, full);
      const naive = computeNaiveOpenCodePrune(prepared, full);
      expect(Array.from(fast.simulatedTokens), JSON.stringify(knobs)).toEqual(naive.simulatedTokens);
      expect(
        prunes(fast).map((e) => ({
          afterCallPos: e.afterCallPos,
          ids: e.clearedToolIds,
          prunedTokens: e.estimatedSavedTokens,
        })),
        JSON.stringify(knobs),
      ).toEqual(naive.events);
      events += naive.events.length;
    }
    expect(events).toBeGreaterThan(5);
  });
});
