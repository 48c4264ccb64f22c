import { at } from '../../src/engine/assert';
import { describe, expect, it } from 'vitest';
import { readEntryText } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { extractMessageText, getCompactionDetail } from '../../src/engine/query/compaction-detail';
import { formatRawJson } from '../../src/engine/query/raw-json';
import {
  buildMainLines,
  buildSubagentLines,
  entryByUuid,
  MAIN_NAME,
  parseFixtureSession,
  SUBAGENT_NAME,
  SUMMARY_TEXT,
} from './session-fixture';

describe('getCompactionDetail', () => {
  it('returns the full summary text, re-read from the file', async () => {
    const session = await parseFixtureSession();
    const sources = [
      createMemorySource(MAIN_NAME, `${buildMainLines().join('\n')}\n`),
      createMemorySource(SUBAGENT_NAME, `${buildSubagentLines().join('\n')}\n`),
    ];
    const compaction = at(session.compactions, 0);
    expect(compaction.summaryEntryIndex).toBe(entryByUuid(session, 's1'));
    const raw = await readEntryText(sources, session, compaction.summaryEntryIndex!);
    const detail = getCompactionDetail(session, 0, raw);
    expect(detail.summaryText).toBe(SUMMARY_TEXT); // full, not the 2,000-char preview
    expect(detail.summaryChars).toBe(SUMMARY_TEXT.length);
    expect(detail.reattached.map((r) => r.entryIndex)).toEqual(compaction.reattachedEntryIndices);
    expect(detail.clearedTools).toEqual([]);
  });

  it('lists the tool results a microcompact cleared', async () => {
    const session = await parseFixtureSession();
    const detail = getCompactionDetail(session, 1);
    expect(detail.compaction.kind).toBe('microcompact');
    expect(detail.clearedTools).toEqual([
      { toolUseId: 'toolu_bash1', toolName: 'Bash', resultEntryIndex: entryByUuid(session, 'u4') },
    ]);
    expect(() => getCompactionDetail(session, 99)).toThrow(RangeError);
  });
});

describe('extractMessageText / formatRawJson', () => {
  it('reads string and block content', () => {
    expect(extractMessageText('{"message":{"content":"hi"}}')).toBe('hi');
    expect(
      extractMessageText(
        '{"message":{"content":[{"type":"text","text":"a"},{"type":"image"},{"text":"b"}]}}',
      ),
    ).toBe('a\n\nb');
    expect(extractMessageText('{"type":"system"}')).toBeUndefined();
    expect(extractMessageText('not json')).toBeUndefined();
  });

  it('pretty-prints JSON and leaves other text alone', () => {
    expect(formatRawJson('{"a":[1,2]}')).toEqual({
      text: '{\n  "a": [\n    1,\n    2\n  ]\n}',
      isJson: true,
    });
    expect(formatRawJson('{"a":')).toEqual({ text: '{"a":', isJson: false });
  });
});
