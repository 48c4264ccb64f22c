import { at } from '../../src/engine/assert';
import { describe, expect, it } from 'vitest';
import { requirePreset } from '../../src/engine/strategies/prompt-presets';
import { getPromptToSend, type PromptSettings, prepareSummary } from '../../src/engine/summarize/prepare';
import { getCompactionSpan, parseCompactionPoint } from '../../src/engine/summarize/span';
import { FIRST_REQUEST, LAST_REQUEST, loadFixture } from './fixture';

function settings(presetId: string, customInstructions = ''): PromptSettings {
  const preset = requirePreset(presetId);
  return {
    presetId,
    prompt: preset.prompt,
    customInstructions,
    systemPrompt: preset.systemPrompt,
    model: 'claude-sonnet-4-6',
    maxOutputTokens: preset.maxOutputTokens,
  };
}

describe('compaction points and spans', () => {
  it('reads --at as an API call, a compaction index or a boundary uuid', async () => {
    const { session } = await loadFixture();
    const real = session.compactions.findIndex((c) => c.kind === 'compact');
    expect(parseCompactionPoint(session, '3')).toEqual({ kind: 'api-call', apiCallIndex: 3 });
    expect(parseCompactionPoint(session, `c${real}`)).toEqual({ kind: 'compaction', compactionIndex: real });
    const uuid = at(session.compactions, real).uuid!;
    expect(parseCompactionPoint(session, uuid)).toEqual({ kind: 'compaction', compactionIndex: real });
    expect(() => parseCompactionPoint(session, 'nope')).toThrow(/neither an API call index/);
  });

  it('a real compaction replaces everything before its boundary', async () => {
    const { session } = await loadFixture();
    const real = session.compactions.findIndex((c) => c.kind === 'compact');
    const span = getCompactionSpan(session, { kind: 'compaction', compactionIndex: real });
    expect(span.fromEntryIndex).toBe(0);
    expect(span.uptoEntryIndex).toBe(at(session.compactions, real).entryIndex - 1);
  });

  it('after an API call, the span ends before the next call and starts at the last boundary', async () => {
    const { session } = await loadFixture();
    const last = session.apiCalls.length - 1;
    const span = getCompactionSpan(session, { kind: 'api-call', apiCallIndex: last });
    const boundary = session.compactions.find((c) => c.kind === 'compact')!.entryIndex;
    expect(span.fromEntryIndex).toBe(boundary);
    expect(span.uptoEntryIndex).toBe(session.entries.length - 1);
    const early = getCompactionSpan(session, { kind: 'api-call', apiCallIndex: 1 });
    expect(early.uptoEntryIndex).toBe(at(session.apiCalls, 2).firstEntryIndex - 1);
  });
});

describe('prepareSummary', () => {
  it('builds the exact request: system, normalized span, prompt last, estimate', async () => {
    const { session, sources } = await loadFixture();
    const real = session.compactions.findIndex((c) => c.kind === 'compact');
    const prepared = await prepareSummary(
      session,
      sources,
      { kind: 'compaction', compactionIndex: real },
      settings('claude-code-full'),
    );
    const { request } = prepared;
    expect(request.system).toBe('You are a helpful AI assistant tasked with summarizing conversations.');
    expect(request.messages[0]).toMatchObject({ role: 'user' });
    expect(JSON.stringify(request.messages)).toContain(FIRST_REQUEST);
    expect(JSON.stringify(request.messages)).toContain(LAST_REQUEST);
    expect(request.prompt).toContain('Your task is to create a detailed summary');
    expect(prepared.estimatedTokens).toBeGreaterThan(100);
    expect(prepared.facts.some((f) => f.category === 'last-request' && f.text === LAST_REQUEST)).toBe(true);
  });

  it('places custom instructions where Claude Code does, or appends them to an edited prompt', () => {
    const cc = settings('claude-code-full', 'Focus on the CLI flags.');
    const sent = getPromptToSend(cc);
    expect(sent.indexOf('Additional Instructions:\nFocus on the CLI flags.')).toBeLessThan(
      sent.indexOf('IMPORTANT: Do NOT use any tools'),
    );
    const edited = { ...cc, prompt: 'Summarize briefly.' };
    expect(getPromptToSend(edited)).toBe(
      'Summarize briefly.\n\nAdditional Instructions:\nFocus on the CLI flags.',
    );
    expect(getPromptToSend({ ...settings('codex'), customInstructions: '  ' })).toBe(
      requirePreset('codex').prompt,
    );
  });

  it('a span after the boundary starts with the previous summary', async () => {
    const { session, sources } = await loadFixture();
    const prepared = await prepareSummary(
      session,
      sources,
      { kind: 'api-call', apiCallIndex: session.apiCalls.length - 1 },
      settings('codex'),
    );
    expect(JSON.stringify(prepared.request.messages[0])).toContain('This session is being continued');
    expect(prepared.request.prompt).toContain('CONTEXT CHECKPOINT COMPACTION');
  });

  it('partial compact marks the retained messages and scores only the recent portion', async () => {
    const { session, sources } = await loadFixture();
    const real = session.compactions.findIndex((c) => c.kind === 'compact');
    const prepared = await prepareSummary(
      session,
      sources,
      { kind: 'compaction', compactionIndex: real },
      {
        ...settings('claude-code-partial'),
        keepFromApiCallIndex: 4,
      },
    );
    expect(prepared.keptMessages).toBeGreaterThan(0);
    expect(prepared.request.retainedMessages).toBe(prepared.keptMessages);
    expect(prepared.request.prompt).toContain('RECENT portion');
    expect(prepared.facts.some((f) => f.text.includes('package.json'))).toBe(false);
    expect(prepared.facts.some((f) => f.text === LAST_REQUEST)).toBe(true);
  });

  // The page offered every API call of the session as the recent portion's start, and one outside
  // the span summarized the whole span under a prompt saying earlier messages were kept.
  it('partial compact: the choices are the span’s calls with something before them; a start outside it is refused', async () => {
    const { session, sources } = await loadFixture();
    const real = session.compactions.findIndex((c) => c.kind === 'compact');
    const point = { kind: 'compaction', compactionIndex: real } as const;
    const prepared = await prepareSummary(session, sources, point, settings('claude-code-partial'));
    const span = getCompactionSpan(session, point);
    const inSpan = session.apiCalls
      .filter((c) => c.firstEntryIndex >= span.fromEntryIndex && c.firstEntryIndex <= span.uptoEntryIndex)
      .map((c) => c.index);
    expect(inSpan.length).toBeGreaterThan(2);
    // The span's first call too: the prompt that led to it comes before it and is kept.
    expect(prepared.recentStartCalls).toEqual(inSpan);
    const after = session.apiCalls.find((c) => c.firstEntryIndex > span.uptoEntryIndex)!.index;
    await expect(
      prepareSummary(session, sources, point, {
        ...settings('claude-code-partial'),
        keepFromApiCallIndex: after,
      }),
    ).rejects.toThrow(/is not one of the span's/);
    // A full preset has no such choice.
    expect(
      (await prepareSummary(session, sources, point, settings('claude-code-full'))).recentStartCalls,
    ).toBeUndefined();
  });
});
