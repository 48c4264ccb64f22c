import { describe, expect, it } from 'vitest';
import { estimateTextTokens } from '../../src/engine/tokens/estimate';
import { runReplay } from './run-replay';
import { type CallSpec, parseFixture } from './transcript-fixture';

// v2.1.68 "Full mechanism" steps 7–8: after a compaction Claude Code re-injects files, the plan,
// invoked skills (uM4) and the plan-mode reminder (mM4), then runs the SessionStart hooks. The
// replay charges the post-compaction context with each, sized from the log or by a knob.

const SKILL_BODY_CHARS = 30_000;
const HOOK_CHARS = 6_000;

async function session() {
  const calls: CallSpec[] = Array.from({ length: 30 }, (_, k) => ({
    prompt: k === 0 ? 'Build the thing.' : undefined,
    context: 20_000 + k * 6_000,
    output: 100,
    tools: [{ name: 'Read', path: `/work/demo/src/f${k % 9}.ts`, resultChars: 5_800 * 4 }],
  }));
  // Call 3 invokes a skill: its result, then its body as a meta user message.
  calls[3]!.tools = [{ name: 'Skill', input: { skill: 'release-notes' }, resultChars: 30 }];
  calls[3]!.after = [
    {
      type: 'user',
      isMeta: true,
      message: { role: 'user', content: [{ type: 'text', text: 'b'.repeat(SKILL_BODY_CHARS) }] },
    },
  ];
  // Call 10 enters plan mode and never leaves it.
  calls[10]!.tools = [{ name: 'EnterPlanMode', input: {}, resultChars: 200 }];
  return (
    await parseFixture({
      calls,
      preamble: [
        {
          type: 'attachment',
          attachment: {
            type: 'hook_additional_context',
            hookEvent: 'SessionStart',
            content: 'h'.repeat(HOOK_CHARS),
          },
        },
      ],
    })
  ).session;
}

describe('restoration of skills, plan mode and SessionStart output', async () => {
  const s = await session();

  it('charges the compaction with the invoked skill (cut to its limit), the plan-mode reminder and the hook output', () => {
    const { result, prepared } = runReplay(s);
    expect(prepared.skills.names).toEqual(['release-notes']);
    expect(prepared.sessionStartTokens).toBeGreaterThanOrEqual(estimateTextTokens(HOOK_CHARS));
    const compact = result.events.find((e) => e.kind === 'compact')!;
    const r = compact.restored!;
    expect(r.skills).toHaveLength(1);
    expect(r.skills![0]).toMatchObject({ path: 'release-notes', tokens: 5_000 });
    expect(r.planModeTokens).toBe(600);
    expect(r.sessionStartTokens).toBe(prepared.sessionStartTokens);
    const files = r.files.reduce((sum, f) => sum + f.tokens, 0);
    expect(r.totalTokens).toBe(files + 5_000 + 600 + prepared.sessionStartTokens);
  });

  it('each is a knob: off, resized, or the hook output set', () => {
    const base = runReplay(s).result.events.find((e) => e.kind === 'compact')!;
    const off = runReplay(s, {
      restoreSkills: false,
      planModeReminderTokens: 0,
      sessionStartHookTokens: 0,
    }).result.events.find((e) => e.kind === 'compact')!;
    expect(off.restored!.skills).toBeUndefined();
    expect(off.restored!.planModeTokens).toBeUndefined();
    expect(off.restored!.sessionStartTokens).toBeUndefined();
    expect(base.postTokens - off.postTokens).toBeCloseTo(
      base.restored!.totalTokens - off.restored!.totalTokens,
      6,
    );
    const big = runReplay(s, {
      restoreTokensPerSkill: 20_000,
      sessionStartHookTokens: 3_000,
    }).result.events.find((e) => e.kind === 'compact')!;
    expect(big.restored!.skills![0]!.tokens).toBe(estimateTextTokens(SKILL_BODY_CHARS));
    expect(big.restored!.sessionStartTokens).toBe(3_000);
    const budget = runReplay(s, { restoreSkillsTotalTokens: 1_000 }).result.events.find(
      (e) => e.kind === 'compact',
    )!;
    expect(budget.restored!.skills).toBeUndefined();
  });

  it('plan mode left before the boundary brings no reminder', async () => {
    const calls: CallSpec[] = Array.from({ length: 30 }, (_, k) => ({
      prompt: k === 0 ? 'Go.' : undefined,
      context: 20_000 + k * 6_000,
      output: 100,
      tools:
        k === 4
          ? [{ name: 'EnterPlanMode', input: {}, resultChars: 100 }]
          : k === 6
            ? [{ name: 'ExitPlanMode', input: { plan: 'p'.repeat(800) }, resultChars: 100 }]
            : [{ name: 'Read', path: `/f${k}.ts`, resultChars: 5_800 * 4 }],
    }));
    const { result } = runReplay((await parseFixture({ calls })).session);
    const compact = result.events.find((e) => e.kind === 'compact')!;
    expect(compact.restored!.planModeTokens).toBeUndefined();
    expect(compact.restored!.plan).toBeDefined();
  });
});
