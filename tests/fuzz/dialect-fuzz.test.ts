import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addLiveLine, createLiveFigures } from '../../src/engine/live/live-figures';
import { computeLiveStatus } from '../../src/engine/live/live-status';
import { getDefaultStrategyId } from '../../src/engine/strategies/descriptors';
import { parseSession } from '../../src/engine/parse/parse-session';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { computeReplay } from '../../src/engine/replay/compute-replay';
import { getStrategy } from '../../src/engine/strategies/registry';
import { getSessionInfo } from '../../src/engine/strategies/types';
import { createMemorySource } from '../../src/engine/parse/source';
import type { Session } from '../../src/engine/types';
import { generateSession } from '../../sample/generate-session';
import { badFigures, fixtureFiles } from '../faults/figures';
import { FIXTURES } from '../parse/dialect-fixtures';
import { corpusJsonl, corpusOrSkip, foreignFiles } from '../helpers/corpus';
import { cpuMsAsync } from '../helpers/cpu-time';
import { joinLines, mutateLines, mutationArb } from './mutate-session';

// The fuzz stage over every dialect: real sessions (the foreign corpus's Codex, Gemini CLI, pi and
// Cline logs, a few Claude Code ones) and generated ones (every dialect's fixture, the sample
// generator) are damaged line by line and value by value: out-of-range counts and times, strings
// for numbers, values nested 5,000 deep. Whatever the damage: the parse returns, the session is not
// lost, no figure of it or of its replay is NaN, negative, infinite or an implausible time (a bad
// value is an issue and is left out), the live status (watch, statusline) over the same lines has
// none either, each parse stays within a CPU-time budget, and parse time grows linearly.

const SEED = 20_261_128;
/** Lines kept of a JSON-lines base, elements of a JSON-document base (the fuzz stays fast). */
const BASE_LINES = 80;
const BASE_ELEMENTS = 60;
const MAX_LINE_CHARS = 200_000;
/** ours: a few hundred kB parse in tens of ms; 2 s of CPU for one is a hang, not a slow machine. */
const PARSE_CPU_BUDGET_MS = 2_000;

