import { readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { generateSession } from '../../sample/generate-session';
import type { HostState } from '../../src/worker/engine-host';
import { SESSION_HANDLERS } from '../../src/worker/session-handlers';
import { computeReplay } from '../../src/engine/replay/compute-replay';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { getDefaultStrategyId } from '../../src/engine/strategies/descriptors';
import { getStrategy } from '../../src/engine/strategies/registry';
import { getSessionInfo } from '../../src/engine/strategies/types';
import { CORPUS, corpusOrSkip } from '../helpers/corpus';

// Live mode's worker step: the grown main file is handed over whole (a Blob: nothing is read until
// asked), the worker reads only the bytes past its last read, the session takes a new id (queries
// of the old one are stale), and the library row comes from the grown session.

const SAMPLE = resolve(__dirname, '../../public/samples/63afec48-7874-40b5-a0f1-7fc9fd28fba9.jsonl');
const NAME = 'live.jsonl';

const context = (state: HostState) => ({ state, signal: new AbortController().signal, onProgress: () => {} });

/** A Blob over `bytes` that counts the bytes read from it. */
function countingBlob(bytes: Uint8Array, read: { bytes: number }): Blob {
  const blob = new Blob([bytes.slice()]);
  const wrap = (b: Blob, start: number): Blob =>
    new Proxy(b, {
      get(target, key) {
        if (key === 'slice')
          return (from = 0, to = target.size) => wrap(target.slice(from, to), start + from);
        if (key === 'arrayBuffer')
          return () => {
            read.bytes += target.size;
            return target.arrayBuffer();
          };
        const value = Reflect.get(target, key);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  return wrap(blob, 0);
}

describe('session-append', () => {
  it('reads only the appended bytes and gives the grown session a new id', async () => {
    const bytes = new Uint8Array(readFileSync(SAMPLE));
    const half = bytes.lastIndexOf(0x0a, bytes.byteLength >> 1) + 1;
    const state: HostState = {};
    const append = async (sessionId: number | undefined, newSessionId: number, end: number) => {
      const read = { bytes: 0 };
      const file = { name: NAME, blob: countingBlob(bytes.subarray(0, end), read) };
      const { result } = await SESSION_HANDLERS['session-append'](
        { kind: 'session-append', sessionId, newSessionId, file, others: [] },
        context(state),
      );
      return { result, read: read.bytes };
    };
    const first = await append(undefined, 1, half);
    expect(first.result.reparsed).toMatch(/first read/);
    const second = await append(1, 2, bytes.byteLength);
    expect(second.result.reparsed).toBeUndefined();
    expect(second.result.readBytes).toBe(bytes.byteLength - half);
    // What the worker actually read from the Blob: the appended bytes and the head check's few.
    expect(second.read).toBeGreaterThanOrEqual(bytes.byteLength - half);
    expect(second.read).toBeLessThanOrEqual(bytes.byteLength - half + 256);
    expect(first.read).toBeGreaterThanOrEqual(half);
    expect(state.loaded?.sessionId).toBe(2);
    const whole = await parseSession([createMemorySource(NAME, bytes)]);
    expect(second.result.summary.entries).toBe(whole.entries.length);
    expect(second.result.row.apiCalls).toBe(whole.apiCalls.length);
    // A query of the session before the append is stale.
    await expect(
      SESSION_HANDLERS['token-table']({ kind: 'token-table', sessionId: 1 }, context(state)),
    ).rejects.toThrow(/not loaded/);
  });

  it('after a load kept for live mode, the first append reads only the appended bytes', async () => {
    const bytes = new Uint8Array(readFileSync(SAMPLE));
    const half = bytes.lastIndexOf(0x0a, bytes.byteLength >> 1) + 1;
    const state: HostState = {};
    const loadRead = { bytes: 0 };
    await SESSION_HANDLERS.load(
      {
        kind: 'load',
        sessionId: 1,
        files: [{ name: NAME, blob: countingBlob(bytes.subarray(0, half), loadRead) }],
        live: true,
      },
      context(state),
    );
    const read = { bytes: 0 };
    const file = { name: NAME, blob: countingBlob(bytes, read) };
    const { result } = await SESSION_HANDLERS['session-append'](
      { kind: 'session-append', sessionId: 1, newSessionId: 2, file, others: [] },
      context(state),
    );
    expect(result.reparsed).toBeUndefined();
    expect(result.indicesKept).toBe(true);
    expect(result.readBytes).toBe(bytes.byteLength - half);
    expect(read.bytes).toBeLessThanOrEqual(bytes.byteLength - half + 256);
  });

  it('a session with subagent files: each file read past its last read, a new one whole', async () => {
    const { files } = generateSession({ seed: 21, apiCalls: 200 });
    const encoder = new TextEncoder();
    const full = files.map((f) => ({ name: f.name, bytes: encoder.encode(f.text) }));
    /** Each file's first `fraction`, cut at a newline; files after `count` absent. */
    const at = (fraction: number, count: number) =>
      full.slice(0, count).map((f) => {
        const end =
          fraction === 1 ? f.bytes.byteLength : f.bytes.lastIndexOf(0x0a, f.bytes.byteLength * fraction) + 1;
        return { name: f.name, bytes: f.bytes.subarray(0, end) };
      });
    const state: HostState = {};
    const first = at(0.5, 2);
    await SESSION_HANDLERS.load(
      {
        kind: 'load',
        sessionId: 1,
        files: first.map((f) => ({ name: f.name, blob: new Blob([f.bytes.slice()]) })),
        live: true,
      },
      context(state),
    );
    const next = at(1, full.length);
    const read = { bytes: 0 };
    const [main, ...others] = next.map((f) => ({ name: f.name, blob: countingBlob(f.bytes, read) }));
    const { result } = await SESSION_HANDLERS['session-append'](
      { kind: 'session-append', sessionId: 1, newSessionId: 2, file: main!, others },
      context(state),
    );
    let appended = 0;
    for (const [i, f] of next.entries()) appended += f.bytes.byteLength - (first[i]?.bytes.byteLength ?? 0);
    expect(result.reparsed).toBeUndefined();
    expect(result.readBytes).toBe(appended);
    // What the worker read from the Blobs: the appended bytes and each file's head check, and a
    // file read whole reads the line its first read cut again with the next (line-reader.ts).
    const longestLine = Math.max(...full.flatMap((f) => lineLengths(f.bytes)));
    expect(read.bytes).toBeGreaterThanOrEqual(appended);
    expect(read.bytes).toBeLessThanOrEqual(appended + (256 + longestLine) * next.length);
    // The main file grew under the subagent entries: their indices moved.
    expect(result.indicesKept).toBe(false);
    const whole = await parseSession(next.map((f) => createMemorySource(f.name, f.bytes)));
    expect(state.loaded?.session).toEqual(whole);
  });
});

/** The byte length of each line of `bytes`. */
function lineLengths(bytes: Uint8Array): number[] {
  const out: number[] = [];
  let start = 0;
  for (let nl = bytes.indexOf(0x0a); nl >= 0; nl = bytes.indexOf(0x0a, start)) {
    out.push(nl - start);
    start = nl + 1;
  }
  return out;
}

// The live forecast's threshold (library/forecast.ts) is the worker's: the auto-compact bar of the
// log's own agent under the log's knobs. The page's forecast used Claude Code's formula for every
// agent at the window the row guessed.
describe.skipIf(!corpusOrSkip('live forecast threshold corpus test'))(
  'session-append: the forecast’s threshold',
  () => {
    it.each([
      // A real 1M-context Claude Code session: 1,000,000 − 20,000 reserved output − 13,000 buffer.
      [
        'hannibal8856__claude_backup/claude__projects__-home-moxa-sdc1-home-moxa-mds4xgl3-buildroot-dl__bdcc4d2c-9721-438a-afe2-8482c5b0ae9b.jsonl',
        967_000,
      ],
      // A real Codex rollout of 2026-04: 90% of the raw window 272,000 (strategies/codex).
      [
        'foreign/Xu-Wentao__dotfile/.codex/sessions/2026/04/08/rollout-2026-04-08T22-18-42-019d6d75-b03d-7f83-a2c7-c3478007d5e0.jsonl',
        244_800,
      ],
    ])('%s: %d, the timeline’s auto-compact bar', async (path, tokens) => {
      const bytes = new Uint8Array(readFileSync(join(CORPUS, path)));
      const state: HostState = {};
      const { result } = await SESSION_HANDLERS['session-append'](
        {
          kind: 'session-append',
          sessionId: undefined,
          newSessionId: 1,
          file: { name: basename(path), blob: new Blob([bytes]) },
          others: [],
        },
        context(state),
      );
      expect(result.autoCompactTokens).toBe(tokens);
      const session = await parseSession([createMemorySource(basename(path), bytes)]);
      const strategy = getStrategy(getDefaultStrategyId(session.format, session.meta.agent));
      const prepared = prepareReplay(session);
      const { knobs } = strategy.getSessionKnobs(getSessionInfo(prepared));
      const bar = computeReplay(prepared, strategy.id, knobs).thresholds.find((l) => l.id === 'auto-compact');
      expect(bar?.tokens).toBe(tokens);
    });
  },
);
