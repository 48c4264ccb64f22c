import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeFileSource } from '../../src/cli/node-source';
import { getLibraryRow, type LibraryRow } from '../../src/engine/library/library-row';
import { scanSession } from '../../src/engine/library/scan-session';
import { parseSession } from '../../src/engine/parse/parse-session';
import { type ByteSource, createMemorySource } from '../../src/engine/parse/source';
import { generateSession } from '../../sample/generate-session';

// The scan skips most lines; its list figures must still be the full parse's, on every corpus
// file (other people's real logs, read in place), every corpus session folder and generated
// sessions with subagents and all three compaction kinds.

const CORPUS = resolve(__dirname, '../../../shared/corpus');
const present = existsSync(CORPUS);
if (!present)
  console.warn(`library scan corpus tests skipped: ${CORPUS} is absent (a fresh clone without ../shared)`);

function corpusFiles(): string[] {
  if (!present) return [];
  const files: string[] = [];
  for (const dir of readdirSync(CORPUS)) {
    const path = join(CORPUS, dir);
    if (statSync(path).isDirectory()) for (const f of readdirSync(path)) files.push(join(path, f));
  }
  return files.filter((f) => /\.jsonl?$/.test(f) && !f.endsWith('.meta.json')).sort();
}

/**
 * The figures a scan must get exactly (everything but the issues, which the scan sees fewer of,
 * and the start/end pair).
 */
function comparable(
  row: LibraryRow,
): Omit<LibraryRow, 'issues' | 'firstIssue' | 'costUsd'> & { costMicroUsd: number } {
  const { issues: _issues, firstIssue: _first, costUsd, ...rest } = row;
  return { ...rest, costMicroUsd: Math.round(costUsd * 1e6) };
}

async function expectSame(sources: () => ByteSource[]): Promise<LibraryRow> {
  const scanned = await scanSession(sources());
  const full = getLibraryRow(await parseSession(sources()));
  expect(comparable(scanned)).toEqual(comparable(full));
  expect(scanned.issues).toBeLessThanOrEqual(full.issues);
  // What the list's column shows: the same as the full read's.
  expect(scanned.unread).toBe(full.unread);
  return scanned;
}

describe('scan = full parse, generated sessions', () => {
  it('a session with subagents, auto, manual and micro compactions, streamed calls', async () => {
    const session = generateSession({
      seed: 7,
      apiCalls: 500,
      features: { specials: true, microcompact: true, manualCompact: true },
    });
    const sources = () => session.files.map((f) => createMemorySource(f.name, f.text));
    const row = await expectSame(sources);
    expect(row.apiCalls).toBeGreaterThan(400);
    expect(row.subagentFiles).toBeGreaterThan(0);
    expect(row.compactions.auto + row.compactions.manual + row.compactions.micro).toBeGreaterThan(0);
    expect(row.costUsd).toBeGreaterThan(0);
    expect(row.firstPrompt).toBeTruthy();
  });

  it('broken lines: a bad middle line and a cut-off last line are counted as the full parse counts them', async () => {
    const { files } = generateSession({ seed: 3, apiCalls: 60 });
    const main = files[0];
    if (!main) throw new Error('the generator made no file');
    const lines = main.text.split('\n');
    lines.splice(20, 0, 'not json at all', '{"type":"assistant", cut');
    const text = `${lines.join('\n').trimEnd()}\n{"type":"user","message":`;
    const row = await expectSame(() => [createMemorySource(main.name, text)]);
    expect(row.brokenLines).toBe(3);
    // The list says what the first is, by its line (the 21st: the first line put in).
    expect(row.firstIssue).toMatch(/^line 21: .*JSON/);
    const clean = await scanSession([createMemorySource(main.name, main.text)]);
    expect(clean.firstIssue).toBeUndefined();
  });
});

