import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatSessionDump } from '../../src/engine/inspect/dump';
import { addLiveLine, createLiveFigures, type LiveFigures } from '../../src/engine/live/live-figures';
import { computeLiveStatus } from '../../src/engine/live/live-status';
import {
  type GrowingSource,
  INITIAL_READER_STATE,
  type IncrementalReaderState,
  readAppendedLines,
} from '../../src/engine/parse/incremental-reader';
import { LiveParse } from '../../src/engine/parse/live-parse';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { generateSession } from '../../sample/generate-session';
import { badFigures, fixtureFiles } from '../faults/figures';
import { corpusOrSkip, foreignFiles } from '../helpers/corpus';
import { FIXTURES } from '../parse/dialect-fixtures';
import { joinLines, mutateLines, mutationArb } from './mutate-session';

// The fuzz stage's live half (issue 25): the page's live mode (`LiveParse`: only the appended bytes
// read) and the terminal's (`watch`, `statusline`: `readAppendedLines` into the live figures) over
// damaged JSON-lines sessions of every line dialect that grow in random pieces (cut inside lines,
// inside characters), and are at times cut short or replaced while followed. Whatever the damage
// and the cuts: each path ends with what one read of the final file gives (the page's session, the
// terminal's figures), no figure NaN, negative or infinite, and each step within a CPU budget.

const SEED = 20_261_129;
const BASE_LINES = 80;
/** ours: a step reads at most a few hundred kB; 2 s of CPU for one is a hang, not a slow machine. */
const STEP_CPU_BUDGET_MS = 2_000;

interface LineBase {
  label: string;
  name: string;
  lines: string[];
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function lineBase(label: string, name: string, text: string): LineBase | undefined {
  if (isJson(text)) return undefined; // a whole-document dialect: not followed line by line
  const lines = text
    .split('\n')
    .slice(0, BASE_LINES)
    .filter((l) => l.trim() !== '' && isJson(l));
  return lines.length >= 4 ? { label, name, lines } : undefined;
}

function realBases(): LineBase[] {
  if (!corpusOrSkip('live fuzz: real sessions')) return [];
  return foreignFiles()
    .filter((f) => /\.jsonl$/.test(f) && statSync(f).size > 500)
    .flatMap((f) => lineBase(`real ${basename(f)}`, basename(f), readFileSync(f, 'utf8')) ?? []);
}

const bases: LineBase[] = [
  ...Object.values(FIXTURES).flatMap((fixtures) =>
    fixtures.flatMap((f) => {
      const files = fixtureFiles(f);
      if (files.length !== 1 || f.name.includes('broken')) return [];
      return lineBase(`fixture ${f.name}`, files[0]!.name, files[0]!.text) ?? [];
    }),
  ),
  {
    label: 'generated sample',
    name: 'sample.jsonl',
    lines: generateSession({ seed: 12, apiCalls: 10 }).files[0]!.text.trimEnd().split('\n'),
  },
  ...realBases(),
];

/** How the followed file changes between two reads. */
type Step = { kind: 'grow'; at: number } | { kind: 'cut'; at: number } | { kind: 'replace' };
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('grow' as const),
      at: fc.double({ min: 0, max: 1, noNaN: true }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('cut' as const),
      at: fc.double({ min: 0, max: 1, noNaN: true }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('replace' as const) }) },
);

/**
 * The file's contents read after read: grown to a later point of `bytes`, cut short (shrunk to an
 * earlier point), or replaced by `other` (another session, then `bytes` grown again from its
 * start, as a log rotated under the same name); the last is always the whole of `bytes`.
 */
