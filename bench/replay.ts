// Replay speed: a full replay over a 10,000-call generated session (goal ≤ 100 ms) and a knob
// change re-simulated on a 2,000-call session (goal ≤ 16 ms, one frame), in Node.
//   node bin/run-ts.mjs bench/replay.ts
// `prepareReplay` runs once per session (in the worker, right after parsing); the goals apply
// to `computeReplay`, which is what runs when a knob moves. Prints a markdown table for the README.

import os from 'node:os';
import { parseSession } from '../src/engine/parse/parse-session';
import { createMemorySource } from '../src/engine/parse/source';
import { computeReplay } from '../src/engine/replay/compute-replay';
import { prepareReplay } from '../src/engine/replay/prepare';
import { CLAUDE_CODE_STRATEGY } from '../src/engine/strategies/claude-code';
import { getSessionInfo } from '../src/engine/strategies/types';
import { generateSession } from '../sample/generate-session';

const FULL_GOAL_MS = 100;
const KNOB_GOAL_MS = 16;
const SEED = 42;
const log = (text: string): void => {
  process.stderr.write(`${text}\n`);
};

function stats(samples: number[]): { median: number; p95: number; best: number } {
  const s = [...samples].sort((a, b) => a - b);
  return {
    median: s[Math.floor(s.length / 2)]!,
    p95: s[Math.min(s.length - 1, Math.floor(s.length * 0.95))]!,
    best: s[0]!,
  };
}

async function load(apiCalls: number) {
  const started = performance.now();
  const g = generateSession({ seed: SEED, apiCalls });
  const session = await parseSession(g.files.map((f) => createMemorySource(f.name, f.text)));
  log(`generated and parsed ${apiCalls} calls in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return session;
}

function time<T>(fn: () => T): [T, number] {
  const t0 = performance.now();
  const value = fn();
  return [value, performance.now() - t0];
}

const big = await load(10_000);
const prepareSamples: number[] = [];
let prepared = prepareReplay(big);
for (let i = 0; i < 5; i++) {
  const [p, ms] = time(() => prepareReplay(big));
  prepared = p;
  prepareSamples.push(ms);
}
const { knobs } = CLAUDE_CODE_STRATEGY.getSessionKnobs(getSessionInfo(prepared));
const variants = [
  { ...knobs },
  { ...knobs, microcompactEnabled: true },
  { ...knobs, autocompactPctOverride: 60 },
  { ...knobs, contextWindow: 1_000_000 },
];
const fullSamples: number[] = [];
let events = 0;
for (let i = 0; i < 40; i++) {
  const [result, ms] = time(() => computeReplay(prepared, 'claude-code', variants[i % variants.length]));
  if (i >= 8) fullSamples.push(ms);
  events = Math.max(events, result.events.length);
}

const mid = await load(2_000);
const midPrepared = prepareReplay(mid);
const midKnobs = CLAUDE_CODE_STRATEGY.getSessionKnobs(getSessionInfo(midPrepared)).knobs;
const knobSamples: number[] = [];
for (let i = 0; i < 200; i++) {
  // A slider drag: the window and the override move a step each time, microcompact toggles.
  const k = {
    ...midKnobs,
    contextWindow: 150_000 + (i % 40) * 5_000,
    microcompactEnabled: i % 3 === 0,
    autocompactPctOverride: i % 5 === 0 ? 70 : undefined,
  };
  const [, ms] = time(() => computeReplay(midPrepared, 'claude-code', k));
  if (i >= 20) knobSamples.push(ms);
}

const full = stats(fullSamples);
const knob = stats(knobSamples);
const prep = stats(prepareSamples);
const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
const ok = (ms: number, goal: number) => (ms <= goal ? '✓' : '✗');
console.log(
  `Machine: ${cpu}, ${os.cpus().length} threads, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${os.platform()} ${os.arch()}`,
);
console.log('');
console.log('| replay | median | p95 | goal |');
console.log('|---|---|---|---|');
console.log(
  `| full replay, 10,000 calls (${prepared.ctxEntry.length.toLocaleString('en-US')} messages, up to ${events} events) | ${full.median.toFixed(1)} ms | ${full.p95.toFixed(1)} ms | ≤ ${FULL_GOAL_MS} ms ${ok(full.p95, FULL_GOAL_MS)} |`,
);
console.log(
  `| knob change, 2,000 calls | ${knob.median.toFixed(1)} ms | ${knob.p95.toFixed(1)} ms | ≤ ${KNOB_GOAL_MS} ms ${ok(knob.p95, KNOB_GOAL_MS)} |`,
);
console.log(
  `| prepareReplay once per session, 10,000 calls | ${prep.median.toFixed(1)} ms | ${prep.p95.toFixed(1)} ms | — |`,
);
