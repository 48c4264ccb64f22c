import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { main as cli } from '../../src/cli/main';
import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { computeReplay } from '../../src/engine/replay/compute-replay';
import { checkReplayInvariants } from '../../src/engine/replay/invariants';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { computeSubagentReplays } from '../../src/engine/replay/subagent-replays';
import { CLAUDE_CODE_STRATEGY } from '../../src/engine/strategies/claude-code';
import { getSessionInfo } from '../../src/engine/strategies/types';
import { corpusOrSkip, corpusSessionGroups } from '../helpers/corpus';
import { buildTranscript, growingSpec } from './transcript-fixture';

// claude-code-compaction-v2.1.68.txt "Five compaction mechanisms", Sub-agent compact: "Before turn
// in sub-agent loop", "Sub-agent history", with Prompt 3 (Q07). A subagent transcript, alone or in
// its session folder, is replayed under those rules, on its own line; the parent is never charged
// for its calls.

/** A subagent's log: sidechain records with its agentId, as Claude Code writes `agent-<id>.jsonl`. */
function subagentText(calls: number): string {
  return `${buildTranscript(growingSpec(calls))
    .map((line) => JSON.stringify({ ...JSON.parse(line), isSidechain: true, agentId: 'a1b2c3' }))
    .join('\n')}\n`;
}

describe('a subagent transcript opened alone', async () => {
  const session = await parseSession([createMemorySource('agent-a1b2c3.jsonl', subagentText(34))]);
  const prepared = prepareReplay(session);
  const { knobs, notes } = CLAUDE_CODE_STRATEGY.getSessionKnobs(getSessionInfo(prepared));

  it('gets the sub-agent rules: its own threshold, Prompt 3, nothing re-attached', () => {
    expect(knobs.agentRole).toBe('subagent');
    expect(notes.join(' ')).toMatch(/Sub-agent transcript: replayed under the sub-agent rules/);
    const result = computeReplay(prepared, 'claude-code', { ...knobs, autoCompactEnabled: true });
    expect(checkReplayInvariants(prepared, result)).toEqual([]);
    const compact = result.events.find((e) => e.kind === 'compact')!;
    expect(compact.request!.variant).toBe('subagent');
    expect(compact.restored!.totalTokens).toBe(0);
    expect(compact.note).toMatch(/sub-agent compact before its next turn \(Prompt 3\)/);
    // The same threshold formula as the main loop's, on the subagent's own context.
    expect(compact.thresholdTokens).toBe(167_000);
    // As the main session, the same log compacts with Prompt 1 and re-attaches what it read.
    const main = computeReplay(prepared, 'claude-code', {
      ...knobs,
      agentRole: 'main',
      autoCompactEnabled: true,
    });
    const mainCompact = main.events.find((e) => e.kind === 'compact')!;
    expect(mainCompact.request!.variant).toBe('full');
    expect(mainCompact.restored!.totalTokens).toBeGreaterThan(0);
    expect(mainCompact.afterCallPos).toBe(compact.afterCallPos);
  });
});

describe('a session folder: one replay line per subagent', async () => {
  const mainText = `${buildTranscript(growingSpec(20)).join('\n')}\n`;
  const sources = [
    createMemorySource('fixture.jsonl', mainText),
    createMemorySource('agent-a1b2c3.jsonl', subagentText(34)),
  ];
  const session = await parseSession(sources);
  const prepared = prepareReplay(session);

  it('replays the subagent alone and never charges its calls to the parent', async () => {
    const subs = await computeSubagentReplays(session, sources, 'claude-code', { autoCompactEnabled: true });
    expect(subs).toHaveLength(1);
    const [sub] = subs;
    expect(sub).toMatchObject({ agentId: 'a1b2c3', apiCalls: 34 });
    expect(sub!.result.knobs.agentRole).toBe('subagent');
    expect(sub!.result.events.some((e) => e.kind === 'compact' && e.request?.variant === 'subagent')).toBe(
      true,
    );
    // The parent's series are its own calls, the same as without the subagent's file.
    const alone = prepareReplay(await parseSession([createMemorySource('fixture.jsonl', mainText)]));
    const withSub = computeReplay(prepared, 'claude-code', {});
    const without = computeReplay(alone, 'claude-code', {});
    expect(Array.from(withSub.simulatedTokens)).toEqual(Array.from(without.simulatedTokens));
    expect(withSub.callIndex.length).toBe(20);
  });
});

describe('compactlab replay with a session folder', () => {
  it('prints a section per subagent after the session, and its JSON carries them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'compactlab-sub-'));
    mkdirSync(join(dir, 'fixture', 'subagents'), { recursive: true });
    const mainFile = join(dir, 'fixture.jsonl');
    const subFile = join(dir, 'fixture', 'subagents', 'agent-a1b2c3.jsonl');
    writeFileSync(mainFile, `${buildTranscript(growingSpec(20)).join('\n')}\n`);
    writeFileSync(subFile, subagentText(34));
    const out: string[] = [];
    expect(await cli(['replay', mainFile, subFile, '--auto-compact'], (t) => out.push(t))).toBe(0);
    const text = out.join('\n');
    expect(text).toMatch(/^== subagent a1b2c3: 34 calls, peak 185,000, 1 compaction replayed/m);
    expect(text).toMatch(/^strategy claude-code · .* · agentRole subagent$/m);
    const json: string[] = [];
    await cli(['replay', mainFile, subFile, '--json'], (t) => json.push(t));
    const parsed = JSON.parse(json.join('\n'));
    expect(parsed.subagents).toHaveLength(1);
    expect(parsed.subagents[0].result.simulatedTokens).toHaveLength(34);
    expect(parsed.simulatedTokens).toHaveLength(20);
  });
});

describe.runIf(corpusOrSkip('subagent replays on the corpus'))('the corpus: subagents that compacted', () => {
  const groups = corpusSessionGroups().filter(
    (g) =>
      g.main !== undefined &&
      g.subagents.some((p) => p.endsWith('.jsonl') && readFileSync(p, 'utf8').includes('"compact_boundary"')),
  );

  it('reproduces their auto-compactions under the sub-agent rules', async () => {
    expect(groups.length).toBeGreaterThan(0);
    let expected = 0;
    let reproduced = 0;
    for (const g of groups) {
      // The corpus flattens `<session>/subagents/agent-<id>.jsonl`: back to the names Claude Code gives.
      const files = [g.main!, ...g.subagents.filter((p) => p.endsWith('.jsonl'))];
      const sources = files.map((p) => {
        const name = basename(p);
        const at = name.indexOf('__subagents__');
        return createMemorySource(
          at > 0 ? name.slice(at + '__subagents__'.length) : name.slice(name.lastIndexOf('__') + 2),
          readFileSync(p),
        );
      });
      const session = await parseSession(sources);
      const subs = await computeSubagentReplays(session, sources, 'claude-code');
      for (const s of subs) {
        expect(s.result.knobs.agentRole).toBe('subagent');
        expected += s.result.comparison.expected;
        reproduced += s.result.comparison.reproduced;
      }
    }
    console.log(
      `corpus subagents: ${reproduced}/${expected} auto-compactions reproduced (±1) under the sub-agent rules`,
    );
    expect(expected).toBeGreaterThan(0);
    expect(reproduced).toBe(expected);
  });
});
