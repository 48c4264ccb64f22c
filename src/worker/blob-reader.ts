// Large reads of a dropped File, made by a worker of their own (read.worker.ts) while the engine
// worker parses. Measured in Chromium 156 on the 105 MB bench file (bench/browser-load.ts with
// BENCH_PROFILE=1): the engine worker sat idle 245 ms of a 1,422 ms parse, about 9 ms at each
// 4 MiB chunk, although the next chunk's read was issued before the current one was parsed: a Blob
// read in a worker progresses only through tasks of that worker's event loop, so it waited for
// the parse to yield. Small reads (a row's line, a summary) stay direct: a round trip to another
// worker would only add to them.

/** Reads at least this long go through the reader worker (ours: the parse reads 4 MiB chunks). */
export const WORKER_READ_MIN_BYTES = 1024 * 1024;

export interface BlobReadRequest {
  id: number;
  blob: Blob;
  offsetBytes: number;
  lengthBytes: number;
}

export type BlobReadReply = { id: number; buffer: ArrayBuffer } | { id: number; error: string };

/** Reads `[offsetBytes, offsetBytes + lengthBytes)` of a blob. */
export type BlobRead = (blob: Blob, offsetBytes: number, lengthBytes: number) => Promise<Uint8Array>;

export const readBlobDirect: BlobRead = async (blob, offsetBytes, lengthBytes) =>
  new Uint8Array(await blob.slice(offsetBytes, offsetBytes + lengthBytes).arrayBuffer());

let shared: BlobRead | undefined;

/**
 * The reader of large reads: through the reader worker where one can start (in a worker, or a page
 * with Web Workers), else direct. A reader worker that fails sends what it had pending, and every
 * read after it, to the direct read.
 */
export function getBlobReader(): BlobRead {
  shared ??=
    (typeof Worker !== 'undefined' &&
      createWorkerReader(
        () =>
          new Worker(new URL('./read.worker.ts', import.meta.url), {
            type: 'module',
            name: 'compactlab-reader',
          }),
      )) ||
    readBlobDirect;
  return shared;
}

/** Reads through the worker `start` makes (undefined when it cannot start one). */
export function createWorkerReader(start: () => Worker): BlobRead | undefined {
  let worker: Worker | undefined;
  try {
    worker = start();
  } catch {
    return undefined;
  }
  let nextId = 0;
  let failed = false;
  const pending = new Map<
    number,
    { request: BlobReadRequest; resolve: (b: Uint8Array) => void; reject: (e: Error) => void }
  >();
  const fallBack = () => {
    failed = true;
    worker?.terminate();
    worker = undefined;
    for (const { request, resolve, reject } of pending.values())
      readBlobDirect(request.blob, request.offsetBytes, request.lengthBytes).then(resolve, reject);
    pending.clear();
  };
  worker.onerror = fallBack;
  worker.onmessageerror = fallBack;
  worker.onmessage = (event: MessageEvent<BlobReadReply>) => {
    const reply = event.data;
    const waiting = pending.get(reply.id);
    if (!waiting) return;
    pending.delete(reply.id);
    if ('buffer' in reply) waiting.resolve(new Uint8Array(reply.buffer));
    else waiting.reject(new Error(reply.error));
  };
  return (blob, offsetBytes, lengthBytes) => {
    if (failed || !worker) return readBlobDirect(blob, offsetBytes, lengthBytes);
    const request: BlobReadRequest = { id: nextId++, blob, offsetBytes, lengthBytes };
    return new Promise<Uint8Array>((resolve, reject) => {
      pending.set(request.id, { request, resolve, reject });
      worker!.postMessage(request);
    });
  };
}
