import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LiveParse, type LiveParseResult, parseForLive } from '../../src/engine/parse/live-parse';
import { parseSession } from '../../src/engine/parse/parse-session';
import { RecordCache } from '../../src/engine/parse/record-cache';
import { type ByteSource, createMemorySource } from '../../src/engine/parse/source';
import { generateSessionLines } from '../../sample/generate-session';
import { CORPUS, corpusOrSkip } from '../helpers/corpus';

// Live mode over a session of several files (a main log and its subagent logs, their .meta.json):
// whatever grew between two steps, and wherever each file was cut, the session a `LiveParse` builds
// from its kept lines plus the bytes it reads must be the one a whole parse of the same files
// gives (entries, calls, compactions, sidechains, issues, line numbers, offsets: `toEqual` over
// the whole `Session`), and the bytes it reads must be the bytes appended since the last step.

/** A small LCG: the same cuts on every run. */
function createRandom(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x / 2 ** 32;
  };
}

/** Offset just past the last newline of `bytes` (0 when it has none). */
function wholeLinesEnd(bytes: Uint8Array): number {
  return bytes.lastIndexOf(0x0a) + 1;
}

/** Which bytes of each file exist at one step (absent: the file is not written yet). */
type Step = Map<string, Uint8Array>;

interface Grown {
  steps: number;
  reparses: string[];
  /** Steps where the bytes read were not the bytes appended (should be none). */
  misread: string[];
}

/**
 * Feeds `steps` to a live parse (the first one opens it, or `adopt`s a load of it) and checks each
 * step against a whole parse of the same files. `order`: the session's file names, main first.
 */
async function growAndCompare(order: string[], steps: Step[], opts: { load?: boolean } = {}): Promise<Grown> {
  const sourcesAt = (step: Step): ByteSource[] =>
    order.filter((n) => step.has(n)).map((n) => createMemorySource(n, step.get(n)!));
  const first = at(steps, 0);
  let live: LiveParse;
  if (opts.load) {
    const sources = sourcesAt(first);
    live = await LiveParse.adopt(sources, await parseForLive(sources));
  } else live = (await LiveParse.open(sourcesAt(first))).live;
  expect(live.current).toEqual(await parseSession(sourcesAt(first)));
  const reparses: string[] = [];
  const misread: string[] = [];
  let previous = first;
  for (let i = 1; i < steps.length; i++) {
    const step = at(steps, i);
    const sources = sourcesAt(step);
    const result: LiveParseResult = await live.append(sources);
    expect(live.current, `step ${i}`).toEqual(await parseSession(sources));
    if (result.reparsed) reparses.push(result.reparsed);
    else {
      // Appended bytes: past the last newline read before (a partial line is read again); a new
      // file whole; a whole-read file (.meta.json) only when it is new.
      let appended = 0;
      for (const [name, bytes] of step) {
        const before = previous.get(name);
        if (name.endsWith('.jsonl')) appended += bytes.byteLength - (before ? wholeLinesEnd(before) : 0);
        else if (!before) appended += bytes.byteLength;
      }
      if (result.readBytes !== appended)
        misread.push(`step ${i}: read ${result.readBytes}, appended ${appended}`);
    }
    previous = step;
  }
  return { steps: steps.length, reparses, misread };
}

function at<T>(list: readonly T[], i: number): T {
  const v = list[i];
  if (v === undefined) throw new RangeError(`no item ${i}`);
  return v;
}

/**
 * Steps over a generated session in its write order (main and subagent lines interleaved as the
 * agent wrote them): each step `count` lines further, a subagent file sometimes cut inside its next
 * line; the main file always at a newline (the page cuts it there, follow.ts).
 */
function generatedSteps(seed: number, stepCount: number): { order: string[]; steps: Step[] } {
  const lines = [...generateSessionLines({ seed, apiCalls: 160 })];
  const order: string[] = [];
  for (const l of lines) if (!order.includes(l.file)) order.push(l.file);
  const random = createRandom(seed);
  const encoder = new TextEncoder();
  // From the first line of a second file on (a session that has one file at first is read whole
  // once when its second file comes: tested below).
  const second = lines.findIndex((l) => l.file !== order[0]) + 1;
  const cuts = new Set<number>();
  while (cuts.size < stepCount - 1) cuts.add(second + Math.floor(random() * (lines.length - second)));
  const steps: Step[] = [];
  for (const n of [...[...cuts].sort((a, b) => a - b), lines.length]) {
    const texts = new Map<string, string>();
    for (const l of lines.slice(0, n)) texts.set(l.file, `${texts.get(l.file) ?? ''}${l.line}\n`);
    const next = lines[n];
    if (next && next.file !== order[0] && random() < 0.5)
      texts.set(
        next.file,
        `${texts.get(next.file) ?? ''}${next.line.slice(0, 1 + Math.floor(random() * 80))}`,
      );
    steps.push(new Map([...texts].map(([name, text]) => [name, encoder.encode(text)])));
  }
  return { order, steps };
}

