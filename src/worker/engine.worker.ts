/// <reference lib="webworker" />
// Thin: the engine host (engine-host.ts) on the worker's message port.

import { getBlobReader } from './blob-reader';
import { ENGINE_HANDLERS } from './engine-handlers';
import { createEngineHost } from './engine-host';
import type { ToWorker } from './protocol';

declare const self: DedicatedWorkerGlobalScope;

const host = createEngineHost(ENGINE_HANDLERS, (message, transfer) => self.postMessage(message, transfer));

self.onmessage = (event: MessageEvent<ToWorker>) => host.receive(event.data);

// The reader worker started now, while the page is idle (this worker starts then): started at a
// load's first read, its start (about 30 ms) was time the parse waited for its first chunk.
getBlobReader();
