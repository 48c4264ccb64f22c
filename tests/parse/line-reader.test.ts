import { describe, expect, it } from 'vitest';
import { scanLines } from '../../src/engine/parse/line-reader';
import { createMemorySource } from '../../src/engine/parse/source';

type Line = { text: string; line: number; offset: number; length: number; terminated: boolean };

async function collect(content: string, chunkBytes: number): Promise<Line[]> {
  const lines: Line[] = [];
  await scanLines(
    createMemorySource('t.jsonl', content),
    (text, line, offset, length, terminated) => {
      lines.push({ text, line, offset, length, terminated });
      return undefined;
    },
    { chunkBytes },
  );
  return lines;
}

describe('scanLines', () => {
  const content = '{"a":"héllo"}\n{"b":"日本語 🎉"}\r\n\n{"c":3}';

  // Every chunk size from 1 byte up: boundary bugs show up as different lines or offsets.
  it('yields the same lines and byte offsets at every chunk size', async () => {
    const expected = await collect(content, 1 << 20);
    expect(expected.map((l) => l.text)).toEqual(['{"a":"héllo"}', '{"b":"日本語 🎉"}', '', '{"c":3}']);
    expect(expected.at(-1)?.terminated).toBe(false);
    for (let chunk = 1; chunk <= 40; chunk++) expect(await collect(content, chunk)).toEqual(expected);
  });

  it('gives offsets that slice the original bytes back to each line', async () => {
    const bytes = new TextEncoder().encode(content);
    for (const l of await collect(content, 3)) {
      const raw = new TextDecoder().decode(bytes.subarray(l.offset, l.offset + l.length)).replace(/\r$/, '');
      expect(raw).toBe(l.text);
    }
  });

  // The partial line at a chunk's end is read again with the next chunk, and a line longer than a
  // chunk doubles the read: the bytes read stay within a small multiple of the file's size.
  it('reads a file of long and short lines in bytes linear in its size, at every chunk size', async () => {
    const long = `{"t":"${'x'.repeat(50_000)}"}`;
    const text = `${long}\n{"a":1}\n${long}\n${'{"b":2}\n'.repeat(200)}${long}`;
    const inner = createMemorySource('t.jsonl', text);
    for (const chunkBytes of [1, 7, 1024, 65_536]) {
      let readBytes = 0;
      const lines: string[] = [];
      await scanLines(
        {
          ...inner,
          read: (offset, length) => {
            readBytes += length;
            return inner.read(offset, length);
          },
        },
        (line) => {
          lines.push(line);
          return undefined;
        },
        { chunkBytes },
      );
      expect(lines).toEqual(text.split('\n'));
      expect(readBytes).toBeLessThanOrEqual(4 * inner.sizeBytes + chunkBytes);
    }
  });

  // A whole file's parse starts on a small first read while the next chunk is read (the page's
  // worker waited for a whole first chunk): the reads, then chunks; the lines as with one size.
  it('reads a first chunk of its own size, then whole chunks, and gives the same lines', async () => {
    const text = Array.from({ length: 2000 }, (_, i) => JSON.stringify({ i, pad: 'y'.repeat(i % 97) })).join(
      '\n',
    );
    const inner = createMemorySource('t.jsonl', text);
    const reads: number[] = [];
    const lines: string[] = [];
    await scanLines(
      {
        ...inner,
        read: (offset, length) => {
          reads.push(length);
          return inner.read(offset, length);
        },
      },
      (line) => {
        lines.push(line);
        return undefined;
      },
      { chunkBytes: 16_384, firstChunkBytes: 1024 },
    );
    expect(lines).toEqual(text.split('\n'));
    expect(reads[0]).toBe(1024);
    expect(reads.slice(1, -1).every((n) => n === 16_384)).toBe(true);
    expect(reads.length).toBeGreaterThan(2);
  });

  it('stops when the sink returns false', async () => {
    let seen = 0;
    await scanLines(createMemorySource('t', 'a\nb\nc\n'), () => {
      seen++;
      return seen < 2;
    });
    expect(seen).toBe(2);
  });

  it('stops with the abort reason when cancelled', async () => {
    const controller = new AbortController();
    controller.abort(new Error('cancelled by user'));
    await expect(
      scanLines(createMemorySource('t', 'a\n'), () => undefined, { signal: controller.signal }),
    ).rejects.toThrow('cancelled by user');
  });
});
