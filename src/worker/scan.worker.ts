/// <reference lib="webworker" />
import { scanSession } from '../engine/library/scan-session';
import { createBlobSource } from './blob-source';
import type { ScanReply, ScanRequest } from './scan-protocol';
import { expandDatabases } from './sqlite';

// One scan worker: scans the session it is given and posts its list row.

const scope = self as unknown as DedicatedWorkerGlobalScope;
const post = (reply: ScanReply) => scope.postMessage(reply);

scope.onmessage = async (event: MessageEvent<ScanRequest>) => {
  if (event.data.kind === 'ping') {
    scope.postMessage({ kind: 'pong' } satisfies ScanReply);
    return;
  }
  const { jobId, files, prices } = event.data;
  try {
    const row = await scanSession(await expandDatabases(files.map((f) => createBlobSource(f.name, f.blob))), {
      prices,
      onProgress: (bytesRead) => post({ kind: 'progress', jobId, bytesRead }),
    });
    post({ kind: 'row', jobId, row });
  } catch (error) {
    post({ kind: 'failed', jobId, message: error instanceof Error ? error.message : String(error) });
  }
};