describe('LiveParse, several files (generated sessions)', () => {
  for (const seed of [3, 21]) {
    it(`seed ${seed}: every step equals a whole parse, reading only appended bytes`, async () => {
      const { order, steps } = generatedSteps(seed, 40);
      expect(order.length, 'the session has subagent files').toBeGreaterThan(1);
      const grown = await growAndCompare(order, steps);
      expect(grown.reparses).toEqual([]);
      expect(grown.misread).toEqual([]);
    });
  }

  it('a load kept for live mode: the first append reads only the appended bytes', async () => {
    const { order, steps } = generatedSteps(5, 8);
    const grown = await growAndCompare(order, steps.slice(2), { load: true });
    expect(grown.reparses).toEqual([]);
    expect(grown.misread).toEqual([]);
  });

  it('a shrunk or replaced subagent file is read again, and says so; the others are not', async () => {
    const { order, steps } = generatedSteps(21, 6);
    const last = at(steps, steps.length - 1);
    const sub = order.find((n) => n.includes('/subagents/agent-a') && !n.includes('acompact'))!;
    const subBytes = last.get(sub)!;
    const shrunk = new Map(last);
    shrunk.set(sub, subBytes.subarray(0, wholeLinesEnd(subBytes.subarray(0, subBytes.byteLength >> 1))));
    const replaced = new Map(last);
    const changed = subBytes.slice();
    changed[10] = changed[10] === 0x61 ? 0x62 : 0x61;
    replaced.set(sub, changed);
    const live = (await LiveParse.open(order.map((n) => createMemorySource(n, last.get(n)!)))).live;
    const sourcesOf = (step: Step) => order.map((n) => createMemorySource(n, step.get(n)!));
    const a = await live.append(sourcesOf(shrunk));
    expect(a.reparsed).toMatch(/agent-a\w+\.jsonl shrank: read again whole/);
    // What was read of it is gone: the page scores no compaction of this step.
    expect(a.restarted).toBe(true);
    expect(a.readBytes).toBe(shrunk.get(sub)!.byteLength);
    expect(live.current).toEqual(await parseSession(sourcesOf(shrunk)));
    const b = await live.append(sourcesOf(replaced));
    expect(b.reparsed).toMatch(/first bytes changed/);
    expect(b.restarted).toBe(true);
    expect(b.readBytes).toBe(changed.byteLength);
    expect(live.current).toEqual(await parseSession(sourcesOf(replaced)));
    // A file gone from the session is forgotten; one coming back is new.
    const without = order.filter((n) => n !== sub).map((n) => createMemorySource(n, last.get(n)!));
    expect(live.current.files).toHaveLength(order.length);
    // A file gone is no restart: what the others hold was read, and goes on.
    expect((await live.append(without)).restarted).toBeUndefined();
    expect(live.current).toEqual(await parseSession(without));
  });

  it('a session that gets a second file switches to kept lines, once read whole', async () => {
    const { order, steps } = generatedSteps(21, 12);
    const main = at(order, 0);
    const sourcesOf = (step: Step) =>
      order.filter((n) => step.has(n)).map((n) => createMemorySource(n, step.get(n)!));
    const live = (await LiveParse.open(createMemorySource(main, at(steps, 0).get(main)!))).live;
    const switched = await live.append(sourcesOf(at(steps, 0)));
    expect(switched.reparsed).toMatch(/files now: read whole once/);
    expect(switched.indicesKept).toBe(false);
    const next = await live.append(sourcesOf(at(steps, 1)));
    expect(next.reparsed).toBeUndefined();
    expect(live.current).toEqual(await parseSession(sourcesOf(at(steps, 1))));
  });

  it('beyond its limit the cache reads the file whole on each step, and says so', async () => {
    const { order, steps } = generatedSteps(3, 4);
    const sourcesOf = (step: Step) =>
      order.filter((n) => step.has(n)).map((n) => createMemorySource(n, step.get(n)!));
    const live = (await LiveParse.open(sourcesOf(at(steps, 1)), { recordCacheLimitBytes: 10_000 })).live;
    const step = await live.append(sourcesOf(at(steps, 2)));
    expect(step.reparsed).toMatch(/read whole on each step: live mode keeps parsed lines up to/);
    expect(live.current).toEqual(await parseSession(sourcesOf(at(steps, 2))));
  });
});

// A real session folder with subagents, restored to its on-disk layout by the corpus's own tool.
const FOLDERS = [
  'iansherr__claude-code-log/test/test_data/real_projects/-experiments-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1',
  'LAF-US__IDAHO-VAULT/.claude/projects/C--Users-loganf-Documents-IDAHO-VAULT--claude-worktrees-eloquent-lichterman/25924d0f-be49-402b-a8fc-7faa1ff19fad',
];
const present = corpusOrSkip('live-session corpus folders');
const tree = present ? mkdtempSync(join(tmpdir(), 'live-session-')) : '';
afterAll(() => {
  if (tree) rmSync(tree, { recursive: true, force: true });
});

