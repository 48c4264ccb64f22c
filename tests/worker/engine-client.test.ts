import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ROW_FILTER } from '../../src/engine/query/row-filter';
import {
  createEngineClient,
  type EngineClient,
  type WorkerPort,
  type WorkerPortListener,
} from '../../src/worker/engine-client';
import { ENGINE_HANDLERS } from '../../src/worker/engine-handlers';
import type { EngineHandlers } from '../../src/worker/engine-host';
import { createInProcessPort } from '../../src/worker/in-process-port';
import type { LoadFile, ParseProgressMessage } from '../../src/worker/protocol';

// The client against a fake worker: the real host and handlers in process (the main-thread
// fallback's port), with a load that waits for its cancel and one that never stops.

const TINY = readFileSync(new URL('../fixtures/tiny.jsonl', import.meta.url));

const file = (name: string): LoadFile => ({ name, blob: new Blob([new Uint8Array(TINY)]) });

/** A load that ends only when cancelled (a parse that checks its signal). */
const waitForCancel: EngineHandlers['load'] = (_request, { signal }) =>
  new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason)));

const LONG_LOAD_MS = 600;

/** A load that never yields to its signal (a hung JSON recovery). */
const neverStops: EngineHandlers['load'] = () => new Promise(() => {});

const FAKE_HANDLERS: EngineHandlers = {
  ...ENGINE_HANDLERS,
  load: (request, context) => {
    const name = request.files[0]?.name;
    if (name === 'slow.jsonl') return waitForCancel(request, context);
    if (name === 'hung.jsonl') return neverStops(request, context);
    // Longer than the test clients' silence deadline, yielding as a chunked parse does.
    if (name === 'long.jsonl')
      return new Promise((resolve) => setTimeout(resolve, LONG_LOAD_MS)).then(() =>
        ENGINE_HANDLERS.load(request, context),
      );
    // Finishes regardless of its cancel (the cancel came too late to stop it).
    if (name === 'late.jsonl')
      return new Promise((resolve) => setTimeout(resolve, 20)).then(() =>
        ENGINE_HANDLERS.load(request, { ...context, signal: new AbortController().signal }),
      );
    return ENGINE_HANDLERS.load(request, context);
  },
};

function createFakeClient(cancelGraceMs = 50): { client: EngineClient; starts: () => number } {
  let starts = 0;
  const client = createEngineClient({
    start: (listener: WorkerPortListener): WorkerPort => {
      starts++;
      return createInProcessPort(FAKE_HANDLERS, listener);
    },
    cancelGraceMs,
  });
  return { client, starts: () => starts };
}

