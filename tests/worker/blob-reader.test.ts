import { describe, expect, it } from 'vitest';
import { type BlobReadReply, type BlobReadRequest, createWorkerReader } from '../../src/worker/blob-reader';
import { createBlobSource } from '../../src/worker/blob-source';

// The parse's large reads of a dropped File go through a reader worker (so they progress while the
// engine worker parses); small ones stay direct; a reader worker that fails leaves every read,
// those it had pending too, to the direct read. The worker here is a fake that answers as
// read.worker.ts does, in an order of its choosing.

const MiB = 1024 * 1024;
const bytes = new Uint8Array(3 * MiB).map((_, i) => (i * 7) % 251);
const blob = new Blob([bytes]);

class FakeWorker {
  onmessage: ((event: MessageEvent<BlobReadReply>) => void) | null = null;
  onerror: (() => void) | null = null;
  onmessageerror: (() => void) | null = null;
  requests: BlobReadRequest[] = [];
  terminated = false;
  postMessage(request: BlobReadRequest) {
    this.requests.push(request);
  }
  terminate() {
    this.terminated = true;
  }
  /** Answers the request at `index` of those not yet answered. */
  async answer(index: number, error?: string) {
    const [request] = this.requests.splice(index, 1);
    const { id, offsetBytes, lengthBytes } = request!;
    const reply: BlobReadReply = error
      ? { id, error }
      : { id, buffer: await blob.slice(offsetBytes, offsetBytes + lengthBytes).arrayBuffer() };
    this.onmessage?.({ data: reply } as MessageEvent<BlobReadReply>);
  }
}

/** Same bytes (a deep equality of megabytes takes vitest seconds). */
function expectBytes(got: Uint8Array, want: Uint8Array) {
  expect(got.byteLength).toBe(want.byteLength);
  expect(Buffer.from(got.buffer, got.byteOffset, got.byteLength).equals(want)).toBe(true);
}

function start() {
  const fake = new FakeWorker();
  const read = createWorkerReader(() => fake as unknown as Worker)!;
  return { fake, source: createBlobSource('big.jsonl', blob, read) };
}

describe('the reader worker', () => {
  it('makes the large reads, each answer to its own read whatever the order', async () => {
    const { fake, source } = start();
    const first = source.read(0, MiB);
    const second = source.read(MiB, 2 * MiB);
    expect(fake.requests.map((r) => [r.offsetBytes, r.lengthBytes])).toEqual([
      [0, MiB],
      [MiB, 2 * MiB],
    ]);
    await fake.answer(1);
    await fake.answer(0);
    expectBytes(await first, bytes.subarray(0, MiB));
    expectBytes(await second, bytes.subarray(MiB, 3 * MiB));
  });

  it('leaves small reads (a row, a summary) to the direct read', async () => {
    const { fake, source } = start();
    expectBytes(await source.read(100, 4096), bytes.subarray(100, 4196));
    expect(fake.requests).toHaveLength(0);
  });

  it('a read the worker could not make fails with its reason', async () => {
    const { fake, source } = start();
    const read = source.read(0, MiB);
    await fake.answer(0, 'NotReadableError: the file changed');
    await expect(read).rejects.toThrow('the file changed');
  });

  it('a failed worker hands its pending reads and every later one to the direct read', async () => {
    const { fake, source } = start();
    const pending = source.read(MiB, MiB);
    fake.onerror!();
    expect(fake.terminated).toBe(true);
    expectBytes(await pending, bytes.subarray(MiB, 2 * MiB));
    expectBytes(await source.read(0, 2 * MiB), bytes.subarray(0, 2 * MiB));
    expect(fake.requests).toHaveLength(1);
  });

  it('a worker that cannot start leaves no reader', () => {
    expect(
      createWorkerReader(() => {
        throw new Error('no workers here');
      }),
    ).toBeUndefined();
  });
});
