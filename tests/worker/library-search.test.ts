import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateSession } from '../../sample/generate-session';
import { main } from '../../src/cli/main';
import { ABORT_ERROR, type LibrarySearchProgress, type WhatIfSession } from '../../src/worker/protocol';
import { SEARCH_HANDLERS } from '../../src/worker/search-handlers';

// The library's search across sessions in the worker: the sessions `compactlab search` lists over
// the same files, with the same counts (one code path, engine/query/text-search.ts), a hit sent as
// soon as its session is read, bytes counted to the total, and a cancel that stops the loop.

const root = mkdtempSync(join(tmpdir(), 'compactlab-find-'));
const sessions: WhatIfSession[] = [];
for (let i = 0; i < 6; i++) {
  const generated = generateSession({
    seed: 60 + i,
    apiCalls: 20 + 10 * i,
    features: { specials: i % 2 === 0 },
  });
  const files = generated.files.map((f) => ({ name: join(root, `p${i}`, f.name), text: f.text }));
  for (const f of files) {
    mkdirSync(dirname(f.name), { recursive: true });
    writeFileSync(f.name, f.text);
  }
  sessions.push({
    file: files[0]!.name,
    files: files.map((f) => ({ name: f.name, blob: new Blob([f.text]) })),
  });
}
const totalBytes = sessions.reduce((s, x) => s + x.files.reduce((t, f) => t + f.blob.size, 0), 0);

async function run(
  query: string,
  signal = new AbortController().signal,
  onEach?: (p: LibrarySearchProgress) => void,
) {
  const progress: LibrarySearchProgress[] = [];
  const reply = await SEARCH_HANDLERS['library-search'](
    { kind: 'library-search', sessions, query },
    {
      state: {},
      signal,
      onProgress: (p) => {
        progress.push(p);
        onEach?.(p);
      },
    },
  );
  return { result: reply.result, progress };
}

describe('library-search in the worker', () => {
  it('finds what compactlab search finds over the same files, session by session', async () => {
    for (const query of ['Explore', 'the', 'zzqx-nowhere']) {
      const out: string[] = [];
      const write = process.stderr.write;
      process.stderr.write = (() => true) as typeof process.stderr.write;
      try {
        await main(['search', root, query, '--json'], (t) => out.push(t));
      } finally {
        process.stderr.write = write;
      }
      const cli = out.map((l) => JSON.parse(l) as { file: string; matches: number; records: number });
      const { result, progress } = await run(query);
      const hits = progress.flatMap((p) => (p.hit && p.hit.error === undefined ? [p.hit] : []));
      expect(
        hits.map((h) => ({ file: h.file, matches: h.matches.matches, records: h.matches.records })),
      ).toEqual(cli.map(({ file, matches, records }) => ({ file, matches, records })));
      expect(result).toMatchObject({ searched: sessions.length, matched: cli.length });
      const done = progress.filter((p) => p.done === p.total || p.hit !== undefined || p.bytesRead > 0);
      expect(done.at(-1)).toMatchObject({ done: sessions.length, bytesRead: totalBytes, totalBytes });
    }
  });

  it('stops when cancelled: no further session is read', async () => {
    const abort = new AbortController();
    let seen = 0;
    await expect(
      run('the', abort.signal, (p) => {
        if (p.hit) {
          seen = p.done;
          abort.abort();
        }
      }),
    ).rejects.toMatchObject({ name: ABORT_ERROR });
    expect(seen).toBe(1);
  });
});
