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
