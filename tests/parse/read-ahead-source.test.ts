import { describe, expect, it } from 'vitest';
import { createMemorySource, createReadAheadSource } from '../../src/engine/parse/source';

// A source whose reads are counted: what the read-ahead saves is underlying reads.
function counted(bytes: Uint8Array) {
  const inner = createMemorySource('f', bytes);
  const reads: [number, number][] = [];
  return {
    reads,
    source: {
      ...inner,
      read: (o: number, l: number) => {
        reads.push([o, l]);
        return inner.read(o, l);
      },
    },
  };
}

describe('createReadAheadSource', () => {
  const bytes = Uint8Array.from({ length: 300_000 }, (_, i) => (i * 7919) % 251);
  // Records of 100–2,000 bytes, back to back, some skipped (as a span's non-message entries are).
  const records: [number, number][] = [];
  for (let at = 0, k = 0; at < bytes.length; k++) {
    const length = Math.min(100 + ((k * 389) % 1900), bytes.length - at);
    records.push([at, length]);
    at += length;
  }

  it('serves reads that run forward from windows: the same bytes, a few reads', async () => {
    const { reads, source } = counted(bytes);
    const ahead = createReadAheadSource(source, 64 * 1024);
    let read = 0;
    for (const [k, [offset, length]] of records.entries()) {
      if (k % 5 === 3) continue;
      expect(await ahead.read(offset, length)).toEqual(bytes.subarray(offset, offset + length));
      read++;
    }
    expect(read).toBeGreaterThan(200);
    expect(reads.length).toBeLessThanOrEqual(Math.ceil(bytes.length / (64 * 1024)) + 2);
  });

  it('passes other reads through as they are (no window for a jump back or far ahead)', async () => {
    const { reads, source } = counted(bytes);
    const ahead = createReadAheadSource(source, 64 * 1024);
    for (const [offset, length] of [
      [200_000, 50],
      [10, 20],
      [290_000, 100],
      [5_000, 4_000],
    ] as const) {
      expect(await ahead.read(offset, length)).toEqual(bytes.subarray(offset, offset + length));
    }
    expect(reads).toEqual([
      [200_000, 50],
      [10, 20],
      [290_000, 100],
      [5_000, 4_000],
    ]);
  });

  it('reads the last window up to the end of the file only', async () => {
    const { reads, source } = counted(bytes);
    const ahead = createReadAheadSource(source, 64 * 1024);
    await ahead.read(bytes.length - 1_000, 10);
    expect(await ahead.read(bytes.length - 990, 990)).toEqual(bytes.subarray(bytes.length - 990));
    expect(reads.at(-1)).toEqual([bytes.length - 990, 990]);
  });
});
