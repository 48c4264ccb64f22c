import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';
import { buildCompactionRequest } from '../../src/engine/compact/build-request';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { GEMINI_CLI, GEMINI_CLI_PROBE_PROMPT } from '../../src/engine/strategies/gemini-cli/prompt';
import { computeReplay } from '../../src/engine/replay/compute-replay';
import { checkReplayInvariants } from './invariants';
import { type PreparedReplay, prepareReplay } from '../../src/engine/replay/prepare';
import type { ReplayResult } from '../../src/engine/replay/types';
import { getSessionWindow } from '../../src/engine/parse/context-window';
import { getGeminiTokenLimit } from '../../src/engine/parse/dialects/gemini-cli/info';
import { corpusOrSkip, foreignFiles } from '../helpers/corpus';
import { findGeminiSplit, GEMINI_CLI_STRATEGY } from '../../src/engine/strategies/gemini-cli';
import { getGeminiThreshold } from '../../src/engine/strategies/gemini-cli/descriptor';
import type { GeminiCliKnobs } from '../../src/engine/strategies/gemini-cli/knobs';
import { requirePreset } from '../../src/engine/strategies/prompt-presets';
import { getStrategy } from '../../src/engine/strategies/registry';
import { getDefaultStrategyId } from '../../src/engine/strategies/descriptors';
import { getSessionInfo } from '../../src/engine/strategies/types';
import type { Session } from '../../src/engine/types';
import { buildTranscript, type CallSpec, parseFixture, type TranscriptSpec } from './transcript-fixture';
import { expectKind } from './events';

// The Gemini CLI strategy (strategies/gemini-cli/index.ts): the split rule on plain lists, then
// hand-written logs whose tool outputs have known sizes for the trigger (0.5 of the limit, on
// the last prompt), the 30% kept from a user message that is not a function response, the
// function-response budget, and the two summarizer calls (snapshot, probe) the request shows.

describe('findGeminiSplit (chatCompressionService.ts findCompressSplitPoint)', () => {
  const positions = Array.from({ length: 10 }, (_, i) => i);
  const chars = positions.map(() => 100);
  const users = new Set([0, 3, 6, 8]);
  const input = (over: Partial<Parameters<typeof findGeminiSplit>[0]> = {}) => ({
    headChars: 0,
    positions,
    chars,
    candidate: (p: number) => users.has(p),
    endsOnAnswer: false,
    ...over,
  });

  it('keeps from the first user message at or past 70% of the characters', () => {
    // 700 of 1,000: message 6 starts at 600 (under), message 8 at 800.
    expect(findGeminiSplit(input(), 0.7)).toBe(8);
    expect(findGeminiSplit(input(), 0.6)).toBe(6);
    expect(findGeminiSplit(input(), 0.5)).toBe(6);
    // A function response (here 7) is never a split point, however close to the target.
    expect(findGeminiSplit(input(), 0.65)).toBe(8);
  });

  it('falls back to the last user message, everything on a final answer, nothing at the first', () => {
    expect(findGeminiSplit(input(), 0.95)).toBe(8);
    expect(findGeminiSplit(input({ endsOnAnswer: true }), 0.95)).toBe(Number.POSITIVE_INFINITY);
    // Only the first message is a user turn: splitting there compresses nothing.
    expect(findGeminiSplit(input({ candidate: (p) => p === 0 }), 0.7)).toBe(-1);
    // After a summary (the head), the first live user message is a split point.
    expect(findGeminiSplit(input({ candidate: (p) => p === 0, headChars: 5_000 }), 0.7)).toBe(0);
  });
});

/**
 * Ten user turns of one read each: turns 0–6 read 4,000 characters, turns 7–9 read 40,000 (10,000
 * tokens). Turn 9 makes a second, last call. The first nine calls' contexts stay under 50,000;
 * call 9 (turn 9's first) is at 60,000.
 */
function turnsSpec(): TranscriptSpec {
  const calls: CallSpec[] = Array.from({ length: 10 }, (_, t) => ({
    prompt: `Turn ${t}: go on.`,
    context: t < 9 ? 10_000 + t * 1_000 : 60_000,
    output: t === 8 ? 45_000 : 100,
    tools: [{ name: 'Read', path: `/w/src/f${t}.ts`, resultChars: t < 7 ? 4_000 : 40_000 }],
  }));
  // A last answer with nothing after it: no request follows, so no check after it.
  calls.push({ context: 61_000 });
  return { calls };
}

