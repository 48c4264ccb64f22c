import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { computeReplay } from '../../src/engine/replay/compute-replay';
import { checkReplayInvariants } from './invariants';
import { type PreparedReplay, prepareReplay } from '../../src/engine/replay/prepare';
import type { ReplayResult } from '../../src/engine/replay/types';
import { CODEX_STRATEGY } from '../../src/engine/strategies/codex';
import { type CodexKnobs, getCodexThreshold } from '../../src/engine/strategies/codex/descriptor';
import { getStrategy } from '../../src/engine/strategies/registry';
import { getDefaultStrategyId } from '../../src/engine/strategies/descriptors';
import { getSessionInfo } from '../../src/engine/strategies/types';
import { corpusFilesOf, corpusOrSkip, restoredRealLogFiles } from '../helpers/corpus';

// The Codex CLI strategy (strategies/codex/index.ts): a hand-written rollout for the rules, the
// invariants every replay keeps, and the corpus figure of docs/replay-accuracy.md "Codex CLI".

const WINDOW = 100_000;
/**
 * The source's limit for a logged window of 100,000: 90% of the raw window 100,000 ÷ 0.95 = 105,263
 * (openai_models.rs `auto_compact_token_limit`), not 90% of the logged one.
 */
const LIMIT = 94_736;
const at = (s: number) => new Date(Date.UTC(2026, 4, 1, 9, 0, s)).toISOString();
const line = (s: number, type: string, payload: unknown) =>
  JSON.stringify({ timestamp: at(s), type, payload });
const item = (s: number, payload: unknown) => line(s, 'response_item', payload);

/**
 * A rollout of `turns` turns: a user message of `userChars` characters, then two calls (a shell
 * command and its output each). Each call's input grows by its new messages: 12,000 tokens after a
 * user message, 3,000 after a tool output; every response writes 500 output tokens.
 */
function buildRollout(turns: number, userChars: number): string[] {
  const lines = [
    line(0, 'session_meta', { id: 's', cwd: '/w', originator: 'codex_cli_rs', cli_version: '0.120.0' }),
    line(0, 'turn_context', { turn_id: 't0', cwd: '/w', model: 'gpt-test', effort: 'low' }),
    item(0, { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Rules.' }] }),
  ];
  let input = 8_000;
  let total = 0;
  let s = 1;
  let call = 0;
  for (let t = 0; t < turns; t++) {
    lines.push(
      item(s, {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: `Turn ${t}: ${'x'.repeat(userChars)}` }],
      }),
    );
    input += 12_000;
    for (let c = 0; c < 2; c++) {
      if (c > 0) input += 3_000;
      const id = `call_${call++}`;
      lines.push(
        item(s, {
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'Running it.' }],
        }),
        item(s, { type: 'function_call', name: 'shell_command', arguments: '{"command":"ls"}', call_id: id }),
      );
      const last = {
        input_tokens: input,
        cached_input_tokens: 0,
        output_tokens: 500,
        reasoning_output_tokens: 0,
        total_tokens: input + 500,
      };
      total += input + 500;
      lines.push(
        line(s, 'event_msg', {
          type: 'token_count',
          info: {
            total_token_usage: { ...last, total_tokens: total },
            last_token_usage: last,
            model_context_window: WINDOW,
          },
          rate_limits: null,
        }),
        item(s, { type: 'function_call_output', call_id: id, output: 'a.txt\nb.txt\n'.repeat(200) }),
      );
      s++;
    }
  }
  return lines;
}

async function prepare(lines: string[], name = 'rollout-2026-05-01T09-00-00-test.jsonl') {
  const session = await parseSession([createMemorySource(name, new TextEncoder().encode(lines.join('\n')))]);
  return prepareReplay(session);
}

function run(prepared: PreparedReplay, knobs: Partial<CodexKnobs> = {}): ReplayResult {
  const { knobs: sessionKnobs } = CODEX_STRATEGY.getSessionKnobs(getSessionInfo(prepared));
  const result = computeReplay(prepared, 'codex', { ...sessionKnobs, ...knobs });
  expect(checkReplayInvariants(prepared, result)).toEqual([]);
  return result;
}