describe('scan = full parse, hostile lines', () => {
  // A line's needles were looked for in its first 1 kB only: a 1 kB `cwd` (written before
  // `message` by Claude Code) hid every call, and the list read 0 calls where stats read 7.
  const withCwd = (text: string, cwd: string) =>
    text.replaceAll(/"cwd":"(?:[^"\\]|\\.)*"/g, `"cwd":${JSON.stringify(cwd)}`);

  it('a 1 kB cwd on every line: the calls the full parse counts', async () => {
    const { files } = generateSession({ seed: 3, apiCalls: 7 });
    const main = files[0];
    if (!main) throw new Error('the generator made no file');
    const text = withCwd(main.text, `/home/mira/${'x'.repeat(1024)}`);
    const row = await expectSame(() => [createMemorySource(main.name, text)]);
    expect(row.apiCalls).toBe(7);
    // A cwd whose length puts the first response's `"assistant"` across the line's first 1 kB.
    const probe = text.split('\n').find((l) => l.includes('"role":"assistant"')) ?? '';
    // Where `"assistant"` would start with an empty cwd, then the cwd that puts it at 1019.
    const shift =
      probe.indexOf('"role":"assistant"') + '"role":'.length - `/home/mira/${'x'.repeat(1024)}`.length;
    const across = withCwd(main.text, 'x'.repeat(1024 - 5 - shift));
    const acrossLine = across.split('\n').find((l) => l.includes('"role":"assistant"')) ?? '';
    expect(acrossLine.indexOf('"assistant"')).toBe(1024 - 5);
    expect((await expectSame(() => [createMemorySource(main.name, across)])).apiCalls).toBe(7);
  });

  it('long cwds of escaped quotes and backslashes, with subagents and every compaction kind', async () => {
    const session = generateSession({
      seed: 7,
      apiCalls: 300,
      features: { specials: true, microcompact: true, manualCompact: true },
    });
    const cwd = `C:\\${'dir\\"q":{\\'.repeat(200)}\\`;
    const sources = () => session.files.map((f) => createMemorySource(f.name, withCwd(f.text, cwd)));
    const row = await expectSame(sources);
    expect(row.apiCalls).toBeGreaterThan(250);
    expect(row.compactions.auto + row.compactions.manual + row.compactions.micro).toBeGreaterThan(0);
  });
});

describe('scan = full parse, a call whose message holds 1 kB before its role', () => {
  // The window held the first 512 bytes of `message`: a 1 kB `id` or `model` before `role`, or
  // `content` first, hid the call, and the list read fewer calls than stats.
  const rewriteCalls = (
    text: string,
    rewrite: (message: Record<string, unknown>) => Record<string, unknown>,
  ) =>
    text
      .split('\n')
      .map((line) => {
        if (!line.includes('"role":"assistant"')) return line;
        const record = JSON.parse(line) as { message?: Record<string, unknown> };
        if (record.message?.role !== 'assistant') return line;
        return JSON.stringify({ ...record, message: rewrite(record.message) });
      })
      .join('\n');
  const cases: [string, (message: Record<string, unknown>) => Record<string, unknown>][] = [
    ['a 1 kB id', (m) => ({ ...m, id: `msg_${'x'.repeat(1024)}${String(m.id)}` })],
    ['a 1 kB model', (m) => ({ ...m, model: `claude-opus-4-6-${'y'.repeat(1024)}` })],
    ['content first', ({ content, ...rest }) => ({ content, ...rest })],
  ];
  for (const [name, rewrite] of cases) {
    it(`${name}: the calls and compactions stats counts`, async () => {
      const session = generateSession({
        seed: 11,
        apiCalls: 120,
        features: { specials: true, microcompact: true, manualCompact: true },
      });
      const sources = () =>
        session.files.map((f) => createMemorySource(f.name, rewriteCalls(f.text, rewrite)));
      const full = getLibraryRow(await parseSession(sources()));
      expect(full.apiCalls).toBeGreaterThan(100);
      const scanned = await expectSame(sources);
      expect(scanned.apiCalls).toBe(full.apiCalls);
    });
  }
});

