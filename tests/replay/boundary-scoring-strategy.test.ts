import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { computeReplay } from '../../src/engine/replay/compute-replay';
import { checkReplayInvariants } from './invariants';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { BOUNDARY_SCORING_STRATEGY } from '../../src/engine/strategies/boundary-scoring';
import { DEFAULT_BOUNDARY_SCORING_KNOBS as K } from '../../src/engine/strategies/boundary-scoring/knobs';
import {
  type BoundaryMessage,
  detectsTopicChange,
  estimateStringTokens,
  findCompactionBoundary,
  hasNearbyErrors,
  isConversationBreak,
  isInToolSequence,
  scoreBoundary,
  toBoundaryMessage,
} from '../../src/engine/strategies/boundary-scoring/scores';
import { getBoundaryScores } from '../../src/engine/strategies/boundary-scoring/detail';
import { createRuleBasedSummary } from '../../src/engine/strategies/boundary-scoring/summary';
import type { Entry } from '../../src/engine/types';
import { buildTranscript, growingSpec } from './transcript-fixture';

// Boundary-scoring microcompaction (strategies/boundary-scoring/index.ts, microcompaction-deep-dive.md):
// each score on hand-made transcripts, the search window, the estimator, the rule-based summary,
// and the strategy in the replay.

type Block = Record<string, unknown>;
interface Msg {
  role: 'user' | 'assistant';
  content: string | Block[];
  /** Seconds after the start. */
  at?: number;
}

let seq = 0;
/** Parses hand-made messages as Claude Code lines; returns their entries in order. */
async function entriesOf(msgs: Msg[]): Promise<Entry[]> {
  let parent: string | null = null;
  const lines = msgs.map((m, i) => {
    const uuid = `u-${++seq}`;
    const line: Record<string, unknown> = {
      parentUuid: parent,
      isSidechain: false,
      type: m.role,
      sessionId: 's',
      version: '2.1.68',
      uuid,
      timestamp: new Date(Date.UTC(2026, 0, 1, 9, 0, m.at ?? i)).toISOString(),
      message:
        m.role === 'assistant'
          ? {
              id: `msg-${seq}`,
              role: 'assistant',
              model: 'claude-test',
              content: m.content,
              usage: { input_tokens: 10, output_tokens: 5 },
            }
          : { role: 'user', content: m.content },
    };
    parent = uuid;
    return JSON.stringify(line);
  });
  const session = await parseSession([createMemorySource('hand.jsonl', `${lines.join('\n')}\n`)]);
  return session.entries.filter((e) => e.role !== undefined);
}

const text = (t: string): Block => ({ type: 'text', text: t });
const use = (id: string, name = 'Bash', input: unknown = { command: 'ls' }): Block => ({
  type: 'tool_use',
  id,
  name,
  input,
});
const result = (id: string, content = 'ok', isError = false): Block => ({
  type: 'tool_result',
  tool_use_id: id,
  content,
  is_error: isError,
});

async function view(msgs: Msg[]) {
  const messages: BoundaryMessage[] = (await entriesOf(msgs)).map(toBoundaryMessage);
  return { at: (i: number) => messages[i], n: messages.length };
}

