import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LearnStep, LearnWalk } from '../../src/engine/learn/types';
import { computeLearnWalk } from '../../src/engine/learn/walk';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { getClaudeCodeSessionKnobs } from '../../src/engine/strategies/claude-code/session-knobs';
import { getSessionInfo } from '../../src/engine/strategies/types';
import { computeThresholds } from '../../src/engine/thresholds';

// Learn mode's bar names the threshold line it draws. The clearing step of Claude Code's walk on
// the bundled sample drew the microcompact event's own threshold (the warning line, 135,000 there)
// under the strategy's first trigger's name: "— auto-compact 135,000", where the step before it
// showed auto-compact at 155,000.

const ROOT = resolve(__dirname, '../..');

async function openSample() {
  const index = JSON.parse(readFileSync(join(ROOT, 'public/samples/index.json'), 'utf8'));
  const sources = index.files.map((f: { path: string }) =>
    createMemorySource(f.path, readFileSync(join(ROOT, 'public/samples', f.path))),
  );
  const session = await parseSession(sources);
  return { session, sources, prepared: prepareReplay(session) };
}

const stepOf = (walk: LearnWalk, id: string): LearnStep => {
  const step = walk.steps.find((s) => s.id === id);
  if (!step) throw new Error(`no step ${id} in ${walk.steps.map((s) => s.id).join(', ')}`);
  return step;
};

describe("learn mode's bar legend", () => {
  it("names the clearing's own threshold as such, not as the auto-compact line (Claude Code, the sample)", async () => {
    const sample = await openSample();
    const { prepared } = sample;
    const walk = await computeLearnWalk({ ...sample, strategyId: 'claude-code' });
    const check = stepOf(walk, 'check');
    const clear = stepOf(walk, 'clear');
    const t = computeThresholds(getClaudeCodeSessionKnobs(getSessionInfo(prepared)).knobs);
    // The sample's two lines differ: a label naming the wrong one is a wrong number beside a name.
    expect(t.autoCompact).toBe(155_000);
    expect(t.warning).toBe(135_000);
    expect(check.bar).toMatchObject({ thresholdLabel: 'auto-compact', thresholdTokens: t.autoCompact });
    expect(clear.bar?.thresholdTokens).toBe(t.warning);
    expect(clear.bar?.thresholdLabel).toMatch(/^microcompact/);
    expect(clear.bar?.thresholdLabel).not.toMatch(/auto-compact/);
  });
});