describe('scan = full parse, a call whose role is past the head and whose tail is a long cwd', () => {
  // 2.1.92 writes `cwd` after the record's `type`: a cwd longer than the tail window (512 bytes)
  // with a 1 kB `id` before `message.role` hid the call from every window, and the list read
  // fewer calls than stats.
  const rewrite = (text: string, cwd: string) =>
    text
      .split('\n')
      .map((line) => {
        if (!line.includes('"role":"assistant"')) return line;
        const {
          type,
          cwd: _cwd,
          message,
          ...rest
        } = JSON.parse(line) as Record<string, unknown> & {
          message: Record<string, unknown>;
        };
        if (message?.role !== 'assistant') return line;
        const id = `msg_${'x'.repeat(1024)}${String(message.id)}`;
        return JSON.stringify({ ...rest, message: { ...message, id }, type, userType: 'external', cwd });
      })
      .join('\n');
  const cwds: [string, string][] = [
    ['a 600-byte cwd', `/home/mira/${'p'.repeat(600)}`],
    [
      'a 5k cwd of escaped quotes, backslashes and fake keys',
      `C:\\${'d\\"q":"assistant\\'.repeat(5000 / 16)}`,
    ],
    ['a 20k cwd', `/srv/${'z'.repeat(20_000)}`],
  ];
  for (const [name, cwd] of cwds) {
    it(`${name}: the calls stats counts`, async () => {
      const session = generateSession({ seed: 5, apiCalls: 60, features: { specials: true } });
      const sources = () => session.files.map((f) => createMemorySource(f.name, rewrite(f.text, cwd)));
      const full = getLibraryRow(await parseSession(sources()));
      expect(full.apiCalls).toBeGreaterThan(50);
      expect((await expectSame(sources)).apiCalls).toBe(full.apiCalls);
    });
  }

  it('linear time: 20k-byte tails cost about what 5k ones do per byte (a quadratic walk 4 times)', async () => {
    // Every line a skipped record (a user turn) whose trailing fields are long, so each line is
    // walked back over whole: a superlinear walk shows as a ratio far above 4.
    const user = (cwd: string, n: number) =>
      JSON.stringify({
        parentUuid: null,
        message: { role: 'user', content: 'hi' },
        type: 'user',
        uuid: `u${n}`,
        timestamp: '2026-01-02T03:04:05.000Z',
        cwd,
      });
    const file = (len: number) =>
      Array.from({ length: 40_000_000 / len / 10 }, (_, n) =>
        user(`${'\\"'.repeat(len / 4)}${'a'.repeat(len / 2)}`, n),
      ).join('\n');
    const time = async (text: string) => {
      const t0 = performance.now();
      await scanSession([createMemorySource('s.jsonl', text)]);
      return performance.now() - t0;
    };
    const [small, large] = [file(5_000), file(20_000)];
    await time(small);
    const perByteSmall = (await time(small)) / small.length;
    const perByteLarge = (await time(large)) / large.length;
    // Ours: the same bytes in longer lines may cost twice as much per byte on a loaded machine,
    // a quadratic walk 4 times as much.
    expect(perByteLarge / perByteSmall).toBeLessThan(2.5);
  });
});

describe.skipIf(!present)('scan = full parse, corpus', () => {
  const files = corpusFiles();
  it('finds corpus files', () => expect(files.length).toBeGreaterThan(10));
  for (const file of files) {
    it(`${basename(join(file, '..'))}/${basename(file)}`, async () => {
      await expectSame(() => [createNodeFileSource(file)]);
    });
  }
  // Session folders: the corpus flattens `<id>/subagents/agent-*` to `<id>__subagents__agent-*`.
  const mains = files.filter((f) =>
    readdirSync(join(f, '..')).some((o) => o.startsWith(`${basename(f, '.jsonl')}__`)),
  );
  for (const main of mains) {
    it(`folder ${basename(main)}`, async () => {
      const dir = join(main, '..');
      const rest = readdirSync(dir)
        .filter((o) => o.startsWith(`${basename(main, '.jsonl')}__`))
        .map((o) => join(dir, o));
      const row = await expectSame(() => [main, ...rest].map((p) => createNodeFileSource(p)));
      expect(row.subagentFiles).toBeGreaterThan(0);
    });
  }
});
