import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';
import {
  detectDialectFromName,
  detectDialectFromRecord,
  isFolderFileName,
} from '../../src/engine/parse/detect';
import { PI_DIALECT } from '../../src/engine/parse/dialects/pi';
import { parseSession, readEntryRecord, readEntryText } from '../../src/engine/parse/parse-session';
import { getCompactionDetail } from '../../src/engine/query/compaction-detail';
import { createMemorySource } from '../../src/engine/parse/source';
import type { Session } from '../../src/engine/types';
import {
  buildAgentFixtures,
  GEMINI_BROKEN,
  GEMINI_JSON,
  GEMINI_JSONL,
  PI_BROKEN,
  PI_SESSION,
} from '../fixtures/make-agent-fixtures';

// Gemini CLI's chat files (both layouts) and pi's session JSONL, read through their descriptors
// only (src/engine/parse/dialects/gemini-cli.ts, pi.ts) on fixtures written from the documented
// shapes (tests/fixtures/make-agent-fixtures.ts).

const FIXTURES = resolve(__dirname, '../fixtures');
const text = (name: string): string => readFileSync(join(FIXTURES, name), 'utf8');
const baseName = (name: string): string => name.split('/').pop()!;

async function load(name: string, as = baseName(name), chunkBytes?: number): Promise<Session> {
  return parseSession([createMemorySource(as, new TextEncoder().encode(text(name)))], { chunkBytes });
}

/** What a session says, without where it sits (a renamed or re-chunked read must say the same). */
function facts(s: Session) {
  return {
    format: s.format,
    entries: s.entries.map((e) => [e.line, e.kind, e.type, e.blocks.length, e.apiCallIndex]),
    calls: s.apiCalls.map((c) => [c.line, c.contextTokens, c.usage.outputTokens]),
    compactions: s.compactions.map((c) => [c.kind, c.line, c.preTokens, c.postTokens, c.keptFromEntryIndex]),
    issues: s.issues.map((i) => [i.line, i.code, i.severity]),
    folded: s.files[0]?.foldedCopies ?? 0,
  };
}

describe('agent fixtures', () => {
  it('equal a fresh build (regenerate with tests/fixtures/make-agent-fixtures.ts)', () => {
    for (const [name, fresh] of Object.entries(buildAgentFixtures())) expect(text(name), name).toBe(fresh);
  });
});