async function load(spec: TranscriptSpec) {
  const { session, sources } = await parseFixture(spec);
  return { session, sources, prepared: prepareReplay(session) };
}

/** A 100,000-token model: compression at 50,000. */
const SMALL: Partial<GeminiCliKnobs> = { tokenLimit: 100_000 };

function run(prepared: PreparedReplay, knobs: Partial<GeminiCliKnobs> = {}): ReplayResult {
  const result = computeReplay(prepared, 'gemini-cli', {
    ...GEMINI_CLI_STRATEGY.defaultKnobs,
    ...SMALL,
    ...knobs,
  });
  expect(checkReplayInvariants(prepared, result)).toEqual([]);
  return result;
}

const compacts = (r: ReplayResult) => r.events.filter((e) => e.kind === 'compact');
const promptOf = (session: Session, entryIndex: number | undefined) => {
  const e = session.entries[entryIndex ?? -1];
  return e?.kind === 'user' && e.blocks[0]?.kind === 'text' ? e.blocks[0].text : undefined;
};

describe('Gemini CLI strategy', () => {
  it('is registered, shown first for Gemini CLI logs, with the limit of the log’s model', () => {
    expect(getStrategy('gemini-cli')).toBe(GEMINI_CLI_STRATEGY);
    expect(getDefaultStrategyId('gemini-cli')).toBe('gemini-cli');
    expect(getDefaultStrategyId('gemini-cli-json')).toBe('gemini-cli');
    expect(getGeminiTokenLimit('gemini-2.5-pro')).toBe(1_048_576);
    expect(getGeminiTokenLimit('gemini-1.5-pro-002')).toBe(2_097_152);
    expect(getGeminiTokenLimit('claude-opus-4-6')).toBeUndefined();
    expect(getGeminiThreshold(GEMINI_CLI_STRATEGY.defaultKnobs)).toBe(524_288);
    expect(GEMINI_CLI_STRATEGY.defaultKnobs).toMatchObject({
      compressionThreshold: 0.5,
      preserveFraction: 0.3,
      functionResponseBudgetTokens: 50_000,
      probe: true,
    });
    const info = {
      versions: [],
      models: ['gemini-2.5-flash'],
      isSubagent: false,
      autoCompactions: 0,
      microcompactions: 0,
      continuedPeakTokens: 0,
      format: 'gemini-cli',
    };
    const { knobs, notes } = GEMINI_CLI_STRATEGY.getSessionKnobs(info);
    expect(knobs.tokenLimit).toBe(1_048_576);
    expect(notes.join('\n')).not.toMatch(/not a Gemini CLI chat/);
    expect(
      GEMINI_CLI_STRATEGY.thresholds(GEMINI_CLI_STRATEGY.normalizeKnobs({ compressionThreshold: '0.7' })),
    ).toEqual([
      { id: 'compress', label: 'Gemini CLI compression', tokens: 734_004, kind: 'trigger' },
      { id: 'window', label: 'Token limit', tokens: 1_048_576, kind: 'limit' },
    ]);
  });

  it('compresses when the last prompt (not its output) reaches 0.5 of the limit', async () => {
    const { prepared } = await load(turnsSpec());
    // Call 8's input + output is 63,000, its input 18,000: no compression there.
    expect(prepared.recorded[8]! + prepared.output[8]!).toBeGreaterThan(50_000);
    const [event, ...rest] = compacts(run(prepared));
    expect(event?.afterCallPos).toBe(9);
    expect(event?.checkTokens).toBe(60_000);
    expect(event?.thresholdTokens).toBe(50_000);
    expect(rest).toHaveLength(0);
    expect(compacts(run(prepared, { compressionThreshold: 0.7 }))).toHaveLength(0);
    expect(compacts(run(prepared, { tokenLimit: 120_000 }))[0]?.afterCallPos).toBe(9);
    expect(compacts(run(prepared, { tokenLimit: 121_000 }))).toHaveLength(0);
  });

  it('keeps the newest 30% by characters, from a user message that is not a function response', async () => {
    const { session, prepared } = await load(turnsSpec());
    const event = compacts(run(prepared))[0]!;
    // ≈ 29,900 characters in turns 0–6, ≈ 40,350 in each of 7–9: 70% is reached only after turn
    // 8, so the kept part is turn 9 from its prompt (about 27% of the characters).
    expect(promptOf(session, event.keptFromEntryIndex)).toBe('Turn 9: go on.');
    expect(event.mechanism).toBe('partial');
    expect(event.note).toMatch(/newest [\d,]+ of [\d,]+ characters kept \(27%\), from a user message/);
    // The summary covers turns 0–8: its span ends on turn 8's read.
    expect(event.spanToEntryIndex).toBeLessThan(event.keptFromEntryIndex!);
    expect(event.keptTokens).toBeGreaterThan(0);
    expect(event.postTokens).toBeLessThan(event.checkTokens);
    // Keeping 60% moves the split back to turn 8's prompt (40% is reached during turn 7).
    const half = compacts(run(prepared, { preserveFraction: 0.6 }))[0]!;
    expect(promptOf(session, half.keptFromEntryIndex)).toBe('Turn 8: go on.');
  });

  it('holds the kept function responses to the budget, newest first, before the split', async () => {
    const { session, prepared } = await load(turnsSpec());
    // A 5,000-token budget, responses cut to 5,000 characters: turns 7–9's 40,000-character reads
    // are over it (turns 0–6's 4,000 are not longer than the cut). Truncated, turns 7–9 hold
    // ≈ 5,550 characters each: 70% is reached after turn 7, and turns 8–9 are kept.
    const result = run(prepared, { functionResponseBudgetTokens: 5_000, truncateOutputChars: 5_000 });
    const [replaceEvent, compactEvent, ...rest] = result.events;
    expect(rest).toHaveLength(0);
    const replace = expectKind(replaceEvent, 'replace');
    expect(replace?.afterCallPos).toBe(9);
    // Only the kept part's truncation survives the summary.
    expect(replace?.clearedToolIds).toEqual(['toolu_8_0', 'toolu_9_0']);
    expect(replace?.note).toMatch(/2 function responses over the 5,000-token budget cut to 5,000 characters/);
    const compact = expectKind(compactEvent, 'compact');
    expect(promptOf(session, compact.keptFromEntryIndex)).toBe('Turn 8: go on.');
    // The budget at its default (50,000): nothing is cut.
    expect(run(prepared).events.filter((e) => e.kind === 'replace')).toHaveLength(0);
  });

  it('makes two LLM calls, and the request shows both: the snapshot, then the probe', async () => {
    const { session, sources, prepared } = await load(turnsSpec());
    const event = compacts(run(prepared))[0]!;
    expect(event.llmCalls).toBe(2);
    expect(event.request?.promptPresetId).toBe('gemini-cli');
    const request = await buildCompactionRequest(session, sources, {
      ...event.request!,
      promptPreset: requirePreset(event.request!.promptPresetId!),
    });
    expect(request.system).toBe(GEMINI_CLI.systemPrompt);
    expect(request.prompt).toBe(GEMINI_CLI.prompt);
    expect(request.presetId).toBe('gemini-cli');
    expect(request.followUps).toHaveLength(1);
    expect(request.followUps![0]!.prompt).toBe(GEMINI_CLI_PROBE_PROMPT);
    // The probe re-sends the messages and the first answer: larger than the first request less its prompt.
    expect(request.followUps![0]!.estimatedTokens).toBeGreaterThan(request.estimatedTokens);
    // The summarized span, not the kept turn, goes to the summarizer.
    expect(request.uptoEntryIndex).toBeLessThan(event.keptFromEntryIndex!);
    const noProbe = compacts(run(prepared, { probe: false }))[0]!;
    expect(noProbe.llmCalls).toBe(1);
    expect(noProbe.postTokens).toBe(event.postTokens);
  });

  it('compresses everything when the history ends on an answer without a function call', async () => {
    const spec = turnsSpec();
    // Turn 9's first call answers at length without a tool: the history ends on the model's text,
    // and no user message starts at or past 70% (turn 9's prompt starts at ≈ 69%).
    spec.calls[9] = { ...spec.calls[9]!, tools: [], text: 'a'.repeat(50_000) };
    const { prepared } = await load(spec);
    const event = compacts(run(prepared))[0]!;
    expect(event.mechanism).toBe('full');
    expect(event.keptFromEntryIndex).toBeUndefined();
    expect(event.note).toMatch(/ends on an answer: all of it compressed/);
  });

  it('runs from the CLI with --strategy gemini-cli and --knob', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'compactlab-gemini-'));
    const file = join(dir, 'session.jsonl');
    writeFileSync(file, `${buildTranscript(turnsSpec()).join('\n')}\n`);
    const out: string[] = [];
    const code = await main(
      ['replay', file, '--strategy', 'gemini-cli', '--window', '100000', '--knob', 'preserveFraction=0.6'],
      (t) => out.push(t),
    );
    expect(code).toBe(0);
    expect(out.join('\n')).toMatch(/compact auto partial: check 60,000 ≥ 50,000, .*2 LLM calls/);
    const help: string[] = [];
    expect(await main(['replay', '--strategy', 'gemini-cli', '--help'], (t) => help.push(t))).toBe(0);
    for (const spec of GEMINI_CLI_STRATEGY.knobSpecs) expect(help.join('\n')).toContain(spec.key);
  });
});