function contentsOf(bytes: Uint8Array, other: Uint8Array, steps: Step[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  let end = 0;
  for (const step of steps) {
    if (step.kind === 'replace') {
      out.push(other);
      end = 0;
      continue;
    }
    const target = Math.floor(step.at * bytes.byteLength);
    end = step.kind === 'grow' ? Math.max(end, target) : Math.min(end, target);
    out.push(bytes.subarray(0, end));
  }
  out.push(bytes);
  return out;
}

function cpuMs(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

function statusProblems(figures: LiveFigures): string[] {
  return Object.entries(computeLiveStatus(figures)).flatMap(([key, x]) =>
    typeof x === 'number' && (!Number.isFinite(x) || x < 0) ? [`live ${key} = ${x}`] : [],
  );
}

/** A damaged base's bytes (fast-check picks the base, the damage and the other file). */
const damagedArb = fc
  .tuple(
    fc.nat({ max: bases.length - 1 }),
    fc.array(fc.tuple(fc.nat(), mutationArb), { minLength: 0, maxLength: 6 }),
    fc.nat({ max: bases.length - 1 }),
    fc.array(stepArb, { minLength: 1, maxLength: 12 }),
  )
  .map(([k, mutations, j, steps]) => {
    const base = bases[k]!;
    const bytes = joinLines(mutateLines(base.lines, mutations), true);
    const other = joinLines(mutateLines(bases[j === k ? (j + 1) % bases.length : j]!.lines, []), true);
    return { base, bytes, other, steps };
  });

describe(`live and watch paths under fuzzing (${bases.length} line bases)`, () => {
  it('the page’s live parse of a damaged, growing, cut and replaced file ends as one parse of it', async () => {
    await fc.assert(
      fc.asyncProperty(damagedArb, async ({ base, bytes, other, steps }) => {
        const problems: string[] = [];
        const contents = contentsOf(bytes, other, steps);
        const source = (b: Uint8Array) => createMemorySource(base.name, b);
        const { live } = await LiveParse.open(source(contents[0]!));
        for (const content of contents.slice(1)) {
          const start = process.cpuUsage();
          const step = await live.append(source(content));
          if (cpuMs(start) > STEP_CPU_BUDGET_MS)
            problems.push(`a step took ${Math.round(cpuMs(start))} ms of CPU`);
          problems.push(...badFigures(step.session));
        }
        const whole = await parseSession([source(bytes)]);
        if (formatSessionDump(live.current) !== formatSessionDump(whole))
          problems.push('the followed session differs from one parse of the final file');
        expect(problems, base.label).toEqual([]);
      }),
      { seed: SEED, numRuns: 150, interruptAfterTimeLimit: 4_000, markInterruptAsFailure: false },
    );
  }, 30_000);

  it('watch and statusline’s reads of a damaged, growing, cut and replaced file end as one read of it', async () => {
    await fc.assert(
      fc.asyncProperty(damagedArb, async ({ base, bytes, other, steps }) => {
        const problems: string[] = [];
        let content: Uint8Array = new Uint8Array(0);
        const file: GrowingSource = {
          getSizeBytes: async () => content.byteLength,
          read: async (offset, length) => content.subarray(offset, offset + length),
        };
        let figures = createLiveFigures();
        let state: IncrementalReaderState = INITIAL_READER_STATE;
        const read = async () => {
          const start = process.cpuUsage();
          ({ state } = await readAppendedLines(
            file,
            state,
            (text, line) => addLiveLine(figures, text, line),
            () => {
              figures = createLiveFigures();
            },
          ));
          if (cpuMs(start) > STEP_CPU_BUDGET_MS)
            problems.push(`a read took ${Math.round(cpuMs(start))} ms of CPU`);
          problems.push(...statusProblems(figures));
        };
        for (const next of contentsOf(bytes, other, steps)) {
          content = next;
          await read();
        }
        // One read of the final file, from the start.
        const once = createLiveFigures();
        content = bytes;
        await readAppendedLines(file, INITIAL_READER_STATE, (text, line) => addLiveLine(once, text, line));
        expect(problems, base.label).toEqual([]);
        expect(figures, base.label).toEqual(once);
      }),
      { seed: SEED, numRuns: 200, interruptAfterTimeLimit: 3_000, markInterruptAsFailure: false },
    );
  }, 30_000);
});
