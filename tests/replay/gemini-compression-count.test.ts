import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { GEMINI_CLI_STRATEGY } from '../../src/engine/strategies/gemini-cli';
import { getSessionInfo } from '../../src/engine/strategies/types';
import { REAL_LOGS } from '../helpers/corpus';
import { readGeminiCliTruth } from '../truth/gemini-cli';
import { logKnobsOf, runStrategy } from './strategy-variants';

// What Gemini CLI compares at its compression check: `chat.getLastPromptTokenCount()`, the prompt
// of the last response that reported usage, one the chat file does not keep included (an invalid
// stream, retried as "System: Please continue."). The real chat of fabien-lessirard/dotfiles
// compressed "from 526049" with 449,534 its last recorded prompt: the replay, which compares the
// recorded prompts, cannot fire there, and its notes now say why. From v0.33.0 the notice reads
// "Context compressed from X% to Y%.", read as X% of the 1,048,576-token limit.

const at = (s: number) => `2026-02-23T14:${String(s).padStart(2, '0')}:00.000Z`;
const gemini = (id: string, s: number, input: number) => ({
  id,
  timestamp: at(s),
  type: 'gemini',
  content: 'Done.',
  model: 'gemini-2.5-flash',
  tokens: { input, output: 100, cached: 0, thoughts: 0, tool: 0, total: input + 100 },
});
const info = (id: string, s: number, content: string) => ({ id, timestamp: at(s), type: 'info', content });
const user = (id: string, s: number, text = 'Go on.') => ({
  id,
  timestamp: at(s),
  type: 'user',
  content: [{ text }],
});
const exceeded = (from: number, to: number) =>
  `IMPORTANT: This conversation exceeded the compress threshold. A compressed context will be sent for future messages (compressed from: ${from} to ${to} tokens).`;

const chat = (messages: unknown[]) =>
  JSON.stringify({
    sessionId: 'c9da8256-0000-4000-8000-000000000002',
    projectHash: 'b'.repeat(64),
    startTime: at(0),
    lastUpdated: at(59),
    messages,
  });

const parse = (text: string) =>
  parseSession([createMemorySource('session-2026-02-23T14-00-c9da8256.json', text)]);

describe('Gemini CLI: the count its compression check compares', () => {
  it('explains a notice that counts more than every recorded prompt before it (an unrecorded response)', async () => {
    // The real chat's shape: the last recorded prompt 449,534, an invalid stream unrecorded, the
    // retry "System: Please continue." after the notice, then a later one under its own peak.
    const session = await parse(
      chat([
        user('u1', 0),
        gemini('g1', 1, 430_000),
        gemini('g2', 2, 449_534),
        info('i1', 3, exceeded(526_049, 115_614)),
        user('u2', 4, 'System: Please continue.'),
        gemini('g3', 5, 169_274),
        gemini('g4', 6, 600_000),
        info('i2', 7, exceeded(540_000, 120_000)),
        user('u3', 8),
        gemini('g5', 9, 130_000),
      ]),
    );
    const prepared = prepareReplay(session);
    const info0 = getSessionInfo(prepared);
    expect(info0.loggedCompactions).toEqual([
      { trigger: 'auto', afterCall: 1, preTokens: 526_049, peakPromptBefore: 449_534 },
      { trigger: 'auto', afterCall: 3, preTokens: 540_000, peakPromptBefore: 600_000 },
    ]);
    const notes = GEMINI_CLI_STRATEGY.getSessionKnobs(info0).notes.filter((n) => n.includes('compared'));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain(
      'The compression after API call 2 compared 526,049 tokens, more than any prompt the chat records before it (449,534)',
    );
    expect(notes[0]).toContain('System: Please continue.');
  });

  it('reads the v0.33 notice "Context compressed from X% to Y%." as X% of the 1,048,576 limit', async () => {
    const text = chat([
      user('u1', 0),
      gemini('g1', 1, 520_000),
      info('i1', 2, 'Context compressed from 50% to 11%.'),
      user('u2', 3),
      gemini('g2', 4, 130_000),
      info('i2', 5, 'Context compressed from 50% to 11%, roughly.'),
    ]);
    const session = await parse(text);
    expect(
      session.compactions.map((c) => [c.trigger, c.preTokens, c.summaryTokens, c.apiCallBefore]),
    ).toEqual([['auto', 524_288, 115_343, 0]]);
    // The other wording stays a notice; the truth reader agrees.
    expect(session.entries.filter((e) => e.kind === 'system' && !e.compact)).toHaveLength(1);
    expect(readGeminiCliTruth(text).compactions).toEqual([
      { kind: 'compact', afterCall: 0, preTokens: 524_288 },
    ]);
  });
});

const REAL = join(
  REAL_LOGS,
  'fabien-lessirard__dotfiles/.gemini/tmp/dashboard-mictlan/chats/session-2026-02-23T08-58-c9da8256.json',
);
if (!existsSync(REAL)) console.warn(`the Gemini real-chat test is skipped: ${REAL} is not restored`);

describe.skipIf(!existsSync(REAL))('Gemini CLI: the real chat that compressed from 526,049', () => {
  it('is missed by the replay, and its notes say the count came from a response the chat does not keep', async () => {
    const session = await parseSession([createMemorySource(basename(REAL), readFileSync(REAL))]);
    const prepared = prepareReplay(session);
    const info0 = getSessionInfo(prepared);
    // The largest recorded prompt before it is a one-call spike (call 304: 499,755, 75,527 over the
    // call before, gone at the next); the last one, 449,534. The 18 holders of cancelled tool calls
    // before it are no calls (gemini-cancelled-tools.test.ts): it follows call 316 of 332, not 334.
    expect(info0.loggedCompactions).toEqual([
      { trigger: 'auto', afterCall: 315, preTokens: 526_049, peakPromptBefore: 499_755 },
    ]);
    expect(prepared.recorded[315]).toBe(449_534);
    const { notes } = GEMINI_CLI_STRATEGY.getSessionKnobs(info0);
    expect(notes.join('\n')).toContain(
      'The compression after API call 316 compared 526,049 tokens, more than any prompt the chat records before it (499,755)',
    );
    expect(
      runStrategy(prepared, 'gemini-cli', logKnobsOf(prepared, 'gemini-cli').knobs).comparison.outcomes.map(
        (o) => o.status,
      ),
    ).toEqual(['missing']);
    // The entry after the notice is the invalid-stream retry.
    const notice = session.entries.findIndex((e) => e.compact !== undefined);
    const next = session.entries[notice + 1];
    expect(next?.kind).toBe('user');
    expect(next?.blocks[0]?.kind === 'text' && next.blocks[0].text).toBe('System: Please continue.');
  });
});