/** The first call whose `total_tokens` (input + output) reaches `threshold`. */
function firstAtOrAbove(prepared: PreparedReplay, threshold: number): number {
  for (let k = 0; k + 1 < prepared.calls.length; k++)
    if (prepared.recorded[k]! + prepared.output[k]! >= threshold) return k;
  return -1;
}

const compacts = (r: ReplayResult) => r.events.filter((e) => e.kind === 'compact');

describe('Codex CLI strategy', () => {
  it('is registered, picked for Codex sessions and takes the log’s window', async () => {
    expect(getStrategy('codex')).toBe(CODEX_STRATEGY);
    expect(getDefaultStrategyId('codex-cli')).toBe('codex');
    expect(getDefaultStrategyId('claude-code')).toBe('claude-code');
    const prepared = await prepare(buildRollout(10, 4_000));
    expect(prepared.session.format).toBe('codex-cli');
    const { knobs, notes } = CODEX_STRATEGY.getSessionKnobs(getSessionInfo(prepared));
    expect(knobs.contextWindow).toBe(WINDOW);
    expect(notes[0]).toMatch(/profiles are dated.*started 2026-05-01 → profile 'percent-90'/);
    expect(notes.join('\n')).toMatch(/model_context_window/);
    expect(
      CODEX_STRATEGY.getSessionKnobs({ ...getSessionInfo(prepared), contextWindow: undefined }).knobs,
    ).toMatchObject({ contextWindow: 258_400, thresholdPercent: 90, userMessageBudgetTokens: 20_000 });
    expect(getCodexThreshold(knobs)).toBe(LIMIT);
    // Codex's default for its 272k models (issue #40095): 244,800, not 90% of the logged 258,400.
    expect(getCodexThreshold({ ...knobs, contextWindow: 258_400 })).toBe(244_800);
  });

  it('fires at the first call whose input + output reaches 90% of the raw window', async () => {
    const prepared = await prepare(buildRollout(10, 4_000));
    const expected = firstAtOrAbove(prepared, LIMIT);
    expect(expected).toBeGreaterThan(0);
    const [first] = compacts(run(prepared));
    expect(first?.afterCallPos).toBe(expected);
    expect(first?.thresholdTokens).toBe(LIMIT);
    expect(first?.checkTokens).toBeGreaterThanOrEqual(LIMIT);
    // The call before stays under: input alone or with output.
    expect(prepared.recorded[expected - 1]! + prepared.output[expected - 1]!).toBeLessThan(LIMIT);
  });

  it('keeps at most the budget of the most recent user messages, truncating the one that crosses it', async () => {
    // User messages of ~11k attributed tokens each: more than the 20k budget before the trigger.
    const prepared = await prepare(buildRollout(10, 40_000));
    const [event] = compacts(run(prepared));
    expect(event?.keptTokens).toBe(20_000);
    expect(event?.note).toMatch(/user messages kept \(20,000 of 20,000 tokens\)/);
    const small = compacts(run(prepared, { userMessageBudgetTokens: 5_000 }))[0]!;
    expect(small.keptTokens).toBe(5_000);
    expect(small.afterCallPos).toBe(event!.afterCallPos);
    expect(event!.postTokens - small.postTokens).toBe(15_000);
    // Short messages: all of them are kept, under the budget.
    const short = compacts(run(await prepare(buildRollout(10, 400))))[0]!;
    expect(short.keptTokens).toBeGreaterThan(0);
    expect(short.keptTokens).toBeLessThan(20_000);
    // No file or tool result comes back: only the base, the summary with its prefix, the kept messages.
    expect(event!.reattachedTokens).toBe(0);
    expect(event!.postTokens).toBe(
      run(prepared).baseTokens + event!.summaryTokens! + event!.continuationTokens! + event!.keptTokens!,
    );
  });

  it('moves the event with the knobs', async () => {
    const prepared = await prepare(buildRollout(10, 4_000));
    const at90 = compacts(run(prepared))[0]!.afterCallPos;
    const at70 = compacts(run(prepared, { thresholdPercent: 70 }))[0]!.afterCallPos;
    expect(at70).toBe(firstAtOrAbove(prepared, 73_684));
    expect(at70).toBeLessThan(at90);
    const wide = compacts(run(prepared, { contextWindow: 120_000 }))[0]!.afterCallPos;
    expect(wide).toBe(firstAtOrAbove(prepared, 113_684));
    expect(wide).toBeGreaterThan(at90);
    expect(compacts(run(prepared, { autoCompactEnabled: false }))).toHaveLength(0);
    const lines = CODEX_STRATEGY.thresholds(CODEX_STRATEGY.normalizeKnobs({ thresholdPercent: '80' }));
    expect(lines.map((l) => [l.id, l.tokens])).toEqual([
      ['auto-compact', 217_600],
      ['window', 258_400],
    ]);
  });

  it('honours a manual compaction and keeps the invariants after repeated compactions', async () => {
    const prepared = await prepare(buildRollout(30, 4_000));
    const result = run(prepared);
    expect(compacts(result).length).toBeGreaterThan(1);
    for (const e of compacts(result)) expect(e.keptTokens ?? 0).toBeLessThanOrEqual(20_000);
    const manual = computeReplay(
      prepared,
      'codex',
      { autoCompactEnabled: false, contextWindow: WINDOW },
      {
        manual: [{ afterApiCall: prepared.calls[5]!, mechanism: 'full' }],
      },
    );
    expect(checkReplayInvariants(prepared, manual)).toEqual([]);
    expect(compacts(manual).map((e) => [e.trigger, e.afterCallPos])).toEqual([['manual', 5]]);
  });

  it('drops the oldest items first when the compaction request exceeds the raw window (remove_first_item, retry)', async () => {
    const prepared = await prepare(buildRollout(10, 4_000));
    const knobs = { autoCompactEnabled: false, contextWindow: 50_000 };
    const manual = { manual: [{ afterApiCall: prepared.calls[10]!, mechanism: 'full' as const }] };
    const result = computeReplay(prepared, 'codex', { ...CODEX_STRATEGY.defaultKnobs, ...knobs }, manual);
    expect(checkReplayInvariants(prepared, result)).toEqual([]);
    const kinds = result.events.filter((e) => e.kind !== 'blocked').map((e) => e.kind);
    expect(kinds).toEqual(['truncate', 'compact']);
    const cut = result.events.find((e) => e.kind === 'truncate')!;
    expect(cut.thresholdTokens).toBe(52_632);
    expect(cut.checkTokens).toBeGreaterThan(52_632);
    expect(cut.note).toMatch(/oldest items dropped until it fits/);
    const off = computeReplay(
      prepared,
      'codex',
      { ...CODEX_STRATEGY.defaultKnobs, ...knobs, overflowTrim: false },
      manual,
    );
    expect(off.events.filter((e) => e.kind === 'truncate')).toEqual([]);
  });

  it('counts the encrypted content of reasoning items that also carry a summary', async () => {
    // Each turn's first answer comes with a reasoning item of 60,000 encrypted characters
    // ((60,000 × 3/4 − 650) / 4 = 11,088 tokens once past the next user message), with or without
    // a readable summary: Codex counts the encrypted content either way. Seen in a real rollout
    // (Quelklef/shell-ws, CLI 0.105): 113 of its 178 reasoning items had a summary, and the
    // compaction fired only with them counted (194,859 + 50,141 ≥ 244,800).
    const withReasoning = (summary: boolean) => {
      const out: string[] = [];
      for (const l of buildRollout(10, 4_000)) {
        const record = JSON.parse(l) as { payload: { type?: string; role?: string } };
        if (record.payload.type === 'message' && record.payload.role === 'user')
          out.push(
            l,
            item(0, {
              type: 'reasoning',
              summary: summary ? [{ type: 'summary_text', text: 'Look at the files.' }] : [],
              content: null,
              encrypted_content: 'A'.repeat(60_000),
            }),
          );
        else out.push(l);
      }
      return out;
    };
    const plain = compacts(run(await prepare(buildRollout(10, 4_000))))[0]!;
    const sealed = compacts(run(await prepare(withReasoning(false))))[0]!;
    const summarized = compacts(run(await prepare(withReasoning(true))))[0]!;
    expect(sealed.afterCallPos).toBeLessThan(plain.afterCallPos);
    expect(summarized.afterCallPos).toBe(sealed.afterCallPos);
    expect(summarized.checkTokens).toBe(sealed.checkTokens);
    expect(summarized.note).toMatch(/\+ [\d,]+ earlier reasoning/);
  });

  it('runs from the CLI with --strategy codex', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'compactlab-codex-'));
    const file = join(dir, 'rollout-2026-05-01T09-00-00-test.jsonl');
    writeFileSync(file, `${buildRollout(10, 4_000).join('\n')}\n`);
    const out: string[] = [];
    const code = await main(['replay', file, '--strategy', 'codex'], (t) => out.push(t));
    expect(code).toBe(0);
    expect(out.join('\n')).toMatch(/compact auto full: check [\d,]+ ≥ 94,736/);
    expect(out.join('\n')).toMatch(/^note: Window 100,000 tokens/m);
  });
});