// The log's own knobs on a Claude Code log: its window as the token limit.
it('takes the log’s window on another agent’s log', async () => {
  const { prepared } = await load(turnsSpec());
  const { knobs, notes } = GEMINI_CLI_STRATEGY.getSessionKnobs(getSessionInfo(prepared));
  expect(knobs.tokenLimit).toBe(200_000);
  expect(notes.join('\n')).toMatch(/not a Gemini CLI chat/);
});

// A Gemini CLI chat log (tests/fixtures/agents, make-agent-fixtures.ts): its model's limit, and a
// compression kept from its second prompt (its function responses sit in the model's turn).
it('replays a Gemini CLI log at its own model’s limit, split at its second prompt', async () => {
  const file = 'session-2026-03-09T11-00-5e6f7a8b.jsonl';
  const session = await parseSession([
    createMemorySource(file, readFileSync(join(__dirname, '../fixtures/agents', file))),
  ]);
  expect(session.format).toBe('gemini-cli');
  const prepared = prepareReplay(session);
  const { knobs, notes } = GEMINI_CLI_STRATEGY.getSessionKnobs(getSessionInfo(prepared));
  expect(knobs.tokenLimit).toBe(1_048_576);
  expect(notes.join('\n')).not.toMatch(/not a Gemini CLI chat/);
  const [event] = compacts(run(prepared, { tokenLimit: 10_000 }));
  // After the second call (the answer to the first prompt, then the second prompt).
  expect(event?.afterCallPos).toBe(1);
  const prompts = session.entries.filter((e) => e.kind === 'user').map((e) => e.index);
  expect(event?.keptFromEntryIndex).toBe(prompts[1]);
  // The system prompt alone is over half of 10,000: the event says why it stays over.
  expect(event?.note).toMatch(/not under the 5,000 threshold/);
});