describe('the engine client', () => {
  it('answers each request with its result and reports a load’s progress', async () => {
    const { client } = createFakeClient();
    const progress: ParseProgressMessage[] = [];
    const summary = await client.request(
      { kind: 'load', sessionId: 1, files: [file('tiny.jsonl')] },
      { onProgress: (p) => progress.push(p) },
    );
    expect(summary.entries).toBeGreaterThan(0);
    expect(progress.at(-1)).toEqual(
      expect.objectContaining({ bytesRead: TINY.length, totalBytes: TINY.length }),
    );
    const issues = await client.request({ kind: 'issues', sessionId: 1 });
    expect(issues.fileNames).toEqual(['tiny.jsonl']);
  });

  it('fails a request for a session that is no longer loaded with StaleSessionError', async () => {
    const { client } = createFakeClient();
    await client.request({ kind: 'load', sessionId: 1, files: [file('tiny.jsonl')] });
    await client.request({ kind: 'load', sessionId: 2, files: [file('tiny.jsonl')] });
    await expect(client.request({ kind: 'timeline', sessionId: 1 })).rejects.toMatchObject({
      name: 'StaleSessionError',
    });
    await expect(client.request({ kind: 'timeline', sessionId: 2 })).resolves.toBeDefined();
  });

  it('cancels a load that stops on its signal without restarting the worker', async () => {
    const { client, starts } = createFakeClient();
    const abort = new AbortController();
    const load = client.request(
      { kind: 'load', sessionId: 1, files: [file('slow.jsonl')] },
      { signal: abort.signal },
    );
    abort.abort();
    await expect(load).rejects.toMatchObject({ name: 'AbortError' });
    expect(starts()).toBe(1);
  });

  it('ends a worker whose cancelled load does not stop, and the previous session stays usable', async () => {
    const { client, starts } = createFakeClient();
    await client.request({ kind: 'load', sessionId: 1, files: [file('tiny.jsonl')] });
    const abort = new AbortController();
    let settled = false;
    const hung = client.request(
      { kind: 'load', sessionId: 2, files: [file('hung.jsonl')] },
      { signal: abort.signal },
    );
    hung.catch(() => {}).finally(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 5)); // the worker has started it
    abort.abort();
    await new Promise((resolve) => setTimeout(resolve, 10));
    // Still running within the grace period: not reported as cancelled yet.
    expect(settled).toBe(false);
    await expect(hung).rejects.toMatchObject({ name: 'AbortError' });
    expect(starts()).toBe(2);
    // The fresh worker was given session 1 again before it answers anything else.
    const issues = await client.request({ kind: 'issues', sessionId: 1 });
    expect(issues.fileNames).toEqual(['tiny.jsonl']);
    // And another file loads.
    await expect(
      client.request({ kind: 'load', sessionId: 3, files: [file('other.jsonl')] }),
    ).resolves.toMatchObject({
      entries: expect.any(Number),
    });
  });

  it('gives the worker the previous session again when a cancelled load finished anyway', async () => {
    // A grace period longer than the late load takes, even on a busy machine.
    const { client, starts } = createFakeClient(2_000);
    await client.request({ kind: 'load', sessionId: 1, files: [file('tiny.jsonl')] });
    const abort = new AbortController();
    const late = client.request(
      { kind: 'load', sessionId: 2, files: [file('late.jsonl')] },
      { signal: abort.signal },
    );
    await new Promise((resolve) => setTimeout(resolve, 5));
    abort.abort();
    await expect(late).rejects.toMatchObject({ name: 'AbortError' });
    expect(starts()).toBe(1);
    const issues = await client.request({ kind: 'issues', sessionId: 1 });
    expect(issues.fileNames).toEqual(['tiny.jsonl']);
  });

  it('lets a cancelled query go at once (only loads wait for the worker)', async () => {
    const { client } = createFakeClient();
    await client.request({ kind: 'load', sessionId: 1, files: [file('tiny.jsonl')] });
    const abort = new AbortController();
    const rows = client.request(
      { kind: 'row-index', sessionId: 1, filter: DEFAULT_ROW_FILTER },
      {
        signal: abort.signal,
      },
    );
    abort.abort();
    await expect(rows).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('after the worker fails, a fresh one takes the next requests with the session reloaded', async () => {
    const listeners: WorkerPortListener[] = [];
    const client = createEngineClient({
      start: (listener) => {
        listeners.push(listener);
        return createInProcessPort(FAKE_HANDLERS, listener);
      },
    });
    await client.request({ kind: 'load', sessionId: 1, files: [file('tiny.jsonl')] });
    const pending = client.request({ kind: 'timeline', sessionId: 1 });
    listeners[0]!.onError('out of memory');
    await expect(pending).rejects.toMatchObject({
      name: 'WorkerError',
      message: expect.stringContaining('The engine was started again with the session reloaded'),
    });
    // A later request is not sent into the dead worker: the new one has the session again.
    expect(listeners).toHaveLength(2);
    const series = await client.request({ kind: 'timeline', sessionId: 1 });
    expect(series.contextTokens.length).toBeGreaterThan(0);
  });

  it('fails pending requests when the worker fails, and falls back in process when it never ran', async () => {
    let listener: WorkerPortListener | undefined;
    const broken = createEngineClient({
      start: (l) => {
        listener = l;
        return { postMessage: () => {}, terminate: () => {} };
      },
    });
    const pending = broken.request({ kind: 'timeline', sessionId: 1 });
    await Promise.resolve();
    listener!.onError('boom');
    await expect(pending).rejects.toMatchObject({
      name: 'WorkerError',
      message: expect.stringContaining('boom'),
    });

    const fallback = createEngineClient({
      start: () => {
        throw new Error('no Worker here');
      },
      fallback: (l) => createInProcessPort(ENGINE_HANDLERS, l),
    });
    const summary = await fallback.request({ kind: 'load', sessionId: 1, files: [file('tiny.jsonl')] });
    expect(summary.entries).toBeGreaterThan(0);
  });

  it('starts its engine at the first request, or at once when eager (the page warming it)', async () => {
    const lazy = createFakeClient();
    expect(lazy.starts()).toBe(0);
    await lazy.client.request({ kind: 'load', sessionId: 1, files: [file('tiny.jsonl')] });
    expect(lazy.starts()).toBe(1);
    let eagerStarts = 0;
    const eager = createEngineClient({
      start: (listener) => {
        eagerStarts++;
        return createInProcessPort(FAKE_HANDLERS, listener);
      },
      eager: true,
    });
    expect(eagerStarts).toBe(1);
    await eager.request({ kind: 'load', sessionId: 1, files: [file('tiny.jsonl')] });
    expect(eagerStarts).toBe(1);
    lazy.client.terminate();
    eager.terminate();
  });

  it('does not start again and again an engine whose code cannot load: the next request tries once more', async () => {
    // As the in-process engine when its import fails (the app updated under the page, a test's
    // environment torn down): each start fails at once, before it answered anything. This looped
    // forever in microtasks (a restart per failure), freezing the thread.
    let starts = 0;
    let loads = false;
    const client = createEngineClient({
      start: (listener) => {
        starts++;
        if (loads) return createInProcessPort(ENGINE_HANDLERS, listener);
        void Promise.resolve().then(() => listener.onError('The engine could not start: import failed'));
        return { postMessage: () => {}, terminate: () => {} };
      },
    });
    await expect(
      client.request({ kind: 'load', sessionId: 1, files: [file('tiny.jsonl')] }),
    ).rejects.toMatchObject({
      name: 'WorkerError',
      message: expect.stringContaining('import failed. It will be started again at the next request.'),
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(starts).toBe(1);
    await expect(
      client.request({ kind: 'load', sessionId: 1, files: [file('tiny.jsonl')] }),
    ).rejects.toMatchObject({
      name: 'WorkerError',
    });
    expect(starts).toBe(2);
    // Once its code loads again, the next request is answered.
    loads = true;
    const summary = await client.request({ kind: 'load', sessionId: 1, files: [file('tiny.jsonl')] });
    expect(summary.entries).toBeGreaterThan(0);
    expect(starts).toBe(3);
    client.terminate();
  });

  describe('a worker that dies without an error event', () => {
    /** Ports that can be made to go silent (killed, stuck): nothing answered, no error event. */
    function createSilencingClient(silentFromStart: number[] = []) {
      const ports: { silent: boolean }[] = [];
      const restarts: string[] = [];
      const client = createEngineClient({
        start: (listener) => {
          const state = { silent: silentFromStart.includes(ports.length) };
          ports.push(state);
          const inner = createInProcessPort(FAKE_HANDLERS, {
            onMessage: (message) => !state.silent && listener.onMessage(message),
            onError: (message) => !state.silent && listener.onError(message),
          });
          return {
            postMessage: (message) => !state.silent && inner.postMessage(message),
            terminate: () => inner.terminate(),
          };
        },
        pingIntervalMs: 10,
        silenceDeadlineMs: 100,
        onRestart: (message) => restarts.push(message),
      });
      return { client, ports, restarts };
    }

    it('is found dead by its unanswered ping: pending work fails saying so, a fresh worker has the session', async () => {
      const { client, ports, restarts } = createSilencingClient();
      await client.request({ kind: 'load', sessionId: 1, files: [file('tiny.jsonl')] });
      ports[0]!.silent = true;
      const started = performance.now();
      const sweep = client.request({
        kind: 'replay-sweep',
        sessionId: 1,
        strategyId: 'claude-code',
        overrides: {},
        summaryModel: 'ratio',
        range: { knob: 'autocompactPctOverride', from: 30, to: 90, steps: 4 },
      });
      await expect(sweep).rejects.toMatchObject({
        name: 'WorkerError',
        message: expect.stringContaining('The engine stopped answering'),
      });
      expect(performance.now() - started).toBeGreaterThanOrEqual(100);
      expect(restarts).toEqual([expect.stringContaining('started again with the session reloaded')]);
      expect(ports).toHaveLength(2);
      // The next request goes to the fresh worker, which was given session 1 again.
      const series = await client.request({ kind: 'timeline', sessionId: 1 });
      expect(series.contextTokens.length).toBeGreaterThan(0);
      await expect(
        client.request({ kind: 'load', sessionId: 2, files: [file('other.jsonl')] }),
      ).resolves.toMatchObject({ entries: expect.any(Number) });
      client.terminate();
    });

    it('is not mistaken for dead while it works longer than the deadline but answers', async () => {
      const { client, ports, restarts } = createSilencingClient();
      const summary = await client.request({ kind: 'load', sessionId: 1, files: [file('long.jsonl')] });
      expect(summary.entries).toBeGreaterThan(0);
      expect(restarts).toEqual([]);
      expect(ports).toHaveLength(1);
      client.terminate();
    });

    it('is not taken for dead when the page itself stalls past the deadline with a ping out', async () => {
      // The page's thread blocked (a long task, a starved machine) just after a ping went out:
      // when it runs again, the liveness check comes before the answer queued behind it. Under
      // load this failed the test above once; here the stall (twice the deadline) is made twice, on purpose.
      let stalls = 0;
      const restarts: string[] = [];
      const client = createEngineClient({
        start: (listener) => {
          const inner = createInProcessPort(FAKE_HANDLERS, listener);
          return {
            postMessage: (message) => {
              if (message.type === 'ping' && stalls < 2) {
                stalls++;
                setTimeout(() => {
                  const end = performance.now() + 200;
                  while (performance.now() < end) {}
                }, 0);
              }
              inner.postMessage(message);
            },
            terminate: () => inner.terminate(),
          };
        },
        pingIntervalMs: 10,
        silenceDeadlineMs: 100,
        onRestart: (message) => restarts.push(message),
      });
      const summary = await client.request({ kind: 'load', sessionId: 1, files: [file('long.jsonl')] });
      expect(summary.entries).toBeGreaterThan(0);
      expect(stalls).toBe(2);
      expect(restarts).toEqual([]);
      client.terminate();
    });

    it('is not given the session again when it died reloading it (no endless restarts)', async () => {
      // The fresh worker dies too, while the session is being given to it again.
      const { client, ports, restarts } = createSilencingClient([1]);
      await client.request({ kind: 'load', sessionId: 1, files: [file('tiny.jsonl')] });
      ports[0]!.silent = true;
      await expect(client.request({ kind: 'issues', sessionId: 1 })).rejects.toMatchObject({
        name: 'WorkerError',
      });
      await expect.poll(() => restarts.length, { timeout: 5_000 }).toBe(2);
      expect(restarts[1]).toContain('the session could not be reloaded: open it again');
      // The third worker is not given the session: it answers at once, and a new load works.
      await expect(client.request({ kind: 'issues', sessionId: 1 })).rejects.toMatchObject({
        name: 'StaleSessionError',
      });
      await expect(
        client.request({ kind: 'load', sessionId: 2, files: [file('tiny.jsonl')] }),
      ).resolves.toMatchObject({ entries: expect.any(Number) });
      expect(ports).toHaveLength(3);
      client.terminate();
    });
  });
});
