import { at } from '../../src/engine/assert';
import { describe, expect, it } from 'vitest';
import { buildCompactionRequest, getSpanStart } from '../../src/engine/compact/build-request';
import { normalizeMessages } from '../../src/engine/compact/normalize-messages';
import {
  FULL_COMPACT_PROMPT,
  getClaudeCodePrompt,
  getPromptElisions,
  PARTIAL_COMPACT_PROMPT,
  REFERENCE_ELISIONS,
  SUBAGENT_CONTINUATION_PROMPT,
  SUMMARY_SYSTEM_PROMPT,
} from '../../src/engine/prompts/claude-code';
import { parseFixture } from '../replay/transcript-fixture';

const user = (content: unknown, extra: Record<string, unknown> = {}) => ({
  type: 'user',
  message: { role: 'user', content },
  ...extra,
});
const assistant = (id: string, content: unknown[], extra: Record<string, unknown> = {}) => ({
  type: 'assistant',
  message: { id, role: 'assistant', model: 'claude-opus-4-6', content },
  ...extra,
});

describe('normalizeMessages (WZ)', () => {
  it('drops progress, system and synthetic errors; merges users and split responses', () => {
    const records = [
      user('hello'),
      { type: 'progress', data: { type: 'hook_progress' } },
      user([{ type: 'text', text: 'more' }]),
      assistant('m1', [{ type: 'thinking', thinking: 'hmm', signature: 's' }]),
      assistant('m1', [{ type: 'tool_use', id: 't1', name: 'Read', input: {} }]),
      user([{ type: 'tool_result', tool_use_id: 't1', content: 'r1' }]),
      assistant('m1', [{ type: 'tool_use', id: 't2', name: 'Read', input: {} }]),
      user([{ type: 'tool_result', tool_use_id: 't2', content: 'r2' }]),
      { type: 'system', subtype: 'turn_duration' },
      assistant('m2', [{ type: 'text', text: 'API Error' }], {
        isApiErrorMessage: true,
        message: { id: 'x', model: '<synthetic>', content: [{ type: 'text', text: 'API Error' }] },
      }),
      { type: 'attachment', attachment: { type: 'todo_reminder', content: 'todo: a' } },
      assistant('m3', [{ type: 'thinking', thinking: 'only thinking', signature: 's' }]),
      user('next'),
    ];
    const out = normalizeMessages(records.map((record, entryIndex) => ({ entryIndex, record })));
    expect(out.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(at(out.messages, 0).content).toEqual([
      { type: 'text', text: 'hello' },
      { type: 'text', text: 'more' },
    ]);
    expect((at(out.messages, 1).content as { type: string }[]).map((b) => b.type)).toEqual([
      'thinking',
      'tool_use',
      'tool_use',
    ]);
    const last = at(out.messages, 2).content as { type: string; text?: string }[];
    expect(last.map((b) => b.type)).toEqual(['tool_result', 'tool_result', 'text', 'text']);
    expect(at(last, 2).text).toBe('<system-reminder>\ntodo: a\n</system-reminder>');
    expect(out.dropped.map((d) => d.reason)).toEqual([
      'progress',
      'system',
      'synthetic API error',
      'thinking only',
    ]);
  });

  it('can empty base64 payloads for display', () => {
    const out = normalizeMessages(
      [
        {
          entryIndex: 0,
          record: user([
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
          ]),
        },
      ],
      { elideBase64: true },
    );
    expect(at(out.messages, 0).content).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: '' } },
    ]);
  });
});

describe('prompts (v2.1.68 Prompt 1–3)', () => {
  it('appends custom instructions before the no-tools line', () => {
    expect(
      FULL_COMPACT_PROMPT.startsWith('Your task is to create a detailed summary of the conversation so far'),
    ).toBe(true);
    expect(FULL_COMPACT_PROMPT.endsWith('as your text output.')).toBe(true);
    const custom = getClaudeCodePrompt('full', 'Focus on the parser.');
    expect(custom).toContain(
      'Additional Instructions:\nFocus on the parser.\n\nIMPORTANT: Do NOT use any tools.',
    );
    expect(getClaudeCodePrompt('full', '  ')).toBe(FULL_COMPACT_PROMPT);
    expect(PARTIAL_COMPACT_PROMPT).toContain('RECENT portion of the conversation');
    expect(PARTIAL_COMPACT_PROMPT).toContain('9. Optional Next Step');
    expect(getClaudeCodePrompt('subagent')).toBe(SUBAGENT_CONTINUATION_PROMPT);
  });

  it('sends no elision mark of the reference as literal text, and says where the gaps are', () => {
    for (const variant of ['full', 'partial', 'subagent'] as const) {
      const prompt = getClaudeCodePrompt(variant, 'Keep the SQL.');
      for (const mark of REFERENCE_ELISIONS) expect(prompt, variant).not.toContain(mark);
      expect(prompt).not.toMatch(/\[\.\.\.|\.\.\.\]/);
      // Each gap follows a line the sent prompt does hold.
      for (const gap of getPromptElisions(variant)) expect(prompt).toContain(gap.after);
    }
    // Item 9 goes on after the gap on the same line, not after 23 spaces of the reference's layout.
    expect(FULL_COMPACT_PROMPT).toContain('summary request. If there is a next step, include direct quotes');
    expect(getPromptElisions('full')).toHaveLength(2);
    expect(getPromptElisions('subagent')).toEqual([]);
  });
});

