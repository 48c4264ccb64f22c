// The page's proxy for the engine: one promise per request, progress callbacks, cancel. It starts
// the engine worker (or, when no worker can start, runs the same handlers in process), and
// restarts it when a cancelled load does not stop, when it fails, and when it goes silent (killed,
// out of memory, stuck in a loop: no error event then): the previous session is loaded again in
// the fresh worker, so it stays usable, and the requests it held fail saying what happened.

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
import { createSilenceWatch } from './liveness';

/** A cancelled load that has not stopped after this long ends the worker (a hung parse). */
const CANCEL_GRACE_MS = 300;

/**
 * Liveness: while a request is out, the client pings the worker this often; the host answers at
 * once when its thread is free (engine-host.ts), and any message (a progress, a result) counts.
 * ours (a ping is a few bytes; 2 s keeps an idle page's cost nil and a death seen within seconds).
 */
export const PING_INTERVAL_MS = 2_000;
/**
 * A ping unanswered this long means the worker is dead. Ours: the engine yields between 4 MiB
 * chunks of a parse and between a sweep's or a comparison's replays; the longest stretch without
 * a turn of its event loop measured over a load, the timeline and a replay of a 105 MB generated
 * session was 1.1 s (Node, the project's 2-core machine under a load of 2.5), far under this.
 */
export const SILENCE_DEADLINE_MS = 20_000;

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
  /** The last session given again to a fresh worker (not a caller's request). */
  reload?: boolean;
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
  pingIntervalMs?: number;
  silenceDeadlineMs?: number;
  /** Told when a worker that ran failed or went silent and a fresh one was started. */
  onRestart?: (message: string) => void;
  /**
   * Start the worker now, not at the first request: for a worker that speaks first (the custom
   * strategy's sandbox says whether its code loaded before it is asked anything).
   */
  eager?: boolean;
}

