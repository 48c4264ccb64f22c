import { at } from '../../src/engine/assert';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLINE_DIALECT } from '../../src/engine/parse/dialects/cline';
import { DIALECTS } from '../../src/engine/parse/dialects/registry';
import { scanJsonArray } from '../../src/engine/parse/json-document';
import { parseSession, readEntryRecord, readEntryText } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { CORPUS } from '../helpers/corpus';

// Cline's api_conversation_history.json (FORMAT.md §12): one JSON document, each array element a
// record with its own byte range and line, re-readable by offset like a JSONL line.

const FIXTURE = resolve(__dirname, '../fixtures/cline-api_conversation_history.json');
const REAL_HISTORY = join(CORPUS, 'mike4567__MRA04242026/api_conversation_history.json');
const REAL_UI = join(CORPUS, 'CoreGems__Cline-Xray/task_sample__ui_messages.json');
const corpusPresent = existsSync(REAL_HISTORY) && existsSync(REAL_UI);
if (!corpusPresent) console.warn(`Cline corpus tests skipped: ${CORPUS} is absent`);

const fixtureText = readFileSync(FIXTURE, 'utf8');
const messages = JSON.parse(fixtureText) as { role: string }[];
const source = (name: string, text: string | Uint8Array) =>
  createMemorySource(name, typeof text === 'string' ? new TextEncoder().encode(text) : text);

describe('Cline task history (a whole JSON document)', () => {
  it('reads each message as an entry, with the session facts the messages give', async () => {
    const sources = [source('api_conversation_history.json', fixtureText)];
    const session = await parseSession(sources);
    expect(session.format).toBe('cline');
    expect(session.issues).toEqual([]);
    expect(session.entries.map((e) => e.kind)).toEqual(messages.map((m) => m.role));
    expect(session.meta).toMatchObject({ agent: 'Cline', models: ['claude-sonnet-4-5'] });
    expect(session.meta.startMs).toBe(Date.UTC(2026, 2, 9, 10, 0, 0, 0));
    // The task and "Thanks, also add a test."; the "[read_file …] Result:" text is a tool result.
    expect(session.userTurns).toBe(2);
    expect(session.toolCalls).toEqual({ read_file: 1, replace_in_file: 1, attempt_completion: 1 });
    // read_file's result is text, its header block then its output (older Cline): still its result.
    expect(session.toolPairs).toEqual({ matched: 2, unmatchedUses: 1, unmatchedResults: 0 });
    const read = session.entries[2]!.blocks;
    expect(read.map((b) => b.kind)).toEqual(['tool-result']);
    expect(read[0]).toMatchObject({ toolUseId: 'toolu_01', chars: 39 + 86 });
    // Each assistant message's `metrics.tokens` is a call: `prompt` the whole input, `cached` the
    // part of it read from the cache.
    expect(session.apiCalls.map((c) => c.contextTokens)).toEqual([11200, 11450, 11700, 11900]);
    expect(session.apiCalls.map((c) => c.usage)).toEqual([
      { inputTokens: 11200, cacheCreationInputTokens: 0, cacheReadInputTokens: 0, outputTokens: 64 },
      { inputTokens: 250, cacheCreationInputTokens: 0, cacheReadInputTokens: 11200, outputTokens: 120 },
      { inputTokens: 250, cacheCreationInputTokens: 0, cacheReadInputTokens: 11450, outputTokens: 90 },
      { inputTokens: 200, cacheCreationInputTokens: 0, cacheReadInputTokens: 11700, outputTokens: 210 },
    ]);
    expect(at(session.files, 0).lines).toBe(fixtureText.split('\n').length - 1);
  });

  it("reads a call's tokens by the provider its message states (Anthropic's: the cache on top of the prompt)", async () => {
    // The provider decides, not the sizes: a large uncached turn beside a small cache write.
    const call = (providerId: string | undefined, prompt: number, cached: number) => ({
      role: 'assistant',
      content: [{ type: 'text', text: 'ok' }],
      ...(providerId ? { modelInfo: { modelId: 'claude-sonnet-4-5', providerId, mode: 'act' } } : {}),
      metrics: { tokens: { prompt, completion: 40, cached } },
    });
    const history = [
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      call('anthropic', 5_000, 3_000),
      { role: 'user', content: [{ type: 'text', text: 'more' }] },
      call('openai', 5_000, 3_000),
      { role: 'user', content: [{ type: 'text', text: 'again' }] },
      call(undefined, 10, 9_000),
    ];
    const session = await parseSession([source('api_conversation_history.json', JSON.stringify(history))]);
    expect(session.issues).toEqual([]);
    expect(session.apiCalls.map((c) => c.contextTokens)).toEqual([8_000, 5_000, 9_010]);
  });

  it('re-reads every record by its byte range, and gives its line', async () => {
    const sources = [source('api_conversation_history.json', fixtureText)];
    const session = await parseSession(sources);
    const lines = fixtureText.split('\n');
    for (const entry of session.entries) {
      expect(await readEntryRecord(sources, session, entry.index)).toEqual(messages[entry.index]);
      expect(at(lines, entry.line - 1).trim()).toBe('{');
      expect((await readEntryText(sources, session, entry.index)).startsWith('{')).toBe(true);
    }
  });

  it('reads Cline’s own one-line form the same, and a renamed file by its structure', async () => {
    const pretty = await parseSession([source('api_conversation_history.json', fixtureText)]);
    const oneLine = await parseSession([source('api_conversation_history.json', JSON.stringify(messages))]);
    const renamed = await parseSession([source('task.json', fixtureText)]);
    const strip = (s: typeof pretty) =>
      s.entries.map(({ kind, blocks, timestampMs, model }) => ({ kind, blocks, timestampMs, model }));
    expect(strip(oneLine)).toEqual(strip(pretty));
    expect(oneLine.entries.every((e) => e.line === 1)).toBe(true);
    expect(renamed.format).toBe('cline');
    expect(strip(renamed)).toEqual(strip(pretty));
  });

  it('loses only the element that is not JSON, and says where', async () => {
    // An invalid escape inside one message (the real corpus file has two, from redaction).
    const text = fixtureText.replace('Thanks, also add a test.', 'Thanks \\X add a test.');
    const session = await parseSession([source('api_conversation_history.json', text)]);
    const line = text.split('\n').findIndex((l) => l.includes('\\X')) - 2; // the message's `{`
    expect(session.issues).toEqual([
      expect.objectContaining({ code: 'not-json', severity: 'error', line: line + 1 }),
    ]);
    expect(session.entries).toHaveLength(messages.length - 1);
  });

  it('keeps the complete messages of a cut-off document and says it ends early', async () => {
    const cut = fixtureText.slice(0, fixtureText.indexOf('Thanks, also'));
    const session = await parseSession([source('api_conversation_history.json', cut)]);
    expect(session.entries).toHaveLength(6);
    expect(session.issues).toEqual([expect.objectContaining({ code: 'truncated-line', severity: 'error' })]);
    expect(at(session.issues, 0).message).toMatch(/is cut off: the file ends inside it/);
  });

  it('refuses a document over its size bound, saying so', async () => {
    const small = { ...CLINE_DIALECT, files: { ...CLINE_DIALECT.files, wholeJson: { maxBytes: 100 } } };
    const dialects = DIALECTS.map((d) => (d.id === 'cline' ? small : d));
    const session = await parseSession([source('api_conversation_history.json', fixtureText)], { dialects });
    expect(session.entries).toEqual([]);
    expect(session.issues).toEqual([
      expect.objectContaining({ code: 'document-too-large', severity: 'error', line: 0 }),
    ]);
    expect(at(session.issues, 0).message).toMatch(/is read whole, up to 100 bytes/);
  });

  it('says an empty history is empty', async () => {
    const session = await parseSession([source('api_conversation_history.json', '')]);
    expect(session.format).toBe('cline');
    expect(session.issues).toEqual([expect.objectContaining({ code: 'empty-file', severity: 'warning' })]);
  });

  it('says what a non-array document with a Cline name is', async () => {
    const session = await parseSession([source('api_conversation_history.json', '{"role":"user"}\n')]);
    expect(session.issues).toEqual([expect.objectContaining({ code: 'not-a-transcript' })]);
    expect(at(session.issues, 0).message).toMatch(/is not a Cline task history .*: it is not a JSON array/);
  });
});

