// The main-thread fallback: the same host and handlers as the worker, called in process. Each
// message is delivered on a later task (setTimeout 0), so the page paints between requests and
// the handlers' own awaits (chunked reads, sweeps) yield as they do in the worker.

import { createEngineHost, type EngineHandlers } from './engine-host';
import type { WorkerPort, WorkerPortListener } from './engine-client';

/** A port whose "worker" is a host running `handlers` on this thread. */
export function createInProcessPort(handlers: EngineHandlers, listener: WorkerPortListener): WorkerPort {
  let stopped = false;
  const host = createEngineHost(handlers, (message) => {
    if (!stopped) setTimeout(() => !stopped && listener.onMessage(message), 0);
  });
  return {
    postMessage(message) {
      if (!stopped) setTimeout(() => !stopped && host.receive(message), 0);
    },
    terminate() {
      // Work already running cannot be stopped on this thread; its answers are dropped.
      stopped = true;
    },
  };
}
