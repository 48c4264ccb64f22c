import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPathSources } from '../../src/cli/session-files';
import { findSessions } from '../../src/cli/stats/find-sessions';
import { createMemorySource } from '../../src/engine/parse/source';
import {
  cutExcerpt,
  forEachLineText,
  searchSessionText,
  toExcerptText,
} from '../../src/engine/query/text-search';
import { corpusOrSkip, foreignFiles, restoreCorpusTree } from '../helpers/corpus';
import { runCli } from '../helpers/run-cli';

// The library's search across sessions (engine/query/text-search.ts): occurrences of a plain
// string in the text of a session's records, streamed line by line, with the first one's place and
// excerpt. Checked on made-up lines for each shape a line takes, and on the restored corpus
// against a plain count: every line JSON.parse'd whole, its string values walked.

const line = (record: unknown) => JSON.stringify(record);
const texts = (raw: string) => {
  const out: string[] = [];
  forEachLineText(raw, (t) => {
    out.push(t);
    return undefined;
  });
  return out;
};

describe('forEachLineText', () => {
  it('gives the string values of a record, not its keys, numbers or opaque blobs', () => {
    const blob = 'A'.repeat(300);
    const raw = line({
      type: 'assistant',
      n: 3,
      message: {
        content: [
          { type: 'thinking', thinking: 'why "quoted"\nnext', signature: 'sig-text' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: blob } },
          { type: 'text', text: 'done' },
        ],
      },
    });
    expect(texts(raw)).toEqual([
      'assistant',
      'thinking',
      'why "quoted"\nnext',
      'image',
      'base64',
      'image/png',
      'text',
      'done',
    ]);
  });

  it('reads a line of a pretty-printed document, a record cut short, and plain text', () => {
    expect(texts('    "text": "hello \\u00e9",')).toEqual(['hello é']);
    expect(texts('{"type":"user","message":{"content":"the end was cut of')).toEqual([
      'user',
      'the end was cut of',
    ]);
    expect(texts('this line is not JSON')).toEqual(['this line is not JSON']);
  });
});

describe('excerpts', () => {
  it('are one plain line: control, escape and direction characters removed, whitespace folded', () => {
    expect(toExcerptText('a\u001b[31mred\u001b[0m\n\tb\u202Ec <b>x</b>')).toBe('a[31mred[0m bc <b>x</b>');
  });

  it('are cut around the match with an ellipsis, never splitting a character in two', () => {
    const text = `${'😀'.repeat(50)}needle${'x'.repeat(300)}`;
    const at = text.indexOf('needle');
    const cut = cutExcerpt(text, at, 6);
    expect(cut.startsWith('…')).toBe(true);
    expect(cut.endsWith('…')).toBe(true);
    expect(cut).toContain('needle');
    expect(cut).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
  });
});