// Replay accuracy on a Gemini CLI log without a compression notice: at the log's own knobs (its
// model's 1,048,576 limit) there is nothing to reproduce, and the notes say so.
it('compares nothing on a Gemini CLI log at its own knobs when the chat holds no compression notice', async () => {
  const file = 'session-2026-03-09T11-00-5e6f7a8b.jsonl';
  const session = await parseSession([
    createMemorySource(file, readFileSync(join(__dirname, '../fixtures/agents', file))),
  ]);
  const prepared = prepareReplay(session);
  expect(prepared.real).toEqual([]);
  const { knobs, notes } = GEMINI_CLI_STRATEGY.getSessionKnobs(getSessionInfo(prepared));
  expect(notes.join('\n')).toMatch(/holds no compression notice/);
  const result = run(prepared, knobs);
  expect(compacts(result)).toEqual([]);
  expect(result.comparison).toMatchObject({
    expected: 0,
    reproduced: 0,
    outcomes: [],
    extraEventIndices: [],
  });
  // Below the limit a replay compression is reported as extra: nothing in the log matches it.
  const low = run(prepared, { tokenLimit: 10_000 });
  expect(low.comparison.extraEventIndices).toHaveLength(compacts(low).length);
  expect(compacts(low).length).toBeGreaterThan(0);
});

