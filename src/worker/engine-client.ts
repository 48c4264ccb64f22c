// Main-thread proxy for the engine worker: one promise per request, progress callbacks, cancel.

import {
  ABORT_ERROR,
  type EngineRequest,
  type EngineRequestKind,
  type EngineResults,
  type FromWorker,
  type ProgressOf,
  type ToWorker,
} from './protocol';

export interface RequestOptions<K extends EngineRequestKind = EngineRequestKind> {
  signal?: AbortSignal;
  onProgress?: (progress: ProgressOf<K>) => void;
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  onProgress?: (progress: never) => void;
}

function createError(name: string, message: string): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}

export interface EngineClient {
  request<K extends EngineRequestKind>(
    request: Extract<EngineRequest, { kind: K }>,
    options?: RequestOptions<K>,
  ): Promise<EngineResults[K]>;
  terminate(): void;
}

/** Wraps a worker (or anything with the same message interface, for tests). */
export function createEngineClient(worker: Worker): EngineClient {
  const pending = new Map<number, Pending>();
  let nextId = 1;

  worker.onmessage = (event: MessageEvent<FromWorker>) => {
    const message = event.data;
    const entry = pending.get(message.id);
    if (!entry) return; // cancelled already
    switch (message.type) {
      case 'progress':
        // The worker sends the progress type of the request's kind (protocol.ts `EngineProgress`).
        entry.onProgress?.(message.progress as never);
        return;
      case 'result':
        pending.delete(message.id);
        entry.resolve(message.result);
        return;
      case 'error':
        pending.delete(message.id);
        entry.reject(createError(message.error.name, message.error.message));
        return;
    }
  };
  worker.onerror = (event) => {
    const error = createError('WorkerError', event.message || 'The engine worker failed');
    for (const entry of pending.values()) entry.reject(error);
    pending.clear();
  };

  const send = (message: ToWorker) => worker.postMessage(message);

  return {
    request(request, options = {}) {
      const { signal, onProgress } = options;
      if (signal?.aborted) return Promise.reject(createError(ABORT_ERROR, 'Cancelled'));
      const id = nextId++;
      return new Promise((resolve, reject) => {
        const onAbort = () => {
          if (!pending.delete(id)) return;
          send({ type: 'cancel', id });
          reject(createError(ABORT_ERROR, 'Cancelled'));
        };
        pending.set(id, {
          resolve: (value) => {
            signal?.removeEventListener('abort', onAbort);
            resolve(value as never);
          },
          reject: (error) => {
            signal?.removeEventListener('abort', onAbort);
            reject(error);
          },
          onProgress,
        });
        signal?.addEventListener('abort', onAbort, { once: true });
        send({ type: 'request', id, request });
      });
    },
    terminate() {
      worker.terminate();
      for (const entry of pending.values()) entry.reject(createError(ABORT_ERROR, 'Engine stopped'));
      pending.clear();
    },
  };
}

let shared: EngineClient | undefined;

/** The app's one engine worker, started on first use. */
export function getEngineClient(): EngineClient {
  shared ??= createEngineClient(
    new Worker(new URL('./engine.worker.ts', import.meta.url), { type: 'module', name: 'engine' }),
  );
  return shared;
}
