import { at } from '../../src/engine/assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import type { Session } from '../../src/engine/types';
import { generateSession } from '../../sample/generate-session';
import { joinLines, mutateLines, mutationArb, type OutputLine } from './mutate-session';
import { CORPUS, corpusOrSkip } from '../helpers/corpus';

// Real-shaped sessions (the sample generator, and the first lines of real logs when ../shared is
// there) are damaged the ways logs get damaged; the parser must keep every untouched line, name
// every bad line at its own line number, never throw, and take time linear in the input.

const SEED = 20_261_124;
/** Lines taken from the start of each corpus file, and the longest line kept (characters). */
const CORPUS_LINES = 60;
const CORPUS_MAX_LINE_CHARS = 200_000;
const CORPUS_FILES = 6;

function corpusBases(): string[][] {
  if (!corpusOrSkip('fuzz: corpus lines')) return [];
  const files: string[] = [];
  for (const dir of readdirSync(CORPUS).sort()) {
    const path = join(CORPUS, dir);
    if (!statSync(path).isDirectory()) continue;
    for (const f of readdirSync(path).sort()) {
      if (f.endsWith('.jsonl') && !f.includes('rollout-') && !f.includes('agent-')) files.push(join(path, f));
    }
  }
  const bases: string[][] = [];
  // Every k-th file, so the picks spread over the corpus's sources.
  const step = Math.max(1, Math.floor(files.length / CORPUS_FILES));
  for (let k = 0; k < files.length && bases.length < CORPUS_FILES; k += step) {
    const lines = readFileSync(at(files, k), 'utf8')
      .split('\n')
      .slice(0, CORPUS_LINES)
      .filter((l) => l.trim() !== '' && l.length <= CORPUS_MAX_LINE_CHARS && isJson(l));
    if (lines.length >= 9 && lines.some((l) => l.includes('"sessionId"'))) bases.push(lines);
  }
  return bases;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const looseUtf8 = new TextDecoder('utf-8');

function isUtf8(bytes: Uint8Array): boolean {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

const generatedBases = [3, 5, 8].map((seed) =>
  at(generateSession({ seed, apiCalls: 8 }).files, 0)
    .text.trimEnd()
    .split('\n'),
);
const bases = [...generatedBases, ...corpusBases()];

const PARSE_CODES = new Set(['not-json', 'truncated-line', 'concatenated-records']);

/** Checks one mutated file's parse against what each of its lines should give. */
function checkSession(session: Session, lines: OutputLine[], finalNewline: boolean): string[] {
  const problems: string[] = [];
  const entriesAt = new Map<number, number>();
  for (const e of session.entries) entriesAt.set(e.line, (entriesAt.get(e.line) ?? 0) + 1);
  const codesAt = new Map<number, string[]>();
  for (const issue of session.issues) {
    if (issue.line === 0) problems.push(`whole-file issue ${issue.code}: ${issue.message}`);
    codesAt.set(issue.line, [...(codesAt.get(issue.line) ?? []), issue.code]);
  }
  lines.forEach((out, k) => {
    const line = k + 1;
    const text = looseUtf8.decode(out.bytes);
    const entries = entriesAt.get(line) ?? 0;
    const codes = codesAt.get(line) ?? [];
    const say = (what: string) =>
      problems.push(`line ${line} (${out.mutation ?? 'untouched'}): ${what}; codes ${codes.join(',')}`);
    if (!out.mutation) {
      if (entries !== 1) say(`${entries} entries, want 1`);
      if (codes.some((c) => PARSE_CODES.has(c) || c === 'invalid-utf8')) say('a parse issue on a valid line');
      return;
    }
    if (text.trim() === '') return;
    if (!isUtf8(out.bytes) && !codes.includes('invalid-utf8')) say('invalid UTF-8 not named');
    if (isJson(text)) {
      if (entries < 1) say('valid JSON without an entry');
      return;
    }
    const last = k === lines.length - 1 && !finalNewline;
    if (last && !codes.includes('truncated-line')) say('cut-off last line not named truncated-line');
    if (!codes.some((c) => PARSE_CODES.has(c))) say('bad JSON not named');
  });
  return problems;
}

describe('parseSession on mutated real-shaped sessions', () => {
  it(`keeps every valid line and names every bad one at its line (${bases.length} bases)`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: bases.length - 1 }),
        fc.array(fc.tuple(fc.nat(), mutationArb), { minLength: 1, maxLength: 12 }),
        fc.boolean(),
        fc.constantFrom(1_024, 65_536, undefined),
        async (base, mutations, finalNewline, chunkBytes) => {
          const lines = mutateLines(at(bases, base), mutations);
          const bytes = joinLines(lines, finalNewline);
          const session = await parseSession([createMemorySource('fuzz.jsonl', bytes)], { chunkBytes });
          expect(checkSession(session, lines, finalNewline)).toEqual([]);
        },
      ),
      { seed: SEED, numRuns: 150, interruptAfterTimeLimit: 8_000, markInterruptAsFailure: false },
    );
  }, 20_000);

  it('reads a real record flipped at 200 spread positions without losing its neighbours', async () => {
    const lines = at(generatedBases, 0);
    const record = lines.findIndex((l) => l.includes('"type":"assistant"'));
    const bytes = new TextEncoder().encode(at(lines, record));
    const problems: string[] = [];
    // About 200 positions, one byte value each: cycling values cover quotes, braces, NUL, high bytes.
    for (let at = 0; at < bytes.length; at += 1 + Math.floor(bytes.length / 200)) {
      const byte = [0x22, 0x7b, 0x7d, 0x5c, 0xff, 0x00, 0x3a][at % 7] ?? 0x22;
      const out = mutateLines(lines, [[record, { kind: 'flip', at: at / (bytes.length - 1), byte }]]);
      const session = await parseSession([createMemorySource('flip.jsonl', joinLines(out, true))]);
      problems.push(...checkSession(session, out, true).map((p) => `flip ${at}: ${p}`));
    }
    expect(problems).toEqual([]);
  });
});