describe('Gemini CLI', () => {
  it('is detected by its name, each layout to its own reader', () => {
    expect(detectDialectFromName('session-2026-03-09T10-00-1a2b3c4d.json')?.id).toBe('gemini-cli-json');
    expect(
      detectDialectFromName('/home/u/.gemini/tmp/abc/chats/session-2026-03-09T11-00-5e6f7a8b.jsonl')?.id,
    ).toBe('gemini-cli');
    expect(isFolderFileName('abc/chats/session-2026-03-09T11-00-5e6f7a8b.jsonl')).toBe(true);
    expect(detectDialectFromName('session.txt')).toBeUndefined();
  });

  it('is detected by structure: the metadata line, a message line, the whole document', () => {
    const lines = text(GEMINI_JSONL)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(detectDialectFromRecord(lines[0])?.id).toBe('gemini-cli');
    expect(detectDialectFromRecord(lines[1])?.id).toBe('gemini-cli');
    expect(detectDialectFromRecord(JSON.parse(text(GEMINI_JSON)))?.id).toBe('gemini-cli-json');
  });

  it('reads the .json document: messages, tool calls with their results, tokens as API calls', async () => {
    const s = await load(GEMINI_JSON);
    expect(s.format).toBe('gemini-cli-json');
    expect(s.meta.agent).toBe('Gemini CLI');
    expect(s.issues).toEqual([]);
    expect(s.entries.map((e) => e.kind)).toEqual([
      'user',
      'assistant',
      'assistant',
      'user',
      'assistant',
      'system',
    ]);
    expect(s.userTurns).toBe(2);
    expect(s.toolCalls).toEqual({ read_file: 1, replace: 1 });
    expect(s.toolPairs).toEqual({ matched: 2, unmatchedUses: 0, unmatchedResults: 0 });
    // input includes the cached part; thoughts are billed as output.
    expect(
      s.apiCalls.map((c) => [c.contextTokens, c.usage.cacheReadInputTokens, c.usage.outputTokens]),
    ).toEqual([
      [8_200, 0, 100],
      [9_400, 8_000, 120],
      [10_100, 9_000, 100],
    ]);
    expect(s.compactions).toEqual([]);
  });

  it('reads the JSONL log: a later copy of a message replaces the earlier one, which is counted as folded', async () => {
    const s = await load(GEMINI_JSONL);
    expect(s.format).toBe('gemini-cli');
    expect(s.meta.sessionId).toBe('5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b');
    expect(s.files[0]?.foldedCopies).toBe(2);
    const messages = s.entries.filter((e) => e.messageId !== undefined);
    expect(messages.map((e) => e.messageId)).toEqual(['u-1', 'g-1', 'g-2', 'u-2', 'g-3', 'i-1']);
    // Each message is the latest copy (its tool results, its tokens), in the place of its first.
    const g1 = messages[1]!;
    expect(g1.line).toBe(6);
    expect(g1.blocks.filter((b) => b.kind === 'tool-result')).toHaveLength(2);
    expect(messages[2]!.line).toBe(9);
    expect(s.apiCalls.map((c) => c.messageId)).toEqual(['g-1', 'g-2', 'g-3']);
    const record = (await readEntryRecord(
      [createMemorySource('x.jsonl', new TextEncoder().encode(text(GEMINI_JSONL)))],
      s,
      g1.index,
    )) as { toolCalls: { status: string }[] };
    expect(record.toolCalls[0]!.status).toBe('success');
    // Same messages, calls and tools as the .json form of the same conversation.
    const doc = await load(GEMINI_JSON);
    const strip = (x: Session) => ({
      kinds: x.entries.filter((e) => e.messageId !== undefined).map((e) => [e.kind, e.blocks]),
      calls: x.apiCalls.map((c) => c.usage),
      toolPairs: x.toolPairs,
    });
    expect(strip(s)).toEqual(strip(doc));
  });

  it('names each bad line at its line and keeps the earlier copy of a message whose later copy is broken', async () => {
    const s = await load(GEMINI_BROKEN);
    // In line order, though the records are read after the lines that failed to parse.
    expect(s.issues.map((i) => [i.line, i.code])).toEqual([
      [3, 'not-json'],
      [4, 'wrong-shape'],
      [5, 'unknown-record'],
      [6, 'wrong-shape'],
      [7, 'not-json'],
      [9, 'truncated-line'],
    ]);
    expect(s.issues.find((i) => i.line === 4)?.path).toBe('tokens');
    expect(s.entries.find((e) => e.messageId === 'g-2')?.line).toBe(6);
    expect(s.unknownTypes).toEqual({ 'x-future-message': 1 });
    // Each `gemini` message is a request, its `tokens` broken or not (issue 18): the two without
    // valid tokens are calls with no usage, whose context the page estimates.
    expect(s.apiCalls.map((c) => [c.messageId, c.contextTokens])).toEqual([
      ['g-1', 0],
      ['g-2', 0],
      ['g-3', 5000],
    ]);
  });
});

