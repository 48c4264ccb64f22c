import type { CompareEntry } from '../../engine/replay/compare-strategies';
import type { KnobSpec, KnobValue } from '../../engine/strategies/types';
import { createEngineClient, type EngineClient } from '../../worker/engine-client';
import type {
  EngineRequest,
  FromWorker,
  LoadFile,
  ReplayCompare,
  SandboxReady,
  SessionId,
} from '../../worker/protocol';
import sandboxRuntimeUrl from '../../worker/sandbox-runtime.ts?worker&url';
import { SQL_WASM_URL } from '../../worker/sql-wasm-url';

// Runs a compiled custom strategy in a worker of its own (docs/custom-strategies.md): a blob
// this module writes removes the network, storage and nested workers from the worker's global,
// defines the strategy's module as a function and imports the sandbox runtime
// (worker/sandbox-runtime.ts), which runs it and answers engine requests. The blob worker keeps
// the page's Content-Security-Policy (a blob: worker inherits its creator's): it may load scripts
// from the page's origin only, and connect nowhere else. The worker gets the session's files and
// nothing else: no page, no API key. The whole run (load, compare) has one time limit, past which
// the worker is terminated and the run said to be stopped. One request stays possible, kept before
// the network is removed: SQLite's .wasm from the page's origin, at that fixed address (an OpenCode
// database is read with sql.js, whose own loader needs fetch: a custom strategy on an opencode.db
// session failed with "XMLHttpRequest is not a constructor"); it can carry nothing out.

/** Ours: the time a run in the sandbox may take (the session's load in it included). */
const SANDBOX_TIME_LIMIT_MS = 20_000;
/**
 * Ours: how long a sandbox has, after the library's what-if is cancelled (its Cancel button), to
 * answer a ping. A strategy whose code holds the worker's thread (an endless or very slow step)
 * cannot hear the cancel, and the request's time limit ended with the request: past this the
 * worker is terminated. The what-if's loop hears it between two sessions, each replayed within a
 * second or so. Another request cancelled (a knob edit supersedes a replay) keeps its time limit.
 */
const WHATIF_CANCEL_GRACE_MS = 2_000;

/** Globals removed before the strategy's code runs (from the global and its prototypes). */
const REMOVED = [
  'fetch',
  'XMLHttpRequest',
  'WebSocket',
  'WebTransport',
  'EventSource',
  'importScripts',
  'indexedDB',
  'caches',
  'BroadcastChannel',
  'Worker',
  'SharedWorker',
];

export interface CompiledStrategy {
  /** CommonJS JavaScript (the TypeScript worker's emit). */
  code: string;
  /** Its source map's `mappings`, to name the source line of an error. */
  mappings?: string;
  fileName: string;
}

/** The blob's text; the compiled code starts on its third line. */
function getSandboxSource(compiled: CompiledStrategy): string {
  const runtime = new URL(sandboxRuntimeUrl, self.location.href).href;
  const wasm = new URL(SQL_WASM_URL, self.location.href).href;
  const keepWasm = `{ const f = self.fetch.bind(self); Object.defineProperty(self, '__compactlabSqlWasm', { value: () => f(${JSON.stringify(wasm)}).then((r) => r.arrayBuffer()) }); }`;
  const meta = JSON.stringify({ fileName: compiled.fileName, mappings: compiled.mappings, lineOffset: 2 });
  return [
    `${keepWasm} for (const k of ${JSON.stringify(REMOVED)}) { for (let o = self; o; o = Object.getPrototypeOf(o)) { try { delete o[k]; } catch {} } try { Object.defineProperty(self, k, { value: undefined, writable: false, configurable: false }); } catch {} }`,
    `self.__compactlabStrategy = { ...${meta}, factory: function (module, exports, require) {${compiled.code.replace(/\/\/# sourceMappingURL=.*$/m, '')}`,
    '} };',
    `await import(${JSON.stringify(runtime)});`,
  ].join('\n');
}

export interface SandboxRun {
  id: string;
  label: string;
  knobSpecs: KnobSpec[];
  defaultKnobs: Record<string, KnobValue>;
  compare: ReplayCompare;
  /**
   * The sandbox, still running with the session loaded, for the page's later requests that name
   * the strategy (custom-registry.ts); each request has the time limit, past which the worker is
   * stopped. The caller terminates it.
   */
  client: EngineClient;
}

/** Thrown when the run is stopped by the time limit, or the strategy cannot load. */
class SandboxError extends Error {
  override readonly name = 'SandboxError';
}

/**
 * The time a request may go without an answer. The library's what-if replays every listed session
 * in one request, each at every setting: its limit is per session (it restarts at each session's
 * progress), `timeLimitMs` for each setting; any other request has `timeLimitMs` in all.
 */
function getRequestLimit(request: EngineRequest, timeLimitMs: number): { ms: number; what: string } {
  if (request.kind !== 'library-whatif') return { ms: timeLimitMs, what: 'for a request' };
  const settings = request.range?.steps ?? request.spec.sweep?.values.length ?? 1;
  return { ms: timeLimitMs * Math.max(1, settings), what: 'for a session at its settings' };
}

/**
 * A client whose every request must answer within its limit (getRequestLimit): past it the worker
 * is terminated (an endless loop in the strategy), this request and later ones are refused, and
 * `onStopped` hears.
 */