describe('normalizeMessages: meta and thinking (compact-system.md "Filtering Predicates")', () => {
  it('drops meta user messages (u59) but keeps a compact summary (summary chaining)', () => {
    const records = [
      user('<command-name>/review</command-name>', { isMeta: true }),
      user('This session is being continued…', { isMeta: true, isCompactSummary: true }),
      user('Caveat: the messages below were generated by the user', { isMeta: true }),
      user('real prompt'),
      assistant('m1', [
        { type: 'thinking', thinking: 'plan', signature: 's' },
        { type: 'text', text: 'ok' },
      ]),
      assistant('m2', [{ type: 'thinking', thinking: 'only', signature: 's' }]),
      user('next'),
    ];
    const out = normalizeMessages(records.map((record, entryIndex) => ({ entryIndex, record })));
    expect(out.dropped).toEqual([
      { entryIndex: 0, reason: 'meta' },
      { entryIndex: 2, reason: 'meta' },
      { entryIndex: 5, reason: 'thinking only' },
    ]);
    const texts = out.messages.flatMap((m) =>
      (m.content as { type: string; text?: string }[]).map((b) => b.text ?? b.type),
    );
    expect(texts).toEqual(['This session is being continued…', 'real prompt', 'thinking', 'ok', 'next']);
  });
});

describe('buildCompactionRequest', () => {
  it('sends the messages since the last boundary, its summary first, then the prompt', async () => {
    const { session, sources } = await parseFixture({
      calls: [
        { prompt: 'Start', context: 20_000, tools: [{ name: 'Read', path: '/a.ts', resultChars: 400 }] },
        { context: 30_000, tools: [{ name: 'Bash', resultChars: 200 }] },
        { context: 12_000, tools: [{ name: 'Read', path: '/b.ts', resultChars: 100 }] },
        { context: 13_000 },
      ],
      boundaries: [{ afterCall: 1, trigger: 'auto', preTokens: 30_400, summaryChars: 800 }],
    });
    const last = session.entries.length - 1;
    const boundary = at(session.compactions, 0).entryIndex;
    expect(getSpanStart(session, last)).toBe(boundary);
    const request = await buildCompactionRequest(session, sources, {
      uptoEntryIndex: last,
      variant: 'full',
      customInstructions: 'keep paths',
    });
    expect(request.system).toBe(SUMMARY_SYSTEM_PROMPT);
    expect(request.fromEntryIndex).toBe(boundary);
    const first = at(request.messages, 0);
    expect(first.role).toBe('user');
    expect(JSON.stringify(first.content)).toContain('This session is being continued');
    expect(
      request.messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content.map((b) => b.type))),
    ).toContain('tool_result');
    expect(request.prompt).toContain('Additional Instructions:\nkeep paths');
    expect(request.estimatedTokens).toBeGreaterThan(200);
    expect(request.dropped.some((d) => d.reason === 'system')).toBe(true);

    const whole = await buildCompactionRequest(session, sources, {
      fromEntryIndex: 0,
      uptoEntryIndex: boundary - 1,
      variant: 'full',
      previousSummaryText: '[simulated]',
    });
    expect(at(whole.messages, 0).content).toEqual([
      { type: 'text', text: '[simulated]' },
      { type: 'text', text: 'Start' },
    ]);
    const partial = await buildCompactionRequest(session, sources, {
      fromEntryIndex: 0,
      uptoEntryIndex: last,
      variant: 'partial',
      keepFromEntryIndex: boundary + 1,
    });
    expect(partial.prompt).toBe(PARTIAL_COMPACT_PROMPT);
  });
});