describe('searchSessionText', () => {
  const main = [
    line({
      type: 'user',
      uuid: 'needle-1',
      cwd: '/home/ada/needle-proj',
      message: { content: 'Find the Needle' },
    }),
    'this line is not JSON (needle)',
    line({ type: 'assistant', message: { content: [{ type: 'text', text: 'needle, NEEDLE and needle' }] } }),
    line({
      type: 'assistant',
      message: { content: [{ type: 'thinking', thinking: 'x', signature: 'needle' }] },
    }),
    line({ needle: 'a key is not text' }),
    line({ type: 'user', message: { content: 'say "needle"\nplease' } }),
  ].join('\n');
  const sub = `${line({ type: 'user', message: { content: 'subagent needle' } })}\n`;

  it('counts occurrences in every file, ignoring case, keys and signatures, at any chunk size', async () => {
    for (const chunkBytes of [1, 7, 64, 1 << 20]) {
      const r = await searchSessionText(
        [createMemorySource('s.jsonl', main), createMemorySource('s/subagents/agent-a.jsonl', sub)],
        'NeEdLe',
        { chunkBytes },
      );
      // cwd 1 + prompt 1 (not the uuid), the plain line 1, three in one text, the quoted one 1, the subagent's 1.
      expect(r).toMatchObject({ matches: 8, records: 5, bytesRead: main.length + sub.length });
      expect(r.first).toEqual({ file: 's.jsonl', line: 1, excerpt: '/home/ada/needle-proj' });
    }
  });

  it('finds a query JSON escapes in the raw line (quotes, newlines)', async () => {
    const r = await searchSessionText([createMemorySource('s.jsonl', main)], '"needle"\nplease');
    expect(r).toMatchObject({ matches: 1, records: 1 });
    expect(r.first).toMatchObject({ line: 6, excerpt: 'say "needle" please' });
  });

  it('finds text past ASCII that a line writes as \\uXXXX escapes, ignoring case either way', async () => {
    // Python's json.dumps escapes every character past ASCII (ensure_ascii), an astral one as a
    // surrogate pair, its hex lower-case; other writers upper-case it. Claude Code writes raw UTF-8.
    const lines = [
      '{"text": "Un caf\\u00e9 au lait"}',
      '{"text": "CAF\\u00C9 NOIR \\uD83C\\uDF89"}',
      line({ text: 'un café crème 🎉' }),
      '{"text": "not caf\\\\u00e9: a backslash and u00e9"}',
    ].join('\n');
    const search = (q: string) => searchSessionText([createMemorySource('py.jsonl', lines)], q);
    expect(await search('café')).toMatchObject({ matches: 3, records: 3 });
    expect((await search('café')).first).toEqual({ file: 'py.jsonl', line: 1, excerpt: 'Un café au lait' });
    expect(await search('CAFÉ')).toMatchObject({ matches: 3, records: 3 });
    expect(await search('🎉')).toMatchObject({ matches: 2, records: 2 });
    expect((await search('noir 🎉')).first).toMatchObject({ line: 2, excerpt: 'CAFÉ NOIR 🎉' });
    expect(await search('crème')).toMatchObject({ matches: 1, records: 1 });
  });

  it('counts each element of a line that is a JSON array, and says which element the first is', async () => {
    // Cline writes ui_messages.json and api_conversation_history.json as one line; the text of a
    // tool message is itself JSON, its newlines escaped twice.
    const doc = JSON.stringify([
      { ts: 1, type: 'say', say: 'text', text: 'nothing here' },
      {
        ts: 2,
        type: 'say',
        say: 'tool',
        text: JSON.stringify({ tool: 'newFileCreated', content: 'a\nthrow new Error("x")\n\u001b[31m' }),
      },
      { ts: 3, type: 'say', say: 'text', text: 'error, error' },
    ]);
    for (const chunkBytes of [5, 1 << 20]) {
      const r = await searchSessionText([createMemorySource('ui_messages.json', doc)], 'error', {
        chunkBytes,
      });
      expect(r).toMatchObject({ matches: 3, records: 2 });
      expect(r.first).toEqual({
        file: 'ui_messages.json',
        line: 1,
        element: 2,
        excerpt: '{"tool":"newFileCreated","content":"a throw new Error("x") [31m"}',
      });
    }
    // A pretty-printed document is read line by line, as before: no element.
    const pretty = JSON.stringify(JSON.parse(doc), null, 2);
    const r = await searchSessionText([createMemorySource('ui_messages.json', pretty)], 'error');
    expect(r.first).toMatchObject({ line: 12 });
    expect(r.first?.element).toBeUndefined();
  });

  it('finds nothing for an empty query or an absent one', async () => {
    expect((await searchSessionText([createMemorySource('s.jsonl', main)], '  ')).matches).toBe(0);
    const r = await searchSessionText([createMemorySource('s.jsonl', main)], 'haystack');
    expect(r).toEqual({ matches: 0, records: 0, bytesRead: main.length });
  });

  it('reports progress and stops when cancelled', async () => {
    const seen: number[] = [];
    const big = `${Array.from({ length: 2000 }, (_, i) => line({ text: `line ${i}` })).join('\n')}\n`;
    await searchSessionText([createMemorySource('a.jsonl', big)], 'line 1999', {
      chunkBytes: 4096,
      onProgress: (read, total) => {
        expect(total).toBe(big.length);
        seen.push(read);
      },
    });
    expect(seen.length).toBeGreaterThan(5);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen.at(-1)).toBe(big.length);
    const abort = new AbortController();
    abort.abort();
    await expect(
      searchSessionText([createMemorySource('a.jsonl', big)], 'line', { signal: abort.signal }),
    ).rejects.toThrow(/abort/i);
  });
});