// At the log's own knobs, how many of the corpus rollouts' real compactions does the strategy put
// at the same API call (±1)? Skipped without ../shared/corpus.
corpusOrSkip('codex-strategy: the corpus figure');
const rollouts = corpusFilesOf('codex-cli');

describe.skipIf(rollouts.length === 0)('corpus: Codex compactions at the log’s own knobs', () => {
  it('reproduces the real compactions within one call', async () => {
    let expected = 0;
    let reproduced = 0;
    let exact = 0;
    const lines: string[] = [];
    for (const file of rollouts) {
      const session = await parseSession([createMemorySource(basename(file), readFileSync(file))]);
      if (session.format !== 'codex-cli') continue;
      const prepared = prepareReplay(session);
      const result = run(prepared);
      expected += result.comparison.expected;
      reproduced += result.comparison.reproduced;
      for (const o of result.comparison.outcomes) {
        if (o.delta === 0) exact++;
        lines.push(`${basename(file).slice(-16)} #${o.compactionIndex}: ${o.status} ${o.delta ?? ''}`);
      }
    }
    console.log(
      `Codex corpus: ${reproduced}/${expected} real compactions within ±1 call, ${exact} at the same call (${rollouts.length} rollouts)\n  ${lines.join('\n  ')}`,
    );
    // 3 of 3 at the same call: the source's limit (244,800) on the last usage plus the estimate of
    // the earlier encrypted reasoning (the compactions at 213,218 and 232,571 of usage had 32,027
    // and 16,383 of it). Before: 2 exact and one a call late, with 90% of the logged window and
    // the usage alone (docs/replay-accuracy.md "Codex CLI"), and the output counted reasoning twice.
    expect(expected).toBe(3);
    expect(reproduced).toBe(3);
    expect(exact).toBe(3);
  });
});

// A restored real log (tests/real-logs/manifest.json; skipped when .real-logs/ was not restored):
// Codex CLI 0.105 on gpt-5.4, whose reasoning items carry a summary beside their encrypted
// content. Its one compaction, at a turn start after call 182 (194,859 in total + 50,141 of
// earlier reasoning ≥ 244,800), was replayed 6 calls late when summarized items counted nothing.
const summarizedReasoning = restoredRealLogFiles().filter((f) =>
  f.endsWith('rollout-2026-03-18T11-04-43-019d021f-1244-77d2-b5aa-ba1d70f11e87.jsonl'),
);
describe.skipIf(summarizedReasoning.length === 0)(
  'real log: reasoning with summaries (Quelklef/shell-ws)',
  () => {
    it('reproduces its compaction at the same call', async () => {
      const file = summarizedReasoning[0]!;
      const prepared = prepareReplay(
        await parseSession([createMemorySource(basename(file), readFileSync(file))]),
      );
      const result = run(prepared);
      expect(result.comparison.expected).toBe(1);
      expect(result.comparison.outcomes.map((o) => [o.status, o.delta])).toEqual([['matched', 0]]);
    });
  },
);