describe('boundary scores (microcompaction-deep-dive.md "Boundary Scoring Algorithm")', () => {
  it('+50 after a tool result, +30 after an assistant message, base 100', async () => {
    const { at, n } = await view([
      { role: 'user', content: 'List the files.' },
      { role: 'assistant', content: [use('t1')] },
      { role: 'user', content: [result('t1')] },
      { role: 'assistant', content: [text('Done listing.')] },
      { role: 'user', content: 'Thanks for listing the files.' },
    ]);
    const termsAt = (i: number) => scoreBoundary(at, i, n, K).factors.map((f) => f.id);
    expect(termsAt(3)).toContain('after-tool-result');
    expect(termsAt(3)).not.toContain('after-assistant');
    expect(termsAt(4)).toContain('after-assistant');
    expect(termsAt(4)).not.toContain('after-tool-result');
    // After a typed user message: neither.
    expect(termsAt(1)).toEqual(['base']);
    expect(scoreBoundary(at, 1, n, K).score).toBe(100);
    expect(scoreBoundary(at, 4, n, K).score).toBe(130);
  });

  it('−100 between a tool_use and its result, and where the next call names the previous result', async () => {
    const { at, n } = await view([
      { role: 'user', content: 'Go.' },
      { role: 'assistant', content: [use('toolu_A')] },
      { role: 'user', content: [result('toolu_A')] },
      { role: 'assistant', content: [text('Using toolu_A output'), use('toolu_B')] },
      { role: 'user', content: [result('toolu_B')] },
      { role: 'assistant', content: [use('toolu_C')] },
    ]);
    expect(isInToolSequence(at, 2, n)).toBe(true);
    expect(isInToolSequence(at, 3, n)).toBe(true);
    // toolu_B's result is not named by the next call's text.
    expect(isInToolSequence(at, 5, n)).toBe(false);
    expect(isInToolSequence(at, 1, n)).toBe(false);
    expect(scoreBoundary(at, 2, n, K).score).toBe(100 + 30 - 100);
  });

  it('+20 at a natural break: user → user, a pause over 5 minutes, a break phrase', async () => {
    const { at, n } = await view([
      { role: 'user', content: 'First question.', at: 0 },
      { role: 'user', content: 'Second question.', at: 1 },
      { role: 'assistant', content: [text('An answer.')], at: 2 },
      { role: 'assistant', content: [text('A later answer.')], at: 2 + 301 },
      { role: 'assistant', content: [text('Same minute.')], at: 2 + 302 },
      { role: 'user', content: 'OK, moving on to the tests.', at: 2 + 303 },
    ]);
    expect(isConversationBreak(at, 1, n, K)).toBe(true);
    expect(isConversationBreak(at, 2, n, K)).toBe(false);
    expect(isConversationBreak(at, 3, n, K)).toBe(true);
    expect(isConversationBreak(at, 4, n, K)).toBe(false);
    expect(isConversationBreak(at, 5, n, K)).toBe(true);
    expect(isConversationBreak(at, 5, n, { ...K, breakPhrases: [] })).toBe(false);
    expect(isConversationBreak(at, 3, n, { ...K, breakGapMinutes: 10 })).toBe(false);
  });

  it('−30 near an error: within 2 messages either side (ours)', async () => {
    const msgs: Msg[] = [{ role: 'user', content: 'Run it.' }];
    for (let i = 0; i < 4; i++)
      msgs.push(
        { role: 'assistant', content: [use(`t${i}`)] },
        { role: 'user', content: [result(`t${i}`, 'x', i === 2)] },
      );
    // Messages: 0 prompt, 1 use t0, 2 res t0, 3 use t1, 4 res t1, 5 use t2, 6 res t2 (error), 7 use t3, 8 res t3.
    const { at, n } = await view(msgs);
    expect(hasNearbyErrors(at, 5, n, K)).toBe(true);
    expect(hasNearbyErrors(at, 7, n, K)).toBe(true);
    expect(hasNearbyErrors(at, 8, n, K)).toBe(true);
    expect(hasNearbyErrors(at, 4, n, K)).toBe(false);
    expect(hasNearbyErrors(at, 9, n, K)).toBe(false);
    expect(hasNearbyErrors(at, 4, n, { ...K, errorRadiusMessages: 3 })).toBe(true);
  });

  it('+25 at a topic change: a typed message sharing under 20% of its words with the previous one (ours)', async () => {
    const { at, n } = await view([
      { role: 'user', content: 'Refactor the parser module tokenizer' },
      { role: 'assistant', content: [text('Done.')] },
      { role: 'user', content: 'Now the parser module tokenizer tests' },
      { role: 'assistant', content: [text('Done.')] },
      { role: 'user', content: 'Deploy website banner colours please' },
    ]);
    expect(detectsTopicChange(at, 2, n, K)).toBe(false);
    expect(detectsTopicChange(at, 4, n, K)).toBe(true);
    // The first typed message has nothing to change from; an assistant message is no topic.
    expect(detectsTopicChange(at, 0, n, K)).toBe(false);
    expect(detectsTopicChange(at, 3, n, K)).toBe(false);
    expect(scoreBoundary(at, 4, n, K).factors.map((f) => f.id)).toEqual([
      'base',
      'after-assistant',
      'topic-change',
    ]);
  });

  it('searches ±5 around half the messages, not before 10 nor in the last 5; first best wins', async () => {
    const msgs: Msg[] = [];
    for (let i = 0; i < 15; i++)
      msgs.push(
        { role: 'user', content: `Step ${i} of the same task` },
        { role: 'assistant', content: [text('ok')] },
      );
    const { at, n } = await view(msgs);
    expect(n).toBe(30);
    const { best, candidates } = findCompactionBoundary(at, n, K, (i) => i);
    expect(candidates.map((c) => c.messageIndex)).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    // Even indices follow an assistant message (+30), odd ones a typed message (+0): the first best wins.
    expect(best?.messageIndex).toBe(10);
    expect(candidates.filter((c) => c.chosen)).toHaveLength(1);
    const few = findCompactionBoundary(at, 12, K, (i) => i);
    expect(few.candidates).toEqual([]);
    expect(few.best).toBeUndefined();
    // An unsafe split is scored but never chosen.
    const safe = findCompactionBoundary(
      at,
      n,
      K,
      (i) => i,
      (i) => i !== 10,
    );
    expect(safe.best?.messageIndex).toBe(12);
    expect(safe.candidates[0]!.unsafe).toBe(true);
  });
});