describe('parse time on bad input', () => {
  const record = at(generatedBases, 0).find((l) => l.includes('"type":"assistant"')) ?? '';
  const first = at(generatedBases, 0);
  const next = at(first, first.length - 1);

  /** A cut assistant record inside `depth` nested objects, with the next record appended. */
  const brokenNested = (depth: number) =>
    `${'{"n":'.repeat(depth)}${record.slice(0, record.length >> 1)}${next}`;

  /**
   * The parse's CPU time (this process's user + system, in ms), the best of 5: CPU time, not wall
   * time, so that other jobs on a shared 2-core machine do not stretch it (each test file runs in a
   * process of its own pool, one file at a time).
   */
  async function parseMs(text: string): Promise<number> {
    const source = createMemorySource('t.jsonl', text);
    let best = Number.POSITIVE_INFINITY;
    for (let run = 0; run < 5; run++) {
      const start = process.cpuUsage();
      await parseSession([source]);
      const used = process.cpuUsage(start);
      best = Math.min(best, (used.user + used.system) / 1000);
    }
    return best;
  }

  it('parses a line of 10,000 nested objects well under a second', async () => {
    const text = `${at(generatedBases, 0).slice(0, 5).join('\n')}\n${brokenNested(10_000)}\n`;
    const session = await parseSession([createMemorySource('deep.jsonl', text)]);
    expect(session.issues).toContainEqual(expect.objectContaining({ line: 6, code: 'concatenated-records' }));
    expect(await parseMs(text)).toBeLessThan(1_000);
  });

  it('takes about twice as long for twice as many bad lines', async () => {
    const file = (copies: number) => {
      const lines = [...at(generatedBases, 1).slice(0, 5)];
      for (let k = 0; k < copies; k++)
        lines.push(brokenNested(20 + (k % 40)), record.slice(0, 200 + k), next);
      return `${lines.join('\n')}\n`;
    };
    await parseMs(file(50)); // warm-up
    const small = await parseMs(file(200));
    const large = await parseMs(file(400));
    // Linear gives 2×; allow for a noisy shared machine, far below the old doubling per object.
    expect(large / small).toBeLessThan(5);
  });
});