const present = corpusOrSkip('text search corpus test');
const python = spawnSync('python3', ['--version']).status === 0;

/** Occurrences of `needle` in a parsed record's string values (keys and opaque blobs left out). */
function countInRecord(record: unknown, needle: string): number {
  let n = 0;
  const walk = (value: unknown, key?: string): void => {
    if (typeof value === 'string') {
      const opaque =
        key === 'signature' ||
        key === 'encrypted_content' ||
        (key !== undefined && /(?:^id|_id|Id|ID|[uU]uid)$/.test(key)) ||
        (value.length >= 256 && (value.startsWith('data:') || /^[A-Za-z0-9+/=_-]+$/.test(value)));
      if (opaque) return;
      const folded = value.toLowerCase();
      for (let at = folded.indexOf(needle); at >= 0; at = folded.indexOf(needle, at + needle.length)) n++;
    } else if (Array.isArray(value)) {
      for (const v of value) walk(v, key);
    } else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) walk(v, k);
    }
  };
  walk(record);
  return n;
}

/** The plain count: each line JSON.parse'd whole, its string values walked (keys and opaque blobs left out). */
function countPlainly(
  paths: readonly string[],
  needle: string,
): { matches: number; records: number } | undefined {
  let matches = 0;
  let records = 0;
  for (const path of paths) {
    for (const raw of readFileSync(path, 'utf8').split('\n')) {
      if (raw.trim() === '') continue;
      let record: unknown;
      try {
        record = JSON.parse(raw);
      } catch {
        return undefined; // a line that is not a whole record: counted by another rule
      }
      const inLine = countInRecord(record, needle);
      matches += inLine;
      if (inLine > 0) records++;
    }
  }
  return { matches, records };
}