describe('scanJsonArray', () => {
  it('finds each element by byte offset past strings holding brackets, commas, quotes and non-ASCII', () => {
    const values = [{ a: '],[{"}' }, 'é\\"x,', [1, [2, { b: null }]], 42, true];
    const text = `\uFEFF [\n ${values.map((v) => JSON.stringify(v)).join(' ,\n\t')} \n]\n`;
    const bytes = new TextEncoder().encode(text);
    const scan = scanJsonArray(bytes);
    expect(scan).toMatchObject({ isArray: true, truncated: false, lines: 7 });
    expect(scan.trailingLine).toBeUndefined();
    const decoded = scan.elements.map((e) =>
      JSON.parse(new TextDecoder().decode(bytes.subarray(e.offsetBytes, e.offsetBytes + e.lengthBytes))),
    );
    expect(decoded).toEqual(values);
    expect(scan.elements.map((e) => e.line)).toEqual([2, 3, 4, 5, 6]);
  });

  it('finds the array at a key of a top-level object, past keys and values that look like it', () => {
    const doc = {
      'messages ': [9],
      meta: { messages: [8], note: '"messages": [7]' },
      'mess\u0061ges': [{ role: 'user', text: 'a\nb' }, { role: 'model' }],
      after: true,
    };
    const text = JSON.stringify(doc, null, 2);
    const bytes = new TextEncoder().encode(text);
    const scan = scanJsonArray(bytes, 'messages');
    expect(scan).toMatchObject({ isArray: true, truncated: false });
    const decoded = scan.elements.map((e) =>
      JSON.parse(new TextDecoder().decode(bytes.subarray(e.offsetBytes, e.offsetBytes + e.lengthBytes))),
    );
    expect(decoded).toEqual(doc.messages);
    const lines = text.split('\n');
    expect(scan.elements.map((e) => at(lines, e.line - 1).trim())).toEqual(['{', '{']);
    expect(scanJsonArray(bytes, 'missing').isArray).toBe(false);
    expect(scanJsonArray(new TextEncoder().encode('[1]'), 'messages').isArray).toBe(false);
  });

  it('tells an empty array, a non-array and trailing text apart', () => {
    const scan = (s: string) => scanJsonArray(new TextEncoder().encode(s));
    expect(scan('[]')).toMatchObject({ isArray: true, elements: [], truncated: false });
    expect(scan('{"a":[1]}').isArray).toBe(false);
    expect(scan('[1]\nx').trailingLine).toBe(2);
    expect(scan('[1, {"a"').elements.at(-1)).toMatchObject({ complete: false });
  });
});