interface Base {
  label: string;
  files: { name: string; text: string }[];
  /** JSON lines (mutated line by line too), or whole JSON documents (value by value only). */
  lines: boolean;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** A real file cut to a fuzzable size, in its own shape: its first lines, or its first elements. */
function realBase(path: string): Base | undefined {
  const text = readFileSync(path, 'utf8');
  const name = basename(path);
  if (isJson(text)) {
    const value = JSON.parse(text);
    const cut = Array.isArray(value)
      ? value.slice(0, BASE_ELEMENTS)
      : Array.isArray(value?.messages)
        ? { ...value, messages: value.messages.slice(0, BASE_ELEMENTS) }
        : value;
    return { label: `real ${name}`, files: [{ name, text: JSON.stringify(cut) }], lines: false };
  }
  const lines = text
    .split('\n')
    .slice(0, BASE_LINES)
    .filter((l) => l.trim() !== '' && l.length <= MAX_LINE_CHARS && isJson(l));
  return lines.length >= 6
    ? { label: `real ${name}`, files: [{ name, text: `${lines.join('\n')}\n` }], lines: true }
    : undefined;
}

function realBases(): Base[] {
  if (!corpusOrSkip('dialect fuzz: real sessions')) return [];
  const foreign = foreignFiles().filter((f) => /\.jsonl?$/.test(f) && statSync(f).size > 500);
  // Two Claude Code logs, spread over the corpus (parse-fuzz.test.ts takes more of them).
  const claude = corpusJsonl().filter((f) => !/rollout-|agent-/.test(f));
  const picks = [
    ...foreign,
    ...[claude[0], claude[Math.floor(claude.length / 2)]].filter((f) => f !== undefined),
  ];
  return picks.map(realBase).filter((b): b is Base => b !== undefined);
}

const fixtureBases: Base[] = Object.entries(FIXTURES).flatMap(([id, fixtures]) =>
  id === 'claude-sdk-stream'
    ? []
    : fixtures
        .filter((f) => !f.name.includes('broken'))
        .map((f) => {
          const files = fixtureFiles(f);
          return { label: `fixture ${f.name}`, files, lines: files.length === 1 && !isJson(files[0]!.text) };
        }),
);
const generated: Base = {
  label: 'generated sample',
  files: [{ name: 'sample.jsonl', text: generateSession({ seed: 11, apiCalls: 10 }).files[0]!.text }],
  lines: true,
};
const bases = [...fixtureBases, generated, ...realBases()];

/** Values a log may hold where a count or a time should be. */
const BAD_NUMBERS = [
  '-984990',
  '1e999',
  '"12"',
  '-1.5',
  '8640000000000001',
  '1e20',
  '0',
  '99999999999999999999',
];
const BAD_TIMES = ['"9999-12-31T00:00:00.000Z"', '"1969-12-31T23:59:59.000Z"', '"not a time"', '""'];
const NUMBER = /(?<=[:[,]\s*)-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?=\s*[,}\]])/g;
const ISO_TIME = /"\d{4}-\d\d-\d\dT[^"\\]*"/g;
const STRING_VALUE = /(?<=":\s*)"(?:[^"\\]|\\.){0,40}"/g;

type ValueMutation = { kind: 'number' | 'time' | 'deep'; at: number; value: number };
const valueMutationArb: fc.Arbitrary<ValueMutation> = fc.record({
  kind: fc.constantFrom('number' as const, 'time' as const, 'deep' as const),
  at: fc.nat(),
  value: fc.nat(),
});

/** `text` with the `at`-th (modulo) match of the mutation's pattern replaced by a bad value. */
function mutateValue(text: string, m: ValueMutation): string {
  const pattern = m.kind === 'number' ? NUMBER : m.kind === 'time' ? ISO_TIME : STRING_VALUE;
  const matches = [...text.matchAll(pattern)];
  if (matches.length === 0) return text;
  const hit = matches[m.at % matches.length]!;
  // Inside a JSON string (Cline's embedded request JSON), a quote must stay escaped.
  const escaped =
    text[hit.index! - 1] === ':' && text[hit.index! - 2] === '"' && text[hit.index! - 3] === '\\';
  const depth = m.value % 2 === 0 ? 50 : 5_000;
  let value =
    m.kind === 'number'
      ? BAD_NUMBERS[m.value % BAD_NUMBERS.length]!
      : m.kind === 'time'
        ? BAD_TIMES[m.value % BAD_TIMES.length]!
        : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  if (escaped) value = value.replaceAll('"', '\\"');
  return `${text.slice(0, hit.index)}${value}${text.slice(hit.index! + hit[0].length)}`;
}

/** Parses `files`, with the CPU time the parse took (this process's user + system, in ms). */
async function parseTimed(files: { name: string; text: string | Uint8Array }[]) {
  const start = process.cpuUsage();
  const session = await parseSession(files.map((f) => createMemorySource(f.name, f.text)));
  const used = process.cpuUsage(start);
  return { session, cpuMs: (used.user + used.system) / 1000 };
}

/** What is wrong with a mutant's session and its replay under the log's own strategy. */
function problemsOf(session: Session, clean: Session, valid: boolean, mutations: number): string[] {
  const problems = badFigures(session);
  if (valid && session.entries.length < clean.entries.length - mutations)
    problems.push(`session lost: ${session.entries.length} entries of ${clean.entries.length}`);
  if (valid && session.format !== clean.format)
    problems.push(`read as ${session.format}, not ${clean.format}`);
  if (session.apiCalls.length === 0) return problems;
  const prepared = prepareReplay(session);
  const strategyId = getDefaultStrategyId(session.format);
  const { knobs } = getStrategy(strategyId).getSessionKnobs(getSessionInfo(prepared));
  const result = computeReplay(prepared, strategyId, knobs);
  for (const [name, series] of [
    ['simulated', result.simulatedTokens],
    ['check', result.checkTokens],
  ] as const)
    for (const x of series) if (!Number.isFinite(x) || x < 0) problems.push(`replay ${name} tokens ${x}`);
  for (const t of result.thresholds)
    if (!Number.isFinite(t.tokens)) problems.push(`replay threshold ${t.id} ${t.tokens}`);
  return problems;
}

/**
 * The live path (watch, statusline) over the same text, line by line: its status has no NaN,
 * negative or infinite figure either.
 */
function liveProblems(text: string): string[] {
  const figures = createLiveFigures();
  text.split('\n').forEach((line, k) => {
    addLiveLine(figures, line, k + 1);
  });
  const status = computeLiveStatus(figures);
  return Object.entries(status).flatMap(([key, x]) =>
    typeof x === 'number' && (!Number.isFinite(x) || x < 0) ? [`live ${key} = ${x}`] : [],
  );
}

describe(`every dialect under fuzzing (${bases.length} bases)`, () => {
  const cleanOf = new Map<Base, Session>();
  const clean = async (b: Base) => {
    if (!cleanOf.has(b)) cleanOf.set(b, (await parseTimed(b.files)).session);
    return cleanOf.get(b)!;
  };

  it('bad values (counts, times, deep nesting): nothing lost, no impossible figure, no hang', async () => {
    const covered = new Set<string>();
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: bases.length - 1 }),
        fc.array(fc.tuple(fc.nat(), valueMutationArb), { minLength: 1, maxLength: 6 }),
        async (k, mutations) => {
          const base = bases[k]!;
          const files = base.files.map((f) => ({ ...f }));
          for (const [i, m] of mutations) {
            const file = files[i % files.length]!;
            file.text = mutateValue(file.text, m);
          }
          const valid = files.every((f) =>
            isJson(f.text)
              ? true
              : f.text
                  .trimEnd()
                  .split('\n')
                  .every((l) => l.trim() === '' || isJson(l)),
          );
          const { session, cpuMs } = await parseTimed(files);
          covered.add(session.format);
          const problems = problemsOf(session, await clean(base), valid, mutations.length);
          for (const f of files) problems.push(...liveProblems(f.text));
          if (cpuMs > PARSE_CPU_BUDGET_MS) problems.push(`parse took ${Math.round(cpuMs)} ms of CPU`);
          expect(problems, base.label).toEqual([]);
        },
      ),
      { seed: SEED, numRuns: 200, interruptAfterTimeLimit: 3_000, markInterruptAsFailure: false },
    );
    // The fuzz reached the dialects, not only the first bases.
    expect(covered.size).toBeGreaterThanOrEqual(6);
  }, 30_000);

  const lineBases = bases.filter((b) => b.lines);
  it(`damaged lines of JSON-lines dialects (${lineBases.length} bases): nothing else lost, each bad line named`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: lineBases.length - 1 }),
        fc.array(fc.tuple(fc.nat(), mutationArb), { minLength: 1, maxLength: 8 }),
        async (k, mutations) => {
          const base = lineBases[k]!;
          const file = base.files[0]!;
          const lines = mutateLines(file.text.trimEnd().split('\n'), mutations);
          const bytes = joinLines(lines, true);
          const { session, cpuMs } = await parseTimed([{ name: file.name, text: bytes }]);
          const problems = [...badFigures(session), ...liveProblems(new TextDecoder().decode(bytes))];
          if (cpuMs > PARSE_CPU_BUDGET_MS) problems.push(`parse took ${Math.round(cpuMs)} ms of CPU`);
          const cleanSession = await clean(base);
          if (cleanSession.entries.length > 0 && session.entries.length === 0) problems.push('session lost');
          // Every line that is no longer JSON is an issue at its own line.
          const issueLines = new Set(session.issues.map((i) => i.line));
          lines.forEach((out, n) => {
            const text = new TextDecoder().decode(out.bytes);
            if (out.mutation && text.trim() !== '' && !isJson(text) && !issueLines.has(n + 1))
              problems.push(`line ${n + 1} (${out.mutation}) not named`);
          });
          expect(problems, base.label).toEqual([]);
        },
      ),
      { seed: SEED, numRuns: 120, interruptAfterTimeLimit: 1_500, markInterruptAsFailure: false },
    );
  }, 30_000);
});

