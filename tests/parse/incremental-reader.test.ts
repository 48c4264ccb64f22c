import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type GrowingSource,
  HEAD_BYTES,
  INITIAL_READER_STATE,
  type IncrementalReaderState,
  READ_CHUNK_BYTES,
  readAppendedLines,
} from '../../src/engine/parse/incremental-reader';

/** A file in memory that a test appends to, truncates or replaces between reads. */
function createMemoryFile(initial = '') {
  let bytes = new TextEncoder().encode(initial);
  const source: GrowingSource = {
    getSizeBytes: async () => bytes.byteLength,
    read: async (offset, length) => bytes.slice(offset, offset + length),
  };
  return {
    source,
    append(more: string | Uint8Array) {
      const add = typeof more === 'string' ? new TextEncoder().encode(more) : more;
      const next = new Uint8Array(bytes.byteLength + add.byteLength);
      next.set(bytes);
      next.set(add, bytes.byteLength);
      bytes = next;
    },
    replace(text: string) {
      bytes = new TextEncoder().encode(text);
    },
  };
}

/** A reader over a file that remembers every line handed out and every restart. */
function createReader(source: GrowingSource) {
  let state: IncrementalReaderState = INITIAL_READER_STATE;
  const lines: [number, string][] = [];
  let restarts = 0;
  return {
    lines,
    get restarts() {
      return restarts;
    },
    async read() {
      const result = await readAppendedLines(
        source,
        state,
        (text, line) => lines.push([line, text]),
        () => {
          restarts++;
          lines.length = 0;
        },
      );
      state = result.state;
      return result;
    },
  };
}

const record = (n: number) => JSON.stringify({ type: 'user', n, text: `line ${n} ${'x'.repeat(n % 7)}` });

describe('readAppendedLines', () => {
  it('holds a line cut by an append until its newline arrives, then hands it out once', async () => {
    const file = createMemoryFile(`${record(1)}\n${record(2).slice(0, 10)}`);
    const reader = createReader(file.source);
    const first = await reader.read();
    expect(reader.lines).toEqual([[1, record(1)]]);
    expect(first.pendingBytes).toBe(10);
    file.append(record(2).slice(10, 20));
    await reader.read();
    expect(reader.lines).toHaveLength(1);
    file.append(`${record(2).slice(20)}\n${record(3)}\n`);
    const third = await reader.read();
    expect(reader.lines).toEqual([
      [1, record(1)],
      [2, record(2)],
      [3, record(3)],
    ]);
    expect(third.pendingBytes).toBe(0);
    expect(third.state.offsetBytes).toBe(
      new TextEncoder().encode(`${record(1)}\n${record(2)}\n${record(3)}\n`).byteLength,
    );
    // Nothing new: nothing handed out again.
    await reader.read();
    expect(reader.lines).toHaveLength(3);
  });

  it('keeps a multi-byte character whole when an append cuts it between its bytes', async () => {
    const line = JSON.stringify({ text: 'café — 日本語 🙂' });
    const bytes = new TextEncoder().encode(`${line}\n`);
    const cut = bytes.indexOf(0xf0) + 2; // inside the 4-byte emoji
    const file = createMemoryFile();
    file.append(bytes.slice(0, cut));
    const reader = createReader(file.source);
    await reader.read();
    expect(reader.lines).toEqual([]);
    file.append(bytes.slice(cut));
    await reader.read();
    expect(reader.lines).toEqual([[1, line]]);
  });

  it('strips the CR of CRLF line endings', async () => {
    const file = createMemoryFile(`${record(1)}\r\n${record(2)}\r\n`);
    const reader = createReader(file.source);
    await reader.read();
    expect(reader.lines.map(([, t]) => t)).toEqual([record(1), record(2)]);
  });

  it('starts again from the top when the file is truncated under the reader', async () => {
    const file = createMemoryFile(`${record(1)}\n${record(2)}\n${record(3)}\n`);
    const reader = createReader(file.source);
    await reader.read();
    file.replace(`${record(1)}\n`);
    const result = await reader.read();
    expect(result.restarted).toBe(true);
    // Said as such by `watch` ("the file shrank"), as the page's live bar says it.
    expect(result.restartReason).toBe('shrank');
    expect(reader.restarts).toBe(1);
    expect(reader.lines).toEqual([[1, record(1)]]);
  });

  it('starts again when the file is replaced by another at least as long (first bytes differ)', async () => {
    const file = createMemoryFile(`${record(1)}\n${record(2)}\n`);
    const reader = createReader(file.source);
    await reader.read();
    const other = `${JSON.stringify({ type: 'summary', other: true })}\n${record(5)}\n${record(6)}\n`;
    file.replace(other);
    const result = await reader.read();
    expect(result.restarted).toBe(true);
    expect(result.restartReason).toBe('replaced');
    expect(reader.lines.map(([, t]) => t)).toEqual(other.trimEnd().split('\n'));
  });

  it('notices a replacement that only differs after the first bytes it had seen, once the file was short', async () => {
    // The first read saw fewer than HEAD_BYTES bytes: the hash covers only those.
    const short = `${record(1)}\n`;
    expect(short.length).toBeLessThan(HEAD_BYTES);
    const file = createMemoryFile(short);
    const reader = createReader(file.source);
    await reader.read();
    file.replace(`${'{"type":"other"}'.padEnd(short.length - 1, ' ')}\n${record(2)}\n`);
    const result = await reader.read();
    expect(result.restarted).toBe(true);
    expect(reader.lines).toHaveLength(2);
  });

  it('does not restart on a plain append after the first bytes grew past the hashed head', async () => {
    const file = createMemoryFile(`${record(1)}\n`);
    const reader = createReader(file.source);
    await reader.read();
    for (let n = 2; n < 40; n++) {
      file.append(`${record(n)}\n`);
      expect((await reader.read()).restarted).toBe(false);
    }
    expect(reader.lines.map(([n]) => n)).toEqual(Array.from({ length: 39 }, (_, i) => i + 1));
  });

  it('reads a line longer than one read chunk', async () => {
    const long = JSON.stringify({ text: 'y'.repeat(READ_CHUNK_BYTES + 1000) });
    const file = createMemoryFile(`${record(1)}\n${long}\n${record(3)}\n`);
    const reader = createReader(file.source);
    await reader.read();
    expect(reader.lines.map(([, t]) => t.length)).toEqual([record(1).length, long.length, record(3).length]);
  });

  it('hands out the same lines however the appends cut the file (property)', async () => {
    const text = `${Array.from({ length: 30 }, (_, i) => record(i + 1)).join('\n')}\nlast line without end`;
    const bytes = new TextEncoder().encode(text);
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: bytes.byteLength - 1 }), { maxLength: 12 }),
        async (cuts) => {
          const file = createMemoryFile();
          const reader = createReader(file.source);
          let at = 0;
          for (const cut of [...cuts].sort((a, b) => a - b)) {
            file.append(bytes.slice(at, cut));
            at = cut;
            await reader.read();
          }
          file.append(bytes.slice(at));
          const last = await reader.read();
          expect(reader.restarts).toBe(0);
          expect(reader.lines.map(([, t]) => t)).toEqual(text.split('\n').slice(0, 30));
          expect(last.pendingBytes).toBe(new TextEncoder().encode('last line without end').byteLength);
        },
      ),
      { numRuns: 60 },
    );
  });
});