describe('the document\'s token estimator ("Token Estimation")', () => {
  it('chars / 4 rounded up, +50 per code block, −10 per URL, less for repeated lines', () => {
    expect(estimateStringTokens('abcde')).toBe(2);
    expect(estimateStringTokens('```js\nx\n```')).toBe(Math.ceil(11 / 4) + 50);
    const url = `see https://example.com/${'a'.repeat(76)}`;
    expect(estimateStringTokens(url)).toBe(Math.ceil(url.length / 4) - 10);
    const repeated = Array.from({ length: 10 }, () => 'same line here').join('\n');
    expect(estimateStringTokens(repeated)).toBeLessThan(Math.ceil(repeated.length / 4));
    // The full length counts where the text is a preview.
    expect(estimateStringTokens('abcd', 4_000)).toBe(1_000);
  });
});

describe('the rule-based summary ("Summarization Strategies")', () => {
  it('statistics, tool usage, narrative, critical changes and preserved results, sized from its text', async () => {
    const entries = await entriesOf([
      { role: 'user', content: 'Fix the login bug' },
      {
        role: 'assistant',
        content: [use('e1', 'Edit', { file_path: '/src/auth.ts', old_string: 'a', new_string: 'b' })],
      },
      { role: 'user', content: [result('e1', 'The file /src/auth.ts has been updated.')] },
      { role: 'assistant', content: [use('b1', 'Bash', { command: 'npm install jose' })] },
      { role: 'user', content: [result('b1', 'added 1 package')] },
      { role: 'assistant', content: [use('b2', 'Bash', { command: 'npm test' })] },
      { role: 'user', content: [result('b2', 'Error: Module not found', true)] },
      { role: 'assistant', content: [text('Found the issue in auth.ts line 42.')] },
    ]);
    const options = {
      messageCount: entries.length,
      originalTokens: 1234,
      targetRatioPercent: 50,
      preserveToolCalls: true,
      preserveToolResults: true,
      criticalTools: K.criticalTools,
      systemCommands: K.systemCommands,
      shellTools: ['Bash'],
    };
    const s = createRuleBasedSummary(entries, options);
    const all = s.messages.join('\n');
    expect(all).toContain('# Previous Conversation Summary');
    expect(all).toContain('- Tool calls: 3');
    expect(all).toContain('- Errors encountered: 1');
    expect(all).toContain('- Original tokens: ~1234');
    expect(all).toContain('- Savings: ~50%');
    expect(all).toContain('## Tool Usage Summary');
    expect(all).toContain('- Bash: 2 calls');
    expect(all).toContain('### User Requests\n- Fix the login bug');
    expect(all).toContain('### Issues Resolved\n- Bash error: 1 occurrences');
    expect(all).toMatch(/- Edit: \/src\/auth\.ts \(file_modification\)/);
    expect(all).toMatch(/- Bash: npm install jose \(system_change\)/);
    expect(all).toMatch(/- Bash: npm test \(error_context\)/);
    expect(s.preserved.map((p) => p.toolUseId)).toEqual(['e1', 'b1', 'b2']);
    expect(all).toContain('[Preserved Tool Result: b2]\nError: Module not found');
    expect(s.tokens).toBe(Math.round(s.messages.reduce((n, m) => n + m.length, 0) / 4));
    const lean = createRuleBasedSummary(entries, {
      ...options,
      preserveToolCalls: false,
      preserveToolResults: false,
    });
    expect(lean.messages.join('\n')).not.toContain('## Tool Usage Summary');
    expect(lean.preserved).toEqual([]);
    expect(lean.tokens).toBeLessThan(s.tokens);
  });
});

