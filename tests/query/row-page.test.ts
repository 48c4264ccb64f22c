import { at } from '../../src/engine/assert';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ROW_FILTER } from '../../src/engine/query/row-filter';
import { computeRowIndex } from '../../src/engine/query/row-index';
import {
  describeToolInput,
  formatImagePlaceholder,
  getRowPage,
  ROW_TEXT_CHARS,
} from '../../src/engine/query/row-page';
import { entryByUuid, parseFixtureSession } from './session-fixture';

describe('getRowPage', () => {
  it('returns small one-line rows for a range, clamped to the index', async () => {
    const session = await parseFixtureSession();
    const indices = computeRowIndex(session, DEFAULT_ROW_FILTER);
    const page = getRowPage(session, indices, 2, 5);
    expect(page.map((r) => r.row)).toEqual([2, 3, 4, 5, 6]);
    expect(page.map((r) => r.entryIndex)).toEqual(Array.from(indices.slice(2, 7)));
    for (const row of page) {
      expect(row.text).not.toMatch(/\n/);
      expect(row.text.length).toBeLessThanOrEqual(ROW_TEXT_CHARS);
    }
    expect(getRowPage(session, indices, indices.length - 2, 10)).toHaveLength(2);
    expect(getRowPage(session, indices, indices.length + 5, 10)).toEqual([]);
  });

  it('pairs tool calls with their results and marks cleared results', async () => {
    const session = await parseFixtureSession();
    const rows = getRowPage(
      session,
      Int32Array.from(session.entries.map((e) => e.index)),
      0,
      session.entries.length,
    );
    const byUuid = (u: string) => rows.find((r) => r.entryIndex === entryByUuid(session, u))!;
    expect(byUuid('a2')).toMatchObject({ kind: 'tool-call', toolName: 'Read', toolStatus: 'ok' });
    expect(byUuid('a2').text).toContain('/home/dev/project/src/parser.ts');
    expect(byUuid('u2')).toMatchObject({ kind: 'tool-result', toolName: 'Read', toolStatus: 'ok' });
    expect(byUuid('u2').text.startsWith('↳ Read:')).toBe(true);
    // Bash's result was cleared by the microcompact: both the call and the result say so.
    expect(byUuid('a4')).toMatchObject({ toolName: 'Bash', toolStatus: 'cleared' });
    expect(byUuid('u4')).toMatchObject({ toolStatus: 'cleared' });
  });

  it('shows images as placeholders with their token estimate', async () => {
    const session = await parseFixtureSession();
    const rows = getRowPage(session, Int32Array.of(entryByUuid(session, 'u5')), 0, 1);
    expect(at(rows, 0).text).toBe('Here is a screenshot · [image · ~2,000 tok]');
    expect(formatImagePlaceholder(3)).toBe('[3 images · ~6,000 tok]');
    // chars/4 of the text + 2,000 for the image, ×4/3.
    expect(at(rows, 0).estimatedTokens).toBe(Math.ceil((Math.round(20 / 4) + 2_000) * (4 / 3)));
  });

  it('describes compactions, summaries and subagent depth', async () => {
    const session = await parseFixtureSession();
    const indices = computeRowIndex(session, DEFAULT_ROW_FILTER);
    const rows = getRowPage(session, indices, 0, indices.length);
    const byUuid = (u: string) => rows.find((r) => r.entryIndex === entryByUuid(session, u))!;
    expect(byUuid('b1').text).toMatch(/^Compacted \(manual\) · 170,050 → 40,000 tok$/);
    expect(byUuid('m1').text).toBe('Microcompacted (auto) · saved 3,000 tok · 1 tool result cleared');
    expect(byUuid('s1').text.startsWith('Summary: This session is being continued')).toBe(true);
    expect(byUuid('s1').kind).toBe('compaction');
    expect(byUuid('sa2')).toMatchObject({ depth: 1, kind: 'assistant-text' });
    expect(byUuid('a1').contextTokens).toBe(20_000); // first line of the response carries the call
    expect(byUuid('a2').contextTokens).toBeUndefined(); // second line of the same response
    expect(byUuid('x1')).toMatchObject({ kind: 'unknown', text: 'brand-new-record' });
  });
});

describe('describeToolInput', () => {
  const use = (inputPreview: string, extra: { command?: string; filePath?: string } = {}) =>
    ({
      kind: 'tool-use',
      id: 't',
      name: 'X',
      inputPreview,
      inputChars: inputPreview.length,
      ...extra,
    }) as const;

  it('prefers the command, then the file path, then a descriptive field', () => {
    expect(describeToolInput(use('{"command":"ls"}', { command: 'ls' }))).toBe('ls');
    expect(describeToolInput(use('{"file_path":"/a"}', { filePath: '/a' }))).toBe('/a');
    expect(describeToolInput(use('{"prompt":"long…","description":"Trace \\"flow\\""}'))).toBe(
      'Trace "flow"',
    );
    expect(describeToolInput(use('{"pattern":"**/*.ts","path":"src"}'))).toBe('**/*.ts');
  });

  it('copes with a truncated preview and falls back to the raw JSON', () => {
    expect(describeToolInput(use('{"description":"cut off in the midd'))).toBe('cut off in the midd');
    expect(describeToolInput(use('{"todos":[1,2]}'))).toBe('{"todos":[1,2]}');
  });
});
