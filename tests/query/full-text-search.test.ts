import { at } from '../../src/engine/assert';
import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import {
  computeFullTextMatches,
  createLineTest,
  getFullTextNeedles,
} from '../../src/engine/query/full-text-search';
import { DEFAULT_ROW_FILTER, getRowFilterKey } from '../../src/engine/query/row-filter';
import { computeRowIndex } from '../../src/engine/query/row-index';
import { buildMainLines, buildSubagentLines, entryByUuid, MAIN_NAME, SUBAGENT_NAME } from './session-fixture';

// The fixture session plus a Bash call whose result hides text well past the 2,000-character preview.
const DEEP_TEXT = `${'.'.repeat(5_000)}Deep Needle said "quoted" here\nand\ton`;

function buildDeepLines(): string[] {
  const lines = buildMainLines();
  const last = JSON.parse(at(lines, lines.length - 1)) as { uuid: string; sessionId: string };
  const base = {
    sessionId: last.sessionId,
    cwd: '/p',
    version: '2.1.12',
    timestamp: '2026-01-10T12:00:00.000Z',
  };
  lines.push(
    JSON.stringify({
      ...base,
      type: 'assistant',
      uuid: 'deep-call',
      parentUuid: last.uuid,
      requestId: 'req_deep',
      message: {
        id: 'msg_deep',
        role: 'assistant',
        model: 'claude-sonnet-4-6',
        content: [{ type: 'tool_use', id: 'toolu_deep', name: 'Bash', input: { command: 'cat big.log' } }],
        usage: {
          input_tokens: 10,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 1_000,
          output_tokens: 5,
        },
      },
    }),
    JSON.stringify({
      ...base,
      type: 'user',
      uuid: 'deep-result',
      parentUuid: 'deep-call',
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_deep', content: DEEP_TEXT }],
      },
    }),
  );
  return lines;
}

async function parseDeep() {
  const sources = [
    createMemorySource(MAIN_NAME, `${buildDeepLines().join('\n')}\n`),
    createMemorySource(SUBAGENT_NAME, `${buildSubagentLines().join('\n')}\n`),
  ];
  return { session: await parseSession(sources), sources };
}

describe('computeFullTextMatches', () => {
  it('finds a tool result whose match lies past the preview, only with full text', async () => {
    const { session, sources } = await parseDeep();
    const deep = entryByUuid(session, 'deep-result');
    const filter = { ...DEFAULT_ROW_FILTER, search: 'deep needle' };
    expect(Array.from(computeRowIndex(session, filter))).not.toContain(deep);

    const matches = await computeFullTextMatches(session, sources, 'deep needle', { chunkBytes: 64 });
    expect(matches[deep]).toBe(1);
    expect(Array.from(computeRowIndex(session, { ...filter, fullText: true }, matches))).toEqual([deep]);
  });

  it('ignores case and finds queries with characters JSON escapes', async () => {
    const { session, sources } = await parseDeep();
    const deep = entryByUuid(session, 'deep-result');
    for (const query of ['DEEP NEEDLE', 'said "QUOTED" here', 'here\nand\ton']) {
      const matches = await computeFullTextMatches(session, sources, query);
      expect(Array.from(matches.keys()).filter((i) => matches[i] === 1)).toEqual([deep]);
    }
    expect(getFullTextNeedles(' a"b ')).toEqual(['a"b', 'a\\"b']);
    expect(getFullTextNeedles('plain')).toEqual(['plain']);
  });

  it('finds text past ASCII written as \\uXXXX escapes (Python json.dumps), in either case', () => {
    // What Python's json.dumps writes by default (ensure_ascii): every character past ASCII escaped,
    // an astral one as a surrogate pair; JSON allows hex digits in either case.
    const python = '{"text": "Caf\\u00e9 CR\\u00C8ME \\ud83c\\udf89 na\\u00efve"}';
    expect(JSON.parse(python).text).toBe('Café CRÈME 🎉 naïve');
    for (const query of ['café', 'CAFÉ', 'crème', 'Crème 🎉', '🎉', 'é cr', 'naïve']) {
      expect(createLineTest(query)!(python), query).toBe(true);
      expect(createLineTest(query)!(JSON.stringify({ text: 'Café CRÈME 🎉 naïve' })), query).toBe(true);
    }
    // An escaped backslash before "u00e9" is the text \u00e9, not é.
    expect(createLineTest('é')!('{"text": "caf\\\\u00e9"}')).toBe(false);
    expect(createLineTest('cafe')!(python)).toBe(false);
    expect(createLineTest('  ')).toBeUndefined();
  });

  it('marks an entry whose record writes the query escaped', async () => {
    const lines = buildMainLines();
    const escaped = lines.map((l) =>
      l.replace(
        /[\u0080-\uffff]/g,
        (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`,
      ),
    );
    const raw = lines.map((l) => JSON.stringify(JSON.parse(l)));
    const needle = raw.join('').match(/[\u0080-\uffff]+/)?.[0];
    const sourcesOf = (ls: string[]) => [
      createMemorySource(MAIN_NAME, `${ls.join('\n')}\n`),
      createMemorySource(SUBAGENT_NAME, `${buildSubagentLines().join('\n')}\n`),
    ];
    if (needle === undefined) throw new Error('the fixture session has no text past ASCII');
    expect(escaped.join('')).not.toContain(needle);
    const session = await parseSession(sourcesOf(raw));
    const found = await computeFullTextMatches(session, sourcesOf(raw), needle);
    expect(found.some((m) => m === 1)).toBe(true);
    expect(
      await computeFullTextMatches(await parseSession(sourcesOf(escaped)), sourcesOf(escaped), needle),
    ).toEqual(found);
  });

  it('reports progress up to the total and gives the same result with any chunk size', async () => {
    const { session, sources } = await parseDeep();
    const seen: number[] = [];
    const big = await computeFullTextMatches(session, sources, 'parser', {
      onProgress: (p) => seen.push(p.bytesRead / p.totalBytes),
    });
    const tiny = await computeFullTextMatches(session, sources, 'parser', { chunkBytes: 1 });
    expect(tiny).toEqual(big);
    expect(seen.at(-1)).toBe(1);
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThanOrEqual(at(seen, i - 1));
  });

  it('stops with an AbortError when cancelled between chunks', async () => {
    const { session, sources } = await parseDeep();
    const controller = new AbortController();
    let reports = 0;
    const run = computeFullTextMatches(session, sources, 'needle', {
      chunkBytes: 16,
      signal: controller.signal,
      onProgress: () => {
        if (++reports === 3) controller.abort();
      },
    });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(reports).toBe(3);
  });

  it('keys full-text filters apart from preview ones only when there is a search', () => {
    expect(getRowFilterKey({ ...DEFAULT_ROW_FILTER, search: 'x', fullText: true })).not.toBe(
      getRowFilterKey({ ...DEFAULT_ROW_FILTER, search: 'x' }),
    );
    expect(getRowFilterKey({ ...DEFAULT_ROW_FILTER, fullText: true })).toBe(
      getRowFilterKey(DEFAULT_ROW_FILTER),
    );
  });
});