export function createEngineClient(options: EngineClientOptions): EngineClient {
  const graceMs = options.cancelGraceMs ?? CANCEL_GRACE_MS;
  const pingMs = options.pingIntervalMs ?? PING_INTERVAL_MS;
  const deadlineMs = options.silenceDeadlineMs ?? SILENCE_DEADLINE_MS;
  const pending = new Map<number, Pending>();
  let nextId = 1;
  /** The last load the worker finished: what a fresh worker is given again. */
  let lastLoad: { sessionId: SessionId; files: LoadFile[]; live?: boolean } | undefined;
  /** Requests wait for this before they are sent (a restarted worker reloading the session). */
  let ready: Promise<void> = Promise.resolve();
  let answered = false;
  let usingFallback = false;
  /**
   * No engine runs: none was asked for yet (it starts with the first request, so a client that is
   * only created loads nothing), or the last failed to start (its code could not load).
   */
  let down = true;
  let port: WorkerPort = IDLE_PORT;
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
    if (usingFallback && options.fallback) return startPort(options.fallback);
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
    watch();
  };

  /**
   * Measured from an unanswered ping, not from the last message, over the page's own running time
   * (liveness.ts): a page in a background tab whose timers are throttled sends its pings late, and
   * a page whose thread was blocked checks late; neither is the worker's silence.
   */
  const silence = createSilenceWatch(pingMs, deadlineMs);
  let watchTimer: ReturnType<typeof setInterval> | undefined;
  const checkLiveness = () => {
    if (![...pending.values()].some((entry) => entry.sent)) {
      clearInterval(watchTimer);
      watchTimer = undefined;
      silence.reset();
      return;
    }
    const verdict = silence.check();
    if (verdict === 'ping') port.postMessage({ type: 'ping' });
    else if (verdict === 'dead') {
      replaceDeadWorker(
        `The engine stopped answering (no sign of life for ${Math.round(deadlineMs / 1000)} s: it was killed, ran out of memory or is stuck)`,
      );
    }
  };
  function watch(): void {
    watchTimer ??= setInterval(checkLiveness, pingMs);
  }

  const settle = (id: number, entry: Pending) => {
    pending.delete(id);
    if (entry.graceTimer !== undefined) clearTimeout(entry.graceTimer);
  };

  function onMessage(message: FromWorker): void {
    answered = true;
    silence.heard();
    if (message.type === 'pong') return;
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
    if (!answered) failStart(message || 'The engine could not start');
    else replaceDeadWorker(message || 'The engine worker failed');
  }

  /**
   * An engine that failed before it answered anything (its code could not load: the app was
   * updated under the page, the network went, a test's environment was torn down) is not started
   * again at once, or a start that fails at once would loop forever: what waited fails saying so,
   * and the next request starts it again (`request` below).
   */
  function failStart(cause: string): void {
    const error = createError(WORKER_ERROR, `${cause}. It will be started again at the next request.`);
    for (const [id, entry] of pending) {
      settle(id, entry);
      entry.reject(entry.cancelled ? createError(ABORT_ERROR, 'Cancelled') : error);
    }
    silence.reset();
    port.terminate();
    port = IDLE_PORT;
    generation++;
    down = true;
  }

  /**
   * A worker that failed or went silent after it ran answers nothing more: what it held fails
   * saying so, and a fresh one takes the next requests, the last session loaded into it first, so
   * a later drop or sweep is not sent into the void. A worker that died reloading that session
   * (the session itself kills it: out of memory) is not given it again, or it would die forever.
   */
  function replaceDeadWorker(cause: string): void {
    const diedReloading = [...pending.values()].some((entry) => entry.reload);
    if (diedReloading) lastLoad = undefined;
    const message = `${cause}. The engine was started again${
      lastLoad
        ? ' with the session reloaded'
        : diedReloading
          ? '; the session could not be reloaded: open it again'
          : ''
    }; run what was running again.`;
    const error = createError(WORKER_ERROR, message);
    for (const [id, entry] of pending) {
      settle(id, entry);
      entry.reject(entry.cancelled ? createError(ABORT_ERROR, 'Cancelled') : error);
    }
    silence.reset();
    restart();
    options.onRestart?.(message);
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
        reload: true,
        request: { kind: 'load', sessionId: reload.sessionId, files: reload.files, live: reload.live },
        resolve: () => resolve(),
        reject: () => resolve(),
      };
      const id = nextId++;
      pending.set(id, entry);
      send(id, entry);
    });
  }

  if (options.eager) {
    down = false;
    port = openPort();
  }

  return {
    request<R extends EngineRequest>(
      request: R,
      { signal, stop, onProgress }: RequestOptions<R['kind']> = {},
    ): Promise<EngineResults[R['kind']]> {
      if (signal?.aborted) return Promise.reject(createError(ABORT_ERROR, 'Cancelled'));
      if (down) {
        down = false;
        port = openPort();
        ready = reloadLastSession();
      }
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
      clearInterval(watchTimer);
      for (const [id, entry] of pending) {
        settle(id, entry);
        entry.reject(createError(ABORT_ERROR, 'Engine stopped'));
      }
    },
  };
}

/** The port while no engine runs: nothing is sent before a request starts one. */
const IDLE_PORT: WorkerPort = { postMessage: () => {}, terminate: () => {} };

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
const restartListeners = new Set<(message: string) => void>();

/** Hears each restart of the app's engine after a failure or a silence (the page says so). */
export function subscribeEngineRestarts(listener: (message: string) => void): () => void {
  restartListeners.add(listener);
  return () => restartListeners.delete(listener);
}

function createSharedClient(eager: boolean): EngineClient {
  return createEngineClient({
    start: typeof Worker === 'undefined' ? startInProcess : startWorker,
    fallback: startInProcess,
    onRestart: (message) => {
      for (const listener of restartListeners) listener(message);
    },
    eager,
  });
}

/** The app's one engine, started at its first request: a worker, or this thread when none can. */
export function getEngineClient(): EngineClient {
  shared ??= createSharedClient(false);
  return shared;
}

/** Starts the app's engine before anything is asked of it (the page, once idle: issue 20). */
export function warmEngineClient(): void {
  shared ??= createSharedClient(true);
}
