import { at } from '../../src/engine/assert';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createNodeFileSource } from '../../src/cli/node-source';
import { computeInspectReport } from '../../src/engine/inspect/report';
import { parseSession } from '../../src/engine/parse/parse-session';
import { CORPUS, corpusFiles, corpusOrSkip } from '../helpers/corpus';

// Every Claude Code file in ../shared/corpus (other people's real logs; read here, never copied)
// is parsed and checked against figures this test computes on its own from the raw lines.

const present = corpusOrSkip('corpus tests');

// biome-ignore lint/suspicious/noExplicitAny: raw JSON lines are read loosely, on purpose.
type Raw = Record<string, any>;

const listFiles = () => corpusFiles();

interface Expected {
  records: Raw[];
  badLines: number;
  compact: number;
  micro: number;
  apiCalls: string[];
  contexts: number[];
  toolUses: Set<string>;
  toolResults: Set<string>;
}

/** The raw-line view of a file, computed without the engine. */
function expectedOf(path: string): Expected | undefined {
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  const records: Raw[] = [];
  let badLines = 0;
  for (const line of lines) {
    try {
      records.push(JSON.parse(line));
    } catch {
      badLines++;
    }
  }
  const isClaudeCode =
    path.endsWith('.jsonl') &&
    records.some((r) => typeof r.sessionId === 'string' && (r.type === 'user' || r.type === 'assistant'));
  if (!isClaudeCode || /rollout-/.test(path)) return undefined;
  const openedAlone = /__agent-[^/]*\.jsonl$|\/agent-[^/]*\.jsonl$/.test(path);
  const calls = new Map<string, number>();
  const toolUses = new Set<string>();
  const toolResults = new Set<string>();
  for (const r of records) {
    const content = r.message?.content;
    if (r.type === 'assistant' && r.message?.model !== '<synthetic>' && (openedAlone || !r.isSidechain)) {
      const key = r.message?.id ?? r.requestId ?? r.uuid;
      if (!calls.has(key)) {
        const u = r.message?.usage ?? {};
        calls.set(
          key,
          (u.input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0),
        );
      }
    }
    if (Array.isArray(content)) {
      for (const b of content) {
        if (b?.type === 'tool_use' && typeof b.id === 'string') toolUses.add(b.id);
        if (b?.type === 'tool_result' && typeof b.tool_use_id === 'string') toolResults.add(b.tool_use_id);
      }
    }
  }
  const sys = (subtype: string) => records.filter((r) => r.type === 'system' && r.subtype === subtype).length;
  return {
    records,
    badLines,
    compact: sys('compact_boundary'),
    micro: sys('microcompact_boundary'),
    apiCalls: [...calls.keys()],
    contexts: [...calls.values()],
    toolUses,
    toolResults,
  };
}

const files = listFiles()
  .map((path) => ({ path, expected: expectedOf(path) }))
  .filter((f): f is { path: string; expected: Expected } => f.expected !== undefined);

describe.skipIf(!present)('corpus: every Claude Code file', () => {
  it('finds the Claude Code files it should', () => {
    expect(files.length).toBeGreaterThanOrEqual(60);
  });

  it.each(files.map((f) => [f.path.slice(CORPUS.length + 1), f] as const))(
    '%s',
    async (_name, { path, expected }) => {
      const session = await parseSession([createNodeFileSource(path)]);
      const report = computeInspectReport(session);
      expect(report.format).toBe('claude-code');

      // No error-level issue beyond the lines that really are broken.
      const errors = report.issues.filter((i) => i.severity === 'error');
      expect(errors.length).toBe(expected.badLines);

      expect(report.compactions.filter((c) => c.kind === 'compact')).toHaveLength(expected.compact);
      expect(report.compactions.filter((c) => c.kind === 'microcompact')).toHaveLength(expected.micro);
      expect(report.apiCalls.map((c) => c.messageId ?? c.requestId ?? c.uuid)).toEqual(expected.apiCalls);
      expect(report.apiCalls.map((c) => c.contextTokens)).toEqual(expected.contexts);
      expect(report.peakContextTokens).toBe(Math.max(0, ...expected.contexts));

      const matched = [...expected.toolUses].filter((id) => expected.toolResults.has(id)).length;
      expect(report.toolPairs).toEqual({
        matched,
        unmatchedUses: expected.toolUses.size - matched,
        unmatchedResults: [...expected.toolResults].filter((id) => !expected.toolUses.has(id)).length,
      });

      // Nothing dropped in silence: every parsed record is an entry (recovered halves included).
      expect(report.entries).toBeGreaterThanOrEqual(expected.records.length);
      const counted = Object.values(report.countsByType).reduce((a, b) => a + b, 0);
      expect(counted).toBe(report.entries);

      // Each compaction's "after" figure is the next API call's context.
      for (const c of report.compactions) {
        if (c.apiCallAfter !== undefined)
          expect(c.postTokens).toBe(at(report.apiCalls, c.apiCallAfter).contextTokens);
      }
    },
  );
});