describe.skipIf(!present)('text search over the foreign corpus’s one-line JSON documents', () => {
  it('counts per element of the array, as a plain count of each element does, and names the first', async () => {
    // Cline's ui_messages.json: one line, each element a message (../shared/corpus/foreign).
    const documents = foreignFiles().filter((f) => {
      if (!f.endsWith('.json')) return false;
      const text = readFileSync(f, 'utf8');
      return text.trimStart().startsWith('[') && !text.trimEnd().includes('\n');
    });
    expect(documents.length).toBeGreaterThan(0);
    for (const path of documents) {
      const elements = JSON.parse(readFileSync(path, 'utf8')) as unknown[];
      for (const query of ['error', 'the', 'README']) {
        const needle = query.toLowerCase();
        const counts = elements.map((e) => countInRecord(e, needle));
        const got = await searchSessionText(await openPathSources([path]), query);
        expect({ path, query, matches: got.matches, records: got.records }).toEqual({
          path,
          query,
          matches: counts.reduce((a, b) => a + b, 0),
          records: counts.filter((c) => c > 0).length,
        });
        if (got.matches === 0) continue;
        expect(got.first).toMatchObject({ line: 1, element: counts.findIndex((c) => c > 0) + 1 });
        // The excerpt reads as text: no JSON escape left in it, no control character.
        expect(got.first!.excerpt).not.toMatch(/\\[nt"]/);
        // biome-ignore lint/suspicious/noControlCharactersInRegex: none may be shown.
        expect(got.first!.excerpt).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
      }
    }
  });
});

describe.skipIf(!present || !python)('text search over the restored corpus', () => {
  let tree = '';
  beforeAll(() => {
    tree = restoreCorpusTree('search');
  });
  afterAll(() => rmSync(tree, { recursive: true, force: true }));

  it('agrees with a plain count of every session of JSON lines, for words common and rare', async () => {
    const sessions = await findSessions([tree]);
    expect(sessions.length).toBeGreaterThan(30);
    let compared = 0;
    let found = 0;
    for (const query of ['the', 'Compact', 'error:', 'README.md']) {
      const needle = query.toLowerCase();
      for (const s of sessions) {
        const expected = countPlainly(s.paths, needle);
        if (!expected) continue;
        const got = await searchSessionText(await openPathSources(s.paths), query);
        expect({ session: s.file, query, matches: got.matches, records: got.records }).toEqual({
          session: s.file,
          query,
          ...expected,
        });
        compared++;
        if (got.matches > 0) {
          found++;
          // The first hit is where it says: that line of that file holds the query.
          const lineText = readFileSync(got.first!.file, 'utf8').split('\n')[got.first!.line - 1]!;
          expect(lineText.toLowerCase()).toContain(JSON.stringify(needle).slice(1, -1));
          expect(got.first!.excerpt.toLowerCase()).toContain(needle);
        } else expect(got.first).toBeUndefined();
      }
    }
    expect(compared).toBeGreaterThan(100);
    expect(found).toBeGreaterThan(50);
  });

  it('reads every byte of every session once: bytesRead is the files’ size', async () => {
    const sessions = await findSessions([tree]);
    for (const s of sessions.slice(0, 30)) {
      const sources = await openPathSources(s.paths);
      const got = await searchSessionText(sources, 'zzqx-not-there');
      expect(got).toMatchObject({ matches: 0, records: 0 });
      expect(got.bytesRead).toBe(sources.reduce((t, f) => t + f.sizeBytes, 0));
    }
  });
});

// A Messages API request dumped on one line (`{"model":…,"system":…,"tools":…,"messages":[…]}`,
// one of the raw-traffic inputs; the fixture's request, minified): it was one record whatever
// number of messages held the text. Each message is now a record, named by its place in
// "messages", and the request's other fields one more, against a plain count of each.
describe('a request on one line: a record per message', () => {
  const request = JSON.parse(readFileSync(join(__dirname, '../fixtures/api/request.json'), 'utf8')) as {
    messages: unknown[];
  };
  const source = () => createMemorySource('request.json', new TextEncoder().encode(JSON.stringify(request)));

  it.each(['report', 'tally', 'total', 'run a command'])(
    '"%s": each message counted apart',
    async (query) => {
      const needle = query.toLowerCase();
      const perMessage = request.messages.map((m) => countInRecord(m, needle));
      const rest = countInRecord({ ...request, messages: [] }, needle);
      const got = await searchSessionText([source()], query);
      expect({ matches: got.matches, records: got.records }).toEqual({
        matches: perMessage.reduce((a, b) => a + b, 0) + rest,
        records: perMessage.filter((n) => n > 0).length + (rest > 0 ? 1 : 0),
      });
      expect(got.records).toBeGreaterThan(0);
      // The first in the order written: the fields before "messages" (system, tools), else the message.
      const firstMessage = perMessage.findIndex((n) => n > 0) + 1;
      const beforeMessages = countInRecord({ ...request, messages: undefined }, needle) > 0;
      expect(got.first).toMatchObject(
        beforeMessages ? { line: 1 } : { line: 1, element: firstMessage, arrayKey: 'messages' },
      );
      if (beforeMessages) expect(got.first!.element).toBeUndefined();
    },
  );

  it('compactlab search names the message', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'compactlab-request-'));
    const path = join(dir, 'request.json');
    writeFileSync(path, JSON.stringify(request));
    const r = await runCli(['search', path, 'report']);
    expect(r.code).toBe(0);
    expect(r.lines[0]).toMatch(
      /: \d+ matches in [2-9] records\n {2}.*request\.json:1 \(element 1 of "messages"\): /,
    );
    rmSync(dir, { recursive: true, force: true });
  });
});
