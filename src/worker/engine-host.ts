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
  /** Requests received and not started yet: started together, those the first draw needs first. */
  let waiting: Extract<ToWorker, { type: 'request' }>[] = [];
  const start = ({ id, request }: Extract<ToWorker, { type: 'request' }>) => {
    const controller = controllers.get(id)!;
    const onProgress = (progress: AnyProgress) => post({ type: 'progress', id, progress }, []);
    Promise.resolve()
      .then(() => dispatch(handlers, request, { state, signal: controller.signal, onProgress }))
      .then(
        ({ result, transfer }) => post({ type: 'result', id, result }, transfer ?? []),
        (error: unknown) => post({ type: 'error', id, error: toWorkerError(error, controller.signal) }, []),
      )
      .finally(() => controllers.delete(id));
  };
  const startWaiting = () => {
    const batch = orderBatch(waiting);
    waiting = [];
    for (const message of batch) start(message);
  };
  return {
    receive(message) {
      if (message.type === 'cancel') {
        controllers.get(message.id)?.abort();
        return;
      }
      controllers.set(message.id, new AbortController());
      // The page posts a freshly loaded session's requests in one go (the replay's setup before the
      // timeline, by React's order): they start on the next task, in `orderBatch`'s order.
      if (waiting.length === 0) setTimeout(startWaiting, 0);
      waiting.push(message);
    },
  };
}

/**
 * What the first draw of a session waits on, answered first: the timeline, then the transcript's
 * rows; every other request after them (the replay's setup took 270 ms of a 105 MB load before the
 * timeline's 20, issue 20). Stable, and a load or a live append stays where it was: requests
 * before it are for the session it replaces.
 */
const FIRST: Partial<Record<EngineRequestKind, number>> = { timeline: 0, 'row-index': 1, 'row-page': 1 };

function orderBatch<M extends { request: EngineRequest }>(batch: readonly M[]): M[] {
  const out: M[] = [];
  let run: M[] = [];
  const rank = (m: M) => FIRST[m.request.kind] ?? 2;
  const flush = () => {
    out.push(...run.sort((a, b) => rank(a) - rank(b)));
    run = [];
  };
  for (const m of batch) {
    if (m.request.kind === 'load' || m.request.kind === 'session-append') {
      flush();
      out.push(m);
    } else run.push(m);
  }
  flush();
  return out;
}
