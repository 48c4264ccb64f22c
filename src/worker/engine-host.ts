// The engine's side of the protocol, wherever it runs: the worker (engine.worker.ts) or, when no
// worker can start, the page itself (in-process-port.ts). It holds the loaded session, turns each
// request into its handler's call, forwards progress and aborts a request on `cancel`.

import type { LoadedSession } from './session-handlers';
import {
  ABORT_ERROR,
  type AnyProgress,
  type EngineRequest,
  type EngineRequestKind,
  type EngineResults,
  type FromWorker,
  type ProgressOf,
  STALE_SESSION_ERROR,
  type ToWorker,
  type WorkerError,
} from './protocol';

/** What a handler answers: the result and the buffers to move with it. */
interface Reply<K extends EngineRequestKind> {
  result: EngineResults[K];
  transfer?: Transferable[];
}

/** The one loaded session, shared by the handlers of one host. */
export interface HostState {
  loaded?: LoadedSession;
}

interface HandlerContext<K extends EngineRequestKind> {
  state: HostState;
  signal: AbortSignal;
  /** Stop and answer with what is done (`cancel` with `keep`); a handler that cannot, ignores it. */
  stop?: AbortSignal;
  onProgress: (progress: ProgressOf<K>) => void;
}

/** One handler per request kind. */
export type EngineHandlers = {
  [K in EngineRequestKind]: (request: EngineRequest<K>, context: HandlerContext<K>) => Promise<Reply<K>>;
};

/** The session a request names, or `StaleSessionError` when another one is loaded. */
export function getLoaded(state: HostState, sessionId: number): LoadedSession {
  const loaded = state.loaded;
  if (!loaded || loaded.sessionId !== sessionId) {
    const error = new Error(`Session ${sessionId} is not loaded (current: ${loaded?.sessionId ?? 'none'})`);
    error.name = STALE_SESSION_ERROR;
    throw error;
  }
  return loaded;
}

function dispatch<K extends EngineRequestKind>(
  handlers: EngineHandlers,
  request: EngineRequest<K>,
  context: HandlerContext<K>,
): Promise<Reply<K>> {
  const handler: EngineHandlers[K] = handlers[request.kind];
  return handler(request, context);
}

function toWorkerError(error: unknown, signal: AbortSignal): WorkerError {
  if (signal.aborted) return { name: ABORT_ERROR, message: 'Cancelled' };
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}

interface EngineHost {
  receive(message: ToWorker): void;
}

/** A host that answers through `post` (postMessage, or a direct call in process). */
export function createEngineHost(
  handlers: EngineHandlers,
  post: (message: FromWorker, transfer: Transferable[]) => void,
): EngineHost {
  const state: HostState = {};
  const controllers = new Map<number, AbortController>();
  const stops = new Map<number, AbortController>();
  return {
    receive(message) {
      if (message.type === 'ping') {
        post({ type: 'pong' }, []);
        return;
      }
      if (message.type === 'cancel') {
        (message.keep ? stops : controllers).get(message.id)?.abort();
        return;
      }
      const { id, request } = message;
      const controller = new AbortController();
      const stop = new AbortController();
      controllers.set(id, controller);
      stops.set(id, stop);
      const onProgress = (progress: AnyProgress) => post({ type: 'progress', id, progress }, []);
      Promise.resolve()
        .then(() => {
          traceMark(`compactlab:request:${request.kind}`);
          return dispatch(handlers, request, {
            state,
            signal: controller.signal,
            stop: stop.signal,
            onProgress,
          });
        })
        .then((reply) => {
          traceMark(`compactlab:answered:${request.kind}`);
          return reply;
        })
        .then(
          ({ result, transfer }) => post({ type: 'result', id, result }, transfer ?? []),
          (error: unknown) => post({ type: 'error', id, error: toWorkerError(error, controller.signal) }, []),
        )
        .finally(() => {
          controllers.delete(id);
          stops.delete(id);
        });
    },
  };
}

/**
 * A user-timing mark a Chrome trace records (bench/browser-load.ts reads them), removed from the
 * performance buffer at once: one per request would otherwise pile up for as long as the page lives.
 */
function traceMark(name: string): void {
  performance.mark(name);
  performance.clearMarks(name);
}
