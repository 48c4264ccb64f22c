import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { at } from '../../src/engine/assert';
import { describe, expect, it } from 'vitest';
import { parseSession, readEntryText } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { extractMessageText, getCompactionDetail } from '../../src/engine/query/compaction-detail';
import { formatRawJson } from '../../src/engine/query/raw-json';
import { CORPUS, corpusOrSkip } from '../helpers/corpus';
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

// A real 2.1.12 session's microcompact states preTokens 60,199 after an API call of 158,279
// tokens: its card said 'before 60,199 tok' over 'next call 130,468 tok', a context that grew by
// clearing. The card now gives the call before as the API counted it; held to a plain read of the
// raw records (the main thread's assistant records, one per message id, input + cache).
const MICRO_SESSION = join(
  CORPUS,
  'aistrad__work/claude__projects__-home-aiscend-work-vibelife__120e3499-cd68-46de-a639-d9ef55d094fc.jsonl',
);
describe.runIf(corpusOrSkip('the microcompact card on a real session'))('a real microcompact', () => {
  it("gives the API's context of the call before it beside the boundary's own preTokens", async () => {
    const text = readFileSync(MICRO_SESSION, 'utf8');
    const plain = { callBefore: 0, callAfter: 0, pre: 0 };
    const seen = new Set<string>();
    let boundarySeen = false;
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      const r = JSON.parse(line) as {
        type?: string;
        subtype?: string;
        isSidechain?: boolean;
        microcompactMetadata?: { preTokens: number };
        message?: { id?: string; usage?: Record<string, number> };
      };
      if (r.subtype === 'microcompact_boundary') {
        boundarySeen = true;
        plain.pre = r.microcompactMetadata!.preTokens;
      }
      const u = r.message?.usage;
      if (r.type !== 'assistant' || r.isSidechain || !u || !r.message?.id || seen.has(r.message.id)) continue;
      seen.add(r.message.id);
      const context =
        u.input_tokens! + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0);
      if (!boundarySeen) plain.callBefore = context;
      else if (plain.callAfter === 0) plain.callAfter = context;
    }
    expect(plain).toEqual({ callBefore: 158_279, callAfter: 130_468, pre: 60_199 });

    const session = await parseSession([createMemorySource('120e3499.jsonl', text)]);
    const index = session.compactions.findIndex((c) => c.kind === 'microcompact');
    const detail = getCompactionDetail(session, index);
    expect(detail.callBeforeTokens).toBe(plain.callBefore);
    expect(detail.compaction.postTokens).toBe(plain.callAfter);
    expect(detail.compaction.preTokens).toBe(plain.pre);
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