describe.skipIf(!present)('LiveParse, several files (corpus folders with subagents)', () => {
  for (const folder of FOLDERS) {
    it(`${folder.split('/').pop()}: random cuts of every file equal a whole parse`, async () => {
      if (readdirSync(tree).length === 0)
        execFileSync('python3', [resolve(CORPUS, 'stats.py'), '--restore-tree', tree], { stdio: 'ignore' });
      const dir = join(tree, folder);
      const session = folder.split('/').pop()!;
      const names = [
        `${session}.jsonl`,
        ...readdirSync(join(dir, 'subagents'))
          .sort()
          .map((f) => `${session}/subagents/${f}`),
      ];
      expect(names.length).toBeGreaterThan(2);
      const parent = join(dir, '..');
      const bytes = new Map(names.map((n) => [n, new Uint8Array(readFileSync(join(parent, n)))]));
      const random = createRandom(names.length * 7919);
      // Each file starts at a random step and grows to its end by random whole-line or mid-line
      // cuts (the main file at newlines); a .meta.json is written whole with its agent's file.
      const stepCount = 24;
      // The first subagent log is there from the start (a session with one file at first is read
      // whole once when its second file comes: tested above).
      const starts = new Map(names.map((n, i) => [n, i <= 1 ? 0 : Math.floor(random() * stepCount * 0.7)]));
      for (const n of names)
        if (n.endsWith('.meta.json')) starts.set(n, starts.get(n.replace('.meta.json', '.jsonl')) ?? 0);
      const fractions = new Map(
        names.map((n) => [
          n,
          Array.from({ length: stepCount }, () => random())
            .sort((a, b) => a - b)
            .map((f, i) => (i === stepCount - 1 ? 1 : f)),
        ]),
      );
      const steps: Step[] = [];
      for (let s = 0; s < stepCount; s++) {
        const step: Step = new Map();
        for (const n of names) {
          if (s < starts.get(n)!) continue;
          const all = bytes.get(n)!;
          if (!n.endsWith('.jsonl')) {
            step.set(n, all);
            continue;
          }
          let end = Math.floor(at(fractions.get(n)!, s) * all.byteLength);
          if (n === names[0] || random() < 0.5) end = wholeLinesEnd(all.subarray(0, end));
          step.set(n, all.subarray(0, end));
        }
        steps.push(step);
      }
      const grown = await growAndCompare(names, steps);
      expect(grown.reparses).toEqual([]);
      expect(grown.misread).toEqual([]);
    });
  }
});

// Each step normalizes the kept values again: a normalizer that changed a record it was given
// would make the second build differ. Every dialect's fixtures, built twice from one cache.
const FIXTURES = resolve(__dirname, '../fixtures');
function fixtureSessions(): { label: string; names: string[]; root: string }[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
      d.isDirectory() ? walk(join(dir, d.name)).map((p) => `${d.name}/${p}`) : [d.name],
    );
  const singles = ['agents', 'api', '.']
    .flatMap((dir) =>
      walk(join(FIXTURES, dir))
        .filter((p) => !p.includes('/'))
        .map((p) => join(dir, p)),
    )
    .filter((p) => /\.(jsonl|json)$/.test(p) && !p.includes('one-million'));
  return [
    ...singles.map((p) => ({ label: p, names: [p.split('/').pop()!], root: join(FIXTURES, p, '..') })),
    { label: 'folder', names: walk(join(FIXTURES, 'folder')).sort(), root: join(FIXTURES, 'folder') },
    {
      label: 'cline-task',
      names: walk(join(FIXTURES, 'cline-task')).sort(),
      root: join(FIXTURES, 'cline-task'),
    },
    ...['storage', 'broken'].map((s) => ({
      label: `opencode ${s}`,
      names: walk(join(FIXTURES, 'opencode', s))
        .sort()
        .map((p) => `${s}/${p}`),
      root: join(FIXTURES, 'opencode'),
    })),
  ];
}

describe('RecordCache: kept values built again give a whole parse (every dialect)', () => {
  for (const { label, names, root } of fixtureSessions()) {
    it(label, async () => {
      const sources = names.map((n) => createMemorySource(n, new Uint8Array(readFileSync(join(root, n)))));
      const whole = await parseSession(sources);
      const cache = new RecordCache();
      for (let i = 0; i < 3; i++) {
        expect(await parseSession(sources, { recordCache: cache }), `parse ${i + 1}`).toEqual(whole);
        // From the second parse on, JSON lines come from the cache: only a last line without its
        // newline is read again (whole-read files are not JSON lines: not counted here).
        if (i > 0 && names.every((n) => n.endsWith('.jsonl'))) {
          let unfinished = 0;
          for (const n of names) {
            const bytes = readFileSync(join(root, n));
            unfinished += bytes.byteLength - (bytes.lastIndexOf(0x0a) + 1);
          }
          expect(cache.readBytes).toBe(unfinished);
        }
      }
    });
  }
});