describe('pi', () => {
  it('is detected by its name and, renamed, by its structure', async () => {
    expect(detectDialectFromName(baseName(PI_SESSION))?.id).toBe('pi');
    expect(detectDialectFromName('2026-03-09T12-00-00-000Z.jsonl')).toBeUndefined();
    expect(isFolderFileName('.pi/agent/sessions/--home-mira--/x.jsonl')).toBe(true);
    // Asked of pi's own descriptor: other dialects take any .jsonl of a dropped folder too.
    expect(PI_DIALECT.files.folderFile?.(`--home-mira--/${baseName(PI_SESSION)}`)).toBe(true);
    expect(PI_DIALECT.files.folderFile?.('--home-mira--/notes.jsonl')).toBe(false);
    const first = JSON.parse(text(PI_SESSION).split('\n')[0]!);
    expect(detectDialectFromRecord(first)?.id).toBe('pi');
    expect(facts(await load(PI_SESSION, 'unknown.jsonl'))).toEqual(facts(await load(PI_SESSION)));
  });

  it('reads messages with usage as API calls and the compaction with its kept range', async () => {
    const s = await load(PI_SESSION);
    expect(s.format).toBe('pi');
    expect(s.meta).toMatchObject({
      agent: 'pi',
      cwd: '/home/mira/code/tally',
      models: ['claude-sonnet-4-5'],
    });
    expect(s.issues).toEqual([]);
    expect(s.apiCalls.map((c) => c.contextTokens)).toEqual([4_203, 9_100, 30_400, 52_400, 14_200, 15_000]);
    expect(s.toolPairs).toEqual({ matched: 2, unmatchedUses: 0, unmatchedResults: 0 });
    expect(s.compactions).toHaveLength(1);
    const c = s.compactions[0]!;
    expect(c).toMatchObject({
      kind: 'compact',
      line: 13,
      preTokens: 52_400,
      apiCallBefore: 3,
      postTokens: 14_200,
    });
    // firstKeptEntryId names the second prompt (line 8): it and what follows are still sent.
    expect(s.entries[c.keptFromEntryIndex!]!.line).toBe(8);
    // The compaction entry is its own summary entry; the card reads the text from `summary`.
    const sources = [createMemorySource('x.jsonl', new TextEncoder().encode(text(PI_SESSION)))];
    const raw = await readEntryText(sources, s, c.summaryEntryIndex!);
    expect(getCompactionDetail(s, 0, raw).summaryText).toMatch(/^## Goal\nRefactor src\/report\.ts\./);
    // Model and thinking changes, labels, extension state, the session name: kept, counted.
    expect(s.countsByType).toMatchObject({
      model_change: 1,
      thinking_level_change: 1,
      label: 1,
      custom: 1,
      session_info: 1,
      branch_summary: 1,
    });
    expect(s.unknownTypes).toEqual({});
  });

  it('follows the id/parentId tree: the branch after /tree is the main line, the abandoned try a fork', async () => {
    const s = await load(PI_SESSION);
    const branches = s.branches!;
    expect(branches.forks).toHaveLength(1);
    expect(s.entries[branches.forks[0]!.entryIndex]!.type).toBe('compaction');
    const main = branches.branches[0]!;
    expect(main.isMainLine).toBe(true);
    expect(s.entries[main.leafEntryIndex]!.line).toBe(19);
    const other = branches.branches.find((b) => !b.isMainLine)!;
    expect(other.preview).toBe('Add tests.');
  });

  it('reads a version 1 session (a linear list without ids) without a warning per line', async () => {
    const v1 = [
      { type: 'session', id: 'v1-session', timestamp: '2025-06-01T10:00:00.000Z', cwd: '/w' },
      { type: 'message', timestamp: '2025-06-01T10:00:01.000Z', message: { role: 'user', content: 'hi' } },
      {
        type: 'message',
        timestamp: '2025-06-01T10:00:02.000Z',
        message: {
          role: 'assistant',
          content: [{ type: 'text', text: 'hello' }],
          usage: { input: 10, output: 2, cacheRead: 0, cacheWrite: 0 },
        },
      },
    ];
    const bytes = new TextEncoder().encode(`${v1.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const s = await parseSession([createMemorySource(baseName(PI_SESSION), bytes)]);
    expect(s.format).toBe('pi');
    expect(s.issues).toEqual([]);
    expect(s.apiCalls.map((c) => c.contextTokens)).toEqual([10]);
    expect(s.branches).toBeUndefined();
  });

  it('names each bad line at its line', async () => {
    const s = await load(PI_BROKEN);
    expect(s.issues.map((i) => [i.line, i.code])).toEqual([
      [3, 'not-json'],
      [4, 'wrong-shape'],
      [4, 'unknown-record'],
      [6, 'unknown-record'],
      [7, 'wrong-shape'],
      [8, 'truncated-line'],
    ]);
    expect(s.issues[4]!.path).toBe('firstKeptEntryId');
    expect(s.compactions).toHaveLength(1);
    expect(s.compactions[0]!.keptFromEntryIndex).toBeUndefined();
  });
});

describe('both', () => {
  it.each([GEMINI_JSONL, GEMINI_JSON, PI_SESSION, GEMINI_BROKEN, PI_BROKEN])(
    '%s reads the same at 3-byte chunks and renamed unknown.jsonl',
    async (name) => {
      const whole = facts(await load(name));
      expect(whole.entries.length).toBeGreaterThan(3);
      expect(facts(await load(name, baseName(name), 3))).toEqual(whole);
      expect(facts(await load(name, 'unknown.jsonl'))).toEqual(whole);
    },
  );

  it('`compactlab inspect --json` reports the format, the calls and the compactions', async () => {
    for (const [name, format, calls, compactions] of [
      [PI_SESSION, 'pi', 6, 1],
      [GEMINI_JSONL, 'gemini-cli', 3, 0],
      [GEMINI_JSON, 'gemini-cli-json', 3, 0],
    ] as const) {
      const out: string[] = [];
      expect(await main(['inspect', join(FIXTURES, name), '--json'], (t) => out.push(t))).toBe(0);
      const report = JSON.parse(out.join('\n'));
      expect([report.format, report.apiCalls.length, report.compactions.length], name).toEqual([
        format,
        calls,
        compactions,
      ]);
      if (format === 'pi')
        expect(report.compactions[0]).toMatchObject({ kind: 'compact', preTokens: 52_400 });
      if (format === 'gemini-cli') expect(report.foldedCopies).toBe(2);
    }
  });
});