/** A base grown to about `bytes`, with damage in every copy: cut lines and broken nesting, or a cut document. */
function grown(base: Base, bytes: number): { name: string; text: string }[] {
  const file = base.files[0]!;
  if (base.lines) {
    const lines = file.text.trimEnd().split('\n');
    const out: string[] = [];
    for (let size = 0, k = 0; size < bytes; k++) {
      const line = lines[k % lines.length]!;
      // Every third line also cut off, then nested in 20 to 60 unclosed objects.
      const extra =
        k % 3 === 0 ? [line.slice(0, line.length >> 1), `${'{"n":'.repeat(20 + (k % 40))}${line}`] : [];
      out.push(line, ...extra);
      size += line.length * (1 + extra.length);
    }
    return [{ name: file.name, text: `${out.join('\n')}\n` }];
  }
  const value = JSON.parse(file.text);
  const items: unknown[] = Array.isArray(value)
    ? value
    : Array.isArray(value?.messages)
      ? value.messages
      : [];
  if (items.length === 0) return base.files;
  const itemBytes = Math.max(1, JSON.stringify(items).length / items.length);
  const copies = Array.from({ length: Math.ceil(bytes / itemBytes) }, (_, k) => items[k % items.length]);
  const text = JSON.stringify(Array.isArray(value) ? copies : { ...value, messages: copies }, null, 1);
  // Cut off inside its last element, as a write interrupted.
  return [{ name: file.name, text: text.slice(0, text.length - Math.min(40, text.length >> 2)) }];
}

describe('no hang: parse CPU time grows linearly in every dialect', () => {
  it('takes about twice as long for a damaged file twice as large (one base per dialect)', async () => {
    const perDialect = new Map<string, Base>();
    for (const b of bases) {
      const format = (await parseSession(b.files.map((f) => createMemorySource(f.name, f.text)))).format;
      if (!perDialect.has(format) && b.files.length === 1) perDialect.set(format, b);
    }
    expect(perDialect.size).toBeGreaterThanOrEqual(6);
    const ratios: string[] = [];
    for (const [format, base] of perDialect) {
      const parse = (files: { name: string; text: string }[]) => () =>
        parseSession(files.map((f) => createMemorySource(f.name, f.text)));
      const small = grown(base, 60_000);
      const large = grown(base, 120_000);
      await parse(small)(); // warm-up
      const a = await cpuMsAsync(parse(small));
      const b = await cpuMsAsync(parse(large));
      // Linear gives 2×; a noisy shared machine is allowed for, a quadratic path is not (≥ 4×). A
      // few ms of GC on a small base is noise, not a path: the excess must pass 100 ms too (ours).
      if (b / Math.max(a, 1) > 5 && b - 2 * a > 100)
        ratios.push(`${format} (${base.label}): ${a.toFixed(0)} → ${b.toFixed(0)} ms`);
    }
    expect(ratios).toEqual([]);
  }, 30_000);
});
