import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { main as cli } from '../../src/cli/main';
import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { computeReplay } from '../../src/engine/replay/compute-replay';
import { checkReplayInvariants } from './invariants';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { getSubagentOverrides } from '../../src/engine/replay/subagent-knobs';
import { computeSubagentReplays } from '../../src/engine/replay/subagent-replays';
import type { SubagentReplay } from '../../src/engine/replay/types';
import { CLAUDE_CODE_STRATEGY } from '../../src/engine/strategies/claude-code';
import { getSessionInfo } from '../../src/engine/strategies/types';
import { generateSession } from '../../src/sample/generate-session';
import type { HostState } from '../../src/worker/engine-host';
import { REPLAY_HANDLERS } from '../../src/worker/replay-handlers';
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

describe('a generated session: the user’s knob edits reach its subagent’s replay', async () => {
  // The sample generator's session (src/sample/generate-session.ts): a main file and one subagent
  // of 5 calls peaking near 17k tokens, far under the 2.1.19 threshold at its own knobs.
  const generated = generateSession({ seed: 7, apiCalls: 120 });
  const sources = generated.files
    .filter((f) => !f.name.includes('acompact'))
    .map((f) => createMemorySource(f.name, f.text));
  const session = await parseSession(sources);
  const subFile = session.files.find((f) => f.role === 'subagent')!;
  const state: HostState = {
    loaded: { sessionId: 1, session, sources, rowIndexCache: new Map(), fullTextCache: new Map() },
  };
  const run = async (overrides?: Record<string, unknown>, signal = new AbortController().signal) =>
    (
      await REPLAY_HANDLERS['replay-subagents'](
        { kind: 'replay-subagents', sessionId: 1, strategyId: 'claude-code', overrides },
        { state, signal, onProgress: () => {} },
      )
    ).result;
  const compactsOf = (subs: SubagentReplay[]) =>
    subs[0]!.result.events.filter((e) => e.kind === 'compact').map((e) => e.afterApiCall);

  it('moves its compactions when the auto-compact % or the window changes, in the worker', async () => {
    const own = await run();
    expect(own).toHaveLength(1);
    expect(own[0]!.fileIndex).toBe(subFile.index);
    expect(own[0]!.peakRecordedTokens).toBeLessThan(20_000);
    expect(compactsOf(own)).toEqual([]);
    // 8% of 2.1.19's effective window (200k − 32k): 13,440, crossed late; 5%: 8,400, crossed at once.
    const at8 = await run({ autocompactPctOverride: 8 });
    const at5 = await run({ autocompactPctOverride: 5 });
    expect(at8[0]!.result.thresholds.find((t) => t.id === 'auto-compact')?.tokens).toBe(13_440);
    expect(compactsOf(at8)).toEqual([1]);
    expect(compactsOf(at5)).toEqual([0, 1, 2, 3]);
    expect(compactsOf(at8).length).toBeGreaterThan(0);
    expect(compactsOf(at5).length).toBeGreaterThan(compactsOf(at8).length);
    expect(compactsOf(at5)[0]!).toBeLessThan(compactsOf(at8)[0]!);
    // A 30k window: its threshold falls under the subagent's peak.
    const small = await run({ contextWindow: 30_000 });
    expect(small[0]!.result.knobs.contextWindow).toBe(30_000);
    expect(compactsOf(small).length).toBeGreaterThan(0);
    // Every run stays a sub-agent's, whatever the edits.
    for (const r of [at8, at5, small]) expect(r[0]!.result.knobs.agentRole).toBe('subagent');
  });

  it('keeps the main session’s own knobs out of a subagent’s replay', async () => {
    expect(
      getSubagentOverrides(
        {
          agentRole: 'main',
          sessionMemoryTokens: 5_000,
          restoreMaxFiles: 0,
          customInstructions: 'x',
          contextWindow: 30_000,
          microcompactMinSavings: 1_000,
        },
        CLAUDE_CODE_STRATEGY.knobSpecs,
      ),
    ).toEqual({ contextWindow: 30_000, microcompactMinSavings: 1_000 });
    // Claude Code's main-session knobs, as the reference lists them; another strategy marks none.
    expect(
      CLAUDE_CODE_STRATEGY.knobSpecs
        .filter((s) => s.mainSessionOnly)
        .map((s) => s.key)
        .sort(),
    ).toEqual(
      [
        'agentRole',
        'sessionMemoryTokens',
        'sessionMemoryKeepTokens',
        'customInstructions',
        'restoreMaxFiles',
        'restoreTokensPerFile',
        'restoreTotalTokens',
        'restoreOversized',
        'restoreTodos',
        'restorePlan',
        'restoreSkills',
        'restoreTokensPerSkill',
        'restoreSkillsTotalTokens',
        'planModeReminderTokens',
        'sessionStartHookTokens',
      ].sort(),
    );
    const mixed = await run({ agentRole: 'main', sessionMemoryTokens: 500, autocompactPctOverride: 5 });
    expect(mixed[0]!.result.knobs.agentRole).toBe('subagent');
    expect(mixed[0]!.result.knobs.sessionMemoryTokens).toBeUndefined();
    expect(mixed[0]!.result.events.filter((e) => e.kind === 'compact').map((e) => e.mechanism)).not.toContain(
      'session-memory',
    );
  });

  it('names the session entry each event follows: the subagent file’s entry, same line, same uuid', async () => {
    const [sub] = await run({ autocompactPctOverride: 5 });
    const alone = await parseSession([sources[subFile.index]!]);
    expect(sub!.eventEntryIndices).toHaveLength(sub!.result.events.length);
    expect(sub!.result.events.length).toBeGreaterThan(0);
    for (const [i, e] of sub!.result.events.entries()) {
      const at = sub!.eventEntryIndices[i]!;
      const entry = session.entries[at]!;
      expect(entry.fileIndex).toBe(subFile.index);
      expect(entry.line).toBe(alone.entries[e.afterEntryIndex]!.line);
      expect(entry.uuid).toBeDefined();
      expect(entry.uuid).toBe(e.afterUuid);
      // The session's index differs from the subagent's own (its entries follow the main file's).
      expect(at).not.toBe(e.afterEntryIndex);
    }
  });

  it('stops when cancelled', async () => {
    const abort = new AbortController();
    abort.abort();
    await expect(run({ autocompactPctOverride: 5 }, abort.signal)).rejects.toThrow();
  });
});