function withTimeLimit(
  client: EngineClient,
  fileName: string,
  timeLimitMs: number,
  onStopped: (message: string) => void,
  isResponsive: (withinMs: number) => Promise<boolean>,
): EngineClient {
  let stopped: string | undefined;
  const stop = (message: string) => {
    if (stopped !== undefined) return;
    stopped = message;
    client.terminate();
    onStopped(message);
  };
  return {
    request: (request, options) => {
      if (stopped !== undefined) return Promise.reject(new SandboxError(stopped));
      // A cancelled request settles at once and takes its time limit with it: a worker still held
      // by the strategy's code then spun on unseen (a what-if's Cancel left a core busy for good).
      const { ms, what } = getRequestLimit(request, timeLimitMs);
      const graceMs = request.kind === 'library-whatif' ? WHATIF_CANCEL_GRACE_MS : ms;
      const onAbort = () => {
        void isResponsive(graceMs).then((alive) => {
          if (!alive)
            stop(
              `${fileName}: stopped: its code still held the sandbox ${graceMs / 1000} s after the request was cancelled (an endless loop?)`,
            );
        });
      };
      options?.signal?.addEventListener('abort', onAbort, { once: true });
      let timer: ReturnType<typeof setTimeout> | undefined;
      let fail: (error: SandboxError) => void = () => {};
      const arm = () => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          stop(
            `${fileName}: stopped: the strategy ran past its time limit (${ms / 1000} s ${what}; an endless loop?)`,
          );
          fail(new SandboxError(stopped!));
        }, ms);
      };
      const limit = new Promise<never>((_, reject) => {
        fail = reject;
        arm();
      });
      const onProgress = options?.onProgress;
      const answered = client.request(request, {
        ...options,
        // A what-if's progress is one session done: the next has its own limit.
        onProgress: (progress) => {
          if (request.kind === 'library-whatif') arm();
          onProgress?.(progress);
        },
      });
      return Promise.race([answered, limit]).finally(() => {
        clearTimeout(timer);
        options?.signal?.removeEventListener('abort', onAbort);
      });
    },
    terminate: () => client.terminate(),
  };
}

/**
 * Loads the session into a fresh sandbox (under the page's `sessionId`) and runs the strategy
 * beside `builtIns` (Compare). On success the worker stays for the page's later requests
 * (`SandboxRun.client`, `onStopped` when one passes the limit); on failure it is stopped.
 */
export async function runCustomStrategy(
  compiled: CompiledStrategy,
  files: LoadFile[],
  builtIns: CompareEntry[],
  overrides: Record<string, number | boolean>,
  signal?: AbortSignal,
  timeLimitMs = SANDBOX_TIME_LIMIT_MS,
  sessionId: SessionId = 1,
  onStopped: (message: string) => void = () => {},
): Promise<SandboxRun> {
  let onReady: (ready: SandboxReady) => void = () => {};
  const readyPromise = new Promise<SandboxReady>((resolve) => {
    onReady = resolve;
  });
  const url = URL.createObjectURL(new Blob([getSandboxSource(compiled)], { type: 'text/javascript' }));
  let sandbox: Worker | undefined;
  /** Messages heard from the sandbox: a ping answered moves it (engine-host.ts answers at once when free). */
  let heard = 0;
  const isResponsive = (withinMs: number): Promise<boolean> => {
    const before = heard;
    sandbox?.postMessage({ type: 'ping' });
    return new Promise((resolve) => setTimeout(() => resolve(heard > before), withinMs));
  };
  const client: EngineClient = createEngineClient({
    eager: true,
    start: (listener) => {
      const worker = new Worker(url, { type: 'module', name: 'custom-strategy' });
      sandbox = worker;
      worker.onmessage = (event: MessageEvent<FromWorker | SandboxReady>) => {
        heard++;
        if (event.data.type === 'sandbox-ready') onReady(event.data);
        else listener.onMessage(event.data);
      };
      worker.onerror = (event) => {
        event.preventDefault();
        onReady({
          type: 'sandbox-ready',
          error: `${compiled.fileName}: ${event.message || 'the worker could not start'}`,
        });
        listener.onError(event.message);
      };
      return worker;
    },
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stopped = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new SandboxError(
            `${compiled.fileName}: stopped: the strategy ran past its time limit (${timeLimitMs / 1000} s for the run; an endless loop?)`,
          ),
        ),
      timeLimitMs,
    );
    signal?.addEventListener(
      'abort',
      () => reject(new SandboxError(`${compiled.fileName}: cancelled: its sandbox was stopped.`)),
      { once: true },
    );
  });
  try {
    const run = async (): Promise<SandboxRun> => {
      const ready = await readyPromise;
      if (ready.error !== undefined) throw new SandboxError(ready.error);
      await client.request({ kind: 'load', sessionId, files });
      const compare = await client.request({
        kind: 'replay-compare',
        sessionId,
        entries: [...builtIns, { strategyId: ready.id, overrides }],
        summaryModel: 'recorded',
      });
      return {
        id: ready.id,
        label: ready.label,
        knobSpecs: ready.knobSpecs,
        defaultKnobs: ready.defaultKnobs,
        compare,
        client: withTimeLimit(client, compiled.fileName, timeLimitMs, onStopped, isResponsive),
      };
    };
    return await Promise.race([run(), stopped]);
  } catch (error) {
    client.terminate();
    throw error;
  } finally {
    clearTimeout(timer);
    URL.revokeObjectURL(url);
  }
}