describe.skipIf(!corpusPresent)('Cline corpus files', () => {
  it('reads a real api_conversation_history.json, each record re-readable by offset', async () => {
    const sources = [createMemorySource('api_conversation_history.json', readFileSync(REAL_HISTORY))];
    const session = await parseSession(sources);
    expect(session.format).toBe('cline');
    expect(session.meta.agent).toBe('Cline');
    expect(session.entries.length).toBeGreaterThan(400);
    // One message holds invalid escapes (a redacted key, `\X`): it alone is lost, and the issue
    // says which (the document is one line: every record is at line 1; a plain count of the
    // array's elements puts the bad escape in its 227th of 443).
    expect(session.issues.map((i) => i.code)).toEqual(['not-json']);
    expect(at(session.issues, 0).message).toMatch(
      /^The record at line 1 \(element 227 of the array\) is not JSON: /,
    );
    const kinds = new Set(session.entries.map((e) => e.kind));
    expect(kinds).toEqual(new Set(['user', 'assistant', 'meta']));
    expect(session.toolCalls.read_file).toBeGreaterThan(0);
    // Its results are user text ("[read_file for 'x'] Result:…"), each after the message of its
    // tool_use, some headers holding "]" (a search pattern) or newlines (a question): a plain count
    // of the file (its broken message repaired) pairs 223 of 231 calls, 8 interrupted before a
    // result; the lost message held one result. Its person's turns: the task, two messages and
    // seven resumptions (one lost), not the results nor Cline's seven "[ERROR]" retry prompts.
    expect(session.toolPairs).toEqual({ matched: 222, unmatchedUses: 9, unmatchedResults: 0 });
    expect(session.userTurns).toBe(10);
    // Nine truncations, read from the input falling while the history only grew (api-history.ts):
    // each an event just before the message of the first call it shaped, at that message's bytes.
    const truncations = session.compactions.filter((c) => c.kind === 'truncate');
    expect(truncations.map((c) => c.preTokens)).toEqual([
      97_679, 96_001, 98_694, 103_615, 98_916, 177_696, 145_911, 131_412, 123_806,
    ]);
    expect(truncations.map((c) => c.postTokens)).toEqual([
      48_018, 60_648, 48_793, 70_123, 56_535, 145_911, 131_412, 123_806, 15_976,
    ]);
    for (const c of truncations) {
      expect(at(session.entries, c.entryIndex).compact?.deletedRange?.[0]).toBe(2);
      expect(at(session.entries, c.entryIndex + 1).offsetBytes).toBe(
        at(session.entries, c.entryIndex).offsetBytes,
      );
    }
    // Cumulative ranges, as Cline keeps them, each the half or three quarters after the range
    // before whose share of the messages is nearer the share of the input lost.
    const ends = truncations.map((c) => at(session.entries, c.entryIndex).compact!.deletedRange![1]);
    expect(ends).toEqual([39, 85, 137, 189, 235, 269, 287, 297, 303]);
    const events = new Set(truncations.map((c) => c.entryIndex));
    for (const index of [0, 1, 2, Math.floor(session.entries.length / 2), session.entries.length - 1]) {
      const record = (await readEntryRecord(sources, session, index)) as { role: string };
      expect(record.role).toBe(at(session.entries, events.has(index) ? index + 1 : index).kind);
    }
  });

  it('reads a real ui_messages.json by its name as the UI log (cline-ui.test.ts reads it through)', async () => {
    const session = await parseSession([
      createMemorySource('task_sample__ui_messages.json', readFileSync(REAL_UI)),
    ]);
    expect(session.format).toBe('cline-ui');
    expect(session.issues.filter((i) => i.severity === 'error')).toEqual([]);
  });
});