// A real chat (fabien-lessirard/dotfiles, 2026-02, gemini-2.5-pro/flash) holds the CLI's notice
// of an automatic compression as an `info` message (useGeminiStream.ts
// handleChatCompressionEvent), its only trace: "compressed from: 526049 to 115614 tokens", the
// next call at 169,274. The reader found no compaction there ("Compactions (0)").
it('reads the compression notice of a chat as the log’s compaction, with its counts', async () => {
  const at = (s: number) => `2026-02-23T14:0${s}:00.000Z`;
  const gemini = (id: string, s: number, input: number) => ({
    id,
    timestamp: at(s),
    type: 'gemini',
    content: 'Done.',
    model: 'gemini-2.5-flash',
    tokens: { input, output: 100, cached: 0, thoughts: 0, tool: 0, total: input + 100 },
  });
  const notice = (id: string, s: number, from: string, to: string) => ({
    id,
    timestamp: at(s),
    type: 'info',
    content: `IMPORTANT: This conversation exceeded the compress threshold. A compressed context will be sent for future messages (compressed from: ${from} to ${to} tokens).`,
  });
  const user = (id: string, s: number) => ({
    id,
    timestamp: at(s),
    type: 'user',
    content: [{ text: 'Go on.' }],
  });
  const chat = {
    sessionId: 'c9da8256-0000-4000-8000-000000000001',
    projectHash: 'a'.repeat(64),
    startTime: at(0),
    lastUpdated: at(9),
    messages: [
      user('u1', 0),
      gemini('g1', 1, 449_534),
      notice('i1', 2, '526049', '115614'),
      user('u2', 3),
      gemini('g2', 4, 169_274),
      notice('i2', 5, 'unknown', 'unknown'),
      user('u3', 6),
      gemini('g3', 7, 20_000),
    ],
  };
  const session = await parseSession([
    createMemorySource('session-2026-02-23T14-00-c9da8256.json', JSON.stringify(chat, null, 2)),
  ]);
  expect(session.compactions.map((c) => [c.trigger, c.preTokens, c.summaryTokens, c.postTokens])).toEqual([
    ['auto', 526_049, 115_614, 169_274],
    ['auto', undefined, undefined, 20_000],
  ]);
  expect(session.compactions.map((c) => c.apiCallBefore)).toEqual([0, 1]);
  // Any other notice stays a notice.
  expect(session.entries.filter((e) => e.kind === 'system' && !e.compact)).toHaveLength(0);
  const prepared = prepareReplay(session);
  expect(prepared.real).toHaveLength(2);
  const { notes } = GEMINI_CLI_STRATEGY.getSessionKnobs(getSessionInfo(prepared));
  expect(notes.join('\n')).toMatch(/2 compressions are read from the CLI's notice/);
});

describe.skipIf(!corpusOrSkip('the Gemini CLI window on real chats'))("a Gemini CLI log's window", () => {
  it("is Gemini CLI's token limit for its model, not Claude's 200k: the chart's frame and the strategy agree", async () => {
    const chats = foreignFiles().filter((f) => /chats\/session-[^/]+\.json$/.test(f));
    expect(chats.length).toBeGreaterThan(0);
    for (const path of chats) {
      const session = await parseSession([createMemorySource(basename(path), readFileSync(path))]);
      const window = getSessionWindow(session);
      expect(
        session.meta.models.some((m) => m.startsWith('gemini-')),
        path,
      ).toBe(true);
      expect(window, path).toMatchObject({ windowTokens: 1_048_576, windowSource: 'model-id' });
      expect(window.reasons[0]).toMatch(/^Window 1,048,576: Gemini CLI's token limit for gemini-/);
      const { knobs } = GEMINI_CLI_STRATEGY.getSessionKnobs(getSessionInfo(prepareReplay(session)));
      expect(knobs.tokenLimit).toBe(window.windowTokens);
    }
  });
});
