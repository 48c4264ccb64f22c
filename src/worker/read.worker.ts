// The engine worker's reader: reads slices of a Blob and hands their bytes over (transferred, not
// copied). A Blob read in a worker is fed to it by tasks of that worker's own event loop, so a read
// issued ahead makes no progress while the worker parses the chunk before it; read here, it does.
// See blob-reader.ts.

import type { BlobReadReply, BlobReadRequest } from './blob-reader';

self.onmessage = async (event: MessageEvent<BlobReadRequest>) => {
  const { id, blob, offsetBytes, lengthBytes } = event.data;
  try {
    const buffer = await blob.slice(offsetBytes, offsetBytes + lengthBytes).arrayBuffer();
    self.postMessage({ id, buffer } satisfies BlobReadReply, { transfer: [buffer] });
  } catch (error) {
    self.postMessage({
      id,
      error: error instanceof Error ? error.message : String(error),
    } satisfies BlobReadReply);
  }
};
