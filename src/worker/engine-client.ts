// The page's proxy for the engine: one promise per request, progress callbacks, cancel. It starts
// the engine worker (or, when no worker can start, runs the same handlers in process), and
// restarts it when a cancelled load does not stop: the previous session is loaded again in the
// fresh worker, so it stays usable.

import {
  ABORT_ERROR,
  type AnyProgress,
  type AnyResult,
  type EngineRequest,
  type EngineRequestKind,
  type EngineResults,
  type FromWorker,
  type LoadFile,
  type ProgressOf,
  type SessionId,
  type ToWorker,
  WORKER_ERROR,
} from './protocol';

/** A cancelled load that has not stopped after this long ends the worker (a hung parse). */
const CANCEL_GRACE_MS = 300;

interface RequestOptions<K extends EngineRequestKind = EngineRequestKind> {
  signal?: AbortSignal;
  /**
   * Asks the engine to stop and answer with what it has (a load keeps what was read): unlike
   * `signal`, the request still resolves, with its partial result.
   */
  stop?: AbortSignal;
  onProgress?: (progress: ProgressOf<K>) => void;
}

/** What a port tells the client. */
export interface WorkerPortListener {
  onMessage(message: FromWorker): void;
  onError(message: string): void;
}

/** A worker, or anything with its message interface (the in-process fallback, a test's fake). */
export interface WorkerPort {
  postMessage(message: ToWorker, transfer?: Transferable[]): void;
  terminate(): void;
}

type StartPort = (listener: WorkerPortListener) => WorkerPort;

export interface EngineClient {
  request<R extends EngineRequest>(
    request: R,
    options?: RequestOptions<R['kind']>,
  ): Promise<EngineResults[R['kind']]>;
  terminate(): void;
}

/**
 * One request in flight. `resolve` and `onProgress` are methods: the worker answers a request id
 * with its own kind's result and progress (protocol.ts), which is what the typed callbacks stored
 * here expect.
 */
interface Pending {
  request: EngineRequest;
  resolve(result: AnyResult): void;
  reject(error: Error): void;
  onProgress?(progress: AnyProgress): void;
  /** Posted to the worker (requests wait while a restarted worker reloads the session). */
  sent?: boolean;
  /** Cancelled: the caller is told once the worker has stopped (or been replaced). */
  cancelled?: boolean;
  graceTimer?: ReturnType<typeof setTimeout>;
  /** Asked to stop and answer with what it has (`RequestOptions.stop`) before it was sent. */
  stopped?: boolean;
}

function createError(name: string, message: string): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}

/** Only a load (or a live append) waits for the worker to stop when cancelled; others are let go at once. */
function waitsForStop(request: EngineRequest): boolean {
  return request.kind === 'load' || request.kind === 'session-append';
}

interface EngineClientOptions {
  /** Starts the worker; called again after a restart. */
  start: StartPort;
  /** Used when `start` throws or the worker fails before its first answer. */
  fallback?: StartPort;
  cancelGraceMs?: number;
}