describe('the boundary-scoring strategy in the replay', () => {
  it('compacts at the threshold by its own estimator, keeps the messages after the chosen split', async () => {
    const lines = buildTranscript(growingSpec(60, { start: 20_000, stepTokens: 4_000 }));
    const session = await parseSession([createMemorySource('grow.jsonl', `${lines.join('\n')}\n`)]);
    const prepared = prepareReplay(session);
    const result = computeReplay(prepared, 'boundary-scoring', { thresholdTokens: 100_000 });
    expect(checkReplayInvariants(prepared, result)).toEqual([]);
    const compacts = result.events.filter((e) => e.kind === 'compact');
    expect(compacts.length).toBeGreaterThan(0);
    for (const e of compacts) {
      expect(e.mechanism).toBe('partial');
      expect(e.checkTokens).toBeGreaterThanOrEqual(100_000);
      expect(e.summarySource).toBe('model');
      const chosen = getBoundaryScores(e)!.filter((c) => c.chosen);
      expect(chosen).toHaveLength(1);
      expect(e.keptFromEntryIndex).toBe(chosen[0]!.entryIndex);
      const safeScores = getBoundaryScores(e)!
        .filter((c) => !c.unsafe)
        .map((c) => c.score);
      expect(chosen[0]!.score).toBe(Math.max(...safeScores));
      // Each candidate's score is the sum of its terms.
      for (const c of getBoundaryScores(e)!)
        expect(c.score).toBe(c.factors.reduce((a, f) => a + f.points, 0));
    }
    // The context counter fires later: the replay's context holds the system prompt and tools too.
    const higher = computeReplay(prepared, 'boundary-scoring', { thresholdTokens: 300_000 });
    expect(higher.events.filter((e) => e.kind === 'compact').length).toBeLessThan(compacts.length);
  });

  it('its knobs are specs: every one has a source and a CLI flag; --help lists them', async () => {
    for (const spec of BOUNDARY_SCORING_STRATEGY.knobSpecs) {
      expect(spec.source, spec.key).toMatch(/docs\/sources\.md#mdd|ours/);
      expect(spec.cliFlag, spec.key).toBeTruthy();
    }
    const out: string[] = [];
    await main(['replay', '--strategy', 'boundary-scoring', '--help'], (t) => out.push(t));
    const help = out.join('\n');
    for (const flag of [
      '--threshold',
      '--target-ratio',
      '--min-messages',
      '--search-window',
      '--score-tool-sequence',
    ])
      expect(help).toContain(flag);
  });

  it('runs from the CLI with a named flag', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'compactlab-bs-'));
    const file = join(dir, 'session.jsonl');
    writeFileSync(file, `${buildTranscript(growingSpec(60, { stepTokens: 4_000 })).join('\n')}\n`);
    const out: string[] = [];
    const code = await main(
      ['replay', file, '--strategy', 'boundary-scoring', '--threshold', '100000'],
      (t) => out.push(t),
    );
    expect(code).toBe(0);
    expect(out.join('\n')).toMatch(/compact auto partial/);
    expect(out.join('\n')).toMatch(/summary \d+ \(model\), restored 0 files 0, kept [\d,]+/);
  });
});
