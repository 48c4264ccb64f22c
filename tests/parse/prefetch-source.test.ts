import { describe, expect, it } from 'vitest';
import { scanLines } from '../../src/engine/parse/line-reader';
import { type ByteSource, createMemorySource, createPrefetchSource } from '../../src/engine/parse/source';

// The page's parse reads a File in chunks, each an asynchronous slice: createPrefetchSource starts
// the next chunk's read as soon as one is served, so the file's read overlaps the parse. Checked
// here on the line reader's own reads: the same lines, the reads ahead issued before they are
// asked for, and other reads (small, backward) answered exactly.

/** A source whose underlying reads are recorded, in the order they are issued. */
function recorded(bytes: Uint8Array): { source: ByteSource; reads: [number, number][] } {
  const inner = createMemorySource('f.jsonl', bytes);
  const reads: [number, number][] = [];
  return {
    reads,
    source: {
      ...inner,
      read: (o, l) => {
        reads.push([o, l]);
        return inner.read(o, l);
      },
    },
  };
}

// Lines of 1 to 900 bytes and a few longer than a chunk, some of them multi-byte text.
const text = Array.from({ length: 400 }, (_, k) =>
  k % 97 === 5 ? 'x'.repeat(5_000) : `{"k":${k},"t":"${'é€a'.repeat((k * 37) % 300)}"}`,
).join('\n');
const bytes = new TextEncoder().encode(`${text}\n`);

async function linesOf(source: ByteSource): Promise<[string, number, number][]> {
  const lines: [string, number, number][] = [];
  await scanLines(
    source,
    (line, n, offset) => {
      lines.push([line, n, offset]);
      return true;
    },
    { chunkBytes: 2_048 },
  );
  return lines;
}

describe('createPrefetchSource', () => {
  it('gives the line reader the same lines, with each next chunk read before it is asked for', async () => {
    const expected = await linesOf(createMemorySource('f.jsonl', bytes));
    const { source, reads } = recorded(bytes);
    const asks: { end: number; readsBefore: number }[] = [];
    const prefetch = createPrefetchSource(source, 1_024);
    const watched: ByteSource = {
      ...prefetch,
      read: (o, l) => {
        asks.push({ end: o + l, readsBefore: reads.length });
        return prefetch.read(o, l);
      },
    };
    expect(await linesOf(watched)).toEqual(expected);
    expect(expected.length).toBe(400);
    // An ask whose bytes were all requested before it was made: served by a read ahead. All but
    // the first and those a line longer than a chunk doubles (the line reader's long-line path).
    const servedAhead = asks.filter(
      (a) => Math.max(0, ...reads.slice(0, a.readsBefore).map(([o, l]) => o + l)) >= a.end,
    );
    expect(asks.length).toBeGreaterThan(180);
    expect(servedAhead.length).toBeGreaterThan(asks.length * 0.9);
    // One underlying read per ask, about: reading ahead adds no reads.
    expect(reads.length).toBeLessThanOrEqual(asks.length + 1);
  });

  it('answers small, backward and repeated reads with the bytes asked for', async () => {
    const prefetch = createPrefetchSource(recorded(bytes).source, 1_024);
    const cases: [number, number][] = [
      [0, 4_096],
      [4_000, 4_096],
      [100, 10],
      [9_000, 3_000],
      [8_500, 4_000],
      [bytes.length - 1_500, 1_500],
      [2, 2],
    ];
    for (const [o, l] of cases) expect(await prefetch.read(o, l)).toEqual(bytes.subarray(o, o + l));
  });

  it('reads again what a failed read ahead did not bring, and reports its error then', async () => {
    let failing = true;
    const inner = createMemorySource('f.jsonl', bytes);
    const flaky: ByteSource = {
      ...inner,
      read: (o, l) => (o > 0 && failing ? Promise.reject(new Error('gone')) : inner.read(o, l)),
    };
    const prefetch = createPrefetchSource(flaky, 1_024);
    await prefetch.read(0, 2_048); // starts a read ahead that fails
    await expect(prefetch.read(2_048, 2_048)).rejects.toThrow('gone');
    failing = false;
    expect(await prefetch.read(2_048, 2_048)).toEqual(bytes.subarray(2_048, 4_096));
  });
});