export function createEngineClient(options: EngineClientOptions): EngineClient {
  const graceMs = options.cancelGraceMs ?? CANCEL_GRACE_MS;
  const pending = new Map<number, Pending>();
  let nextId = 1;
  /** The last load the worker finished: what a fresh worker is given again. */
  let lastLoad: { sessionId: SessionId; files: LoadFile[]; live?: boolean } | undefined;
  /** Requests wait for this before they are sent (a restarted worker reloading the session). */
  let ready: Promise<void> = Promise.resolve();
  let answered = false;
  let usingFallback = false;
  let port: WorkerPort;
  /** Ports from earlier generations answer no more: their messages are dropped. */
  let generation = 0;

  const startPort = (start: StartPort): WorkerPort => {
    const mine = ++generation;
    answered = false;
    return start({
      onMessage: (message) => mine === generation && onMessage(message),
      onError: (message) => mine === generation && onWorkerError(message),
    });
  };

  const openPort = (): WorkerPort => {
    try {
      return startPort(options.start);
    } catch (error) {
      if (!options.fallback) throw error;
      usingFallback = true;
      return startPort(options.fallback);
    }
  };

  const send = (id: number, entry: Pending) => {
    entry.sent = true;
    port.postMessage({ type: 'request', id, request: entry.request });
    if (entry.stopped) port.postMessage({ type: 'cancel', id, keep: true });
  };

  const settle = (id: number, entry: Pending) => {
    pending.delete(id);
    if (entry.graceTimer !== undefined) clearTimeout(entry.graceTimer);
  };

  function onMessage(message: FromWorker): void {
    answered = true;
    const entry = pending.get(message.id);
    if (!entry) return; // let go already
    switch (message.type) {
      case 'progress':
        if (!entry.cancelled) entry.onProgress?.(message.progress);
        return;
      case 'result':
        settle(message.id, entry);
        if (entry.cancelled) {
          // A load that finished as it was cancelled replaced the session the page still shows.
          if (entry.request.kind === 'load' || entry.request.kind === 'session-append')
            ready = reloadLastSession();
          entry.reject(createError(ABORT_ERROR, 'Cancelled'));
          return;
        }
        if (entry.request.kind === 'load')
          lastLoad = {
            sessionId: entry.request.sessionId,
            files: entry.request.files,
            live: entry.request.live,
          };
        else if (entry.request.kind === 'session-append')
          lastLoad = {
            sessionId: entry.request.newSessionId,
            files: [entry.request.file, ...entry.request.others],
            live: true,
          };
        entry.resolve(message.result);
        return;
      case 'error':
        settle(message.id, entry);
        entry.reject(
          entry.cancelled
            ? createError(ABORT_ERROR, 'Cancelled')
            : createError(message.error.name, message.error.message),
        );
        return;
    }
  }

  function onWorkerError(message: string): void {
    if (!answered && !usingFallback && options.fallback) {
      // The worker never ran (a module worker that could not load): run in process instead.
      usingFallback = true;
      port.terminate();
      port = startPort(options.fallback);
      for (const [id, entry] of pending) send(id, entry);
      return;
    }
    const error = createError(
      WORKER_ERROR,
      `${message || 'The engine worker failed'} (the engine was started again${lastLoad ? ' with the session reloaded' : ''}; try again)`,
    );
    for (const [id, entry] of pending) {
      settle(id, entry);
      entry.reject(error);
    }
    // A worker that failed after it ran answers nothing more: a fresh one takes the next requests,
    // the last session loaded into it first, so a later drop or sweep is not sent into the void.
    restart();
  }

  /** Ends a worker that did not stop, starts a fresh one and gives it the last session again. */
  function restart(): void {
    port.terminate();
    for (const [id, entry] of pending) {
      if (!entry.cancelled) continue;
      settle(id, entry);
      entry.reject(createError(ABORT_ERROR, 'Cancelled'));
    }
    port = startPort(usingFallback && options.fallback ? options.fallback : options.start);
    const waiting = [...pending];
    ready = reloadLastSession().then(() => {
      for (const [id, entry] of waiting) if (pending.get(id) === entry) send(id, entry);
    });
  }

  /** Gives the worker the last loaded session again; settles when it has answered. */
  function reloadLastSession(): Promise<void> {
    const reload = lastLoad;
    if (!reload) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const entry: Pending = {
        request: { kind: 'load', sessionId: reload.sessionId, files: reload.files, live: reload.live },
        resolve: () => resolve(),
        reject: () => resolve(),
      };
      const id = nextId++;
      pending.set(id, entry);
      send(id, entry);
    });
  }

  port = openPort();

  return {
    request<R extends EngineRequest>(
      request: R,
      { signal, stop, onProgress }: RequestOptions<R['kind']> = {},
    ): Promise<EngineResults[R['kind']]> {
      if (signal?.aborted) return Promise.reject(createError(ABORT_ERROR, 'Cancelled'));
      const id = nextId++;
      return new Promise<EngineResults[R['kind']]>((resolve, reject) => {
        const entry: Pending = {
          request,
          resolve: (result: EngineResults[R['kind']]) => resolve(result),
          reject,
          onProgress,
        };
        const onAbort = () => {
          if (pending.get(id) !== entry) return;
          if (entry.sent) port.postMessage({ type: 'cancel', id });
          if (!entry.sent || !waitsForStop(request)) {
            settle(id, entry);
            reject(createError(ABORT_ERROR, 'Cancelled'));
            return;
          }
          entry.cancelled = true;
          entry.graceTimer = setTimeout(() => {
            if (pending.get(id) === entry) restart();
          }, graceMs);
        };
        entry.reject = (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        };
        entry.resolve = (result: EngineResults[R['kind']]) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(result);
        };
        pending.set(id, entry);
        signal?.addEventListener('abort', onAbort, { once: true });
        // Sent once the request is: a stop before that is sent right after it.
        const onStop = () => {
          if (pending.get(id) !== entry) return;
          if (entry.sent) port.postMessage({ type: 'cancel', id, keep: true });
          else entry.stopped = true;
        };
        if (stop?.aborted) entry.stopped = true;
        else stop?.addEventListener('abort', onStop, { once: true });
        const sentTo = generation;
        void ready.then(() => {
          // A restart in between re-sends what is still pending itself.
          if (pending.get(id) === entry && sentTo === generation) send(id, entry);
        });
      });
    },
    terminate() {
      port.terminate();
      generation++;
      for (const [id, entry] of pending) {
        settle(id, entry);
        entry.reject(createError(ABORT_ERROR, 'Engine stopped'));
      }
    },
  };
}

function startWorker(listener: WorkerPortListener): WorkerPort {
  const worker = new Worker(new URL('./engine.worker.ts', import.meta.url), {
    type: 'module',
    name: 'engine',
  });
  worker.onmessage = (event: MessageEvent<FromWorker>) => listener.onMessage(event.data);
  worker.onerror = (event) => listener.onError(event.message);
  return worker;
}

/** The in-process fallback; the handlers (the whole engine) are fetched only when it is used. */
function startInProcess(listener: WorkerPortListener): WorkerPort {
  let port: WorkerPort | undefined;
  let stopped = false;
  const queued: ToWorker[] = [];
  void Promise.all([import('./engine-handlers'), import('./in-process-port')]).then(
    ([{ ENGINE_HANDLERS }, { createInProcessPort }]) => {
      if (stopped) return;
      port = createInProcessPort(ENGINE_HANDLERS, listener);
      for (const message of queued.splice(0)) port.postMessage(message);
    },
    (error: unknown) => listener.onError(`The engine could not start: ${String(error)}`),
  );
  return {
    postMessage: (message) => (port ? port.postMessage(message) : queued.push(message)),
    terminate: () => {
      stopped = true;
      port?.terminate();
    },
  };
}

let shared: EngineClient | undefined;

/** The app's one engine, started on first use: a worker, or this thread when none can start. */
export function getEngineClient(): EngineClient {
  shared ??= createEngineClient({
    start: typeof Worker === 'undefined' ? startInProcess : startWorker,
    fallback: startInProcess,
  });
  return shared;
}
