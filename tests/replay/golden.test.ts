import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { formatReplayDump } from '../../src/engine/replay/dump';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { computeReplay } from '../../src/engine/replay/compute-replay';
import { checkReplayInvariants } from '../../src/engine/replay/invariants';
import { CLAUDE_CODE_STRATEGY } from '../../src/engine/strategies/claude-code';
import { getStrategy } from '../../src/engine/strategies/registry';
import type { ClaudeCodeKnobs } from '../../src/engine/strategies/claude-code-knobs';
import { getSessionInfo } from '../../src/engine/strategies/types';
import type { Session } from '../../src/engine/types';
import { runReplay } from './run-replay';
import { buildTranscript, growingSpec } from './transcript-fixture';

// Golden replay dumps (STYLE.md §7): a transcript in, one line per replay event out, plus how
// the replay compares with the log. `UPDATE_GOLDEN=1` rewrites them; review the diff.

const ROOT = resolve(__dirname, '../..');
const GOLDEN = resolve(__dirname, '../golden/replay');
const CORPUS = resolve(ROOT, '../shared/corpus');

function dumpReplay(
  session: Session,
  variants: { label: string; knobs: Partial<ClaudeCodeKnobs> }[],
): string {
  const prepared = prepareReplay(session);
  const { knobs: logKnobs, notes } = CLAUDE_CODE_STRATEGY.getSessionKnobs(getSessionInfo(prepared));
  const parts: string[] = [];
  for (const { label, knobs } of [{ label: "the log's own knobs", knobs: {} }, ...variants]) {
    const { result } = runReplay(prepared, { ...logKnobs, ...knobs });
    parts.push(`== ${label}`, formatReplayDump(prepared, result));
    if (label === "the log's own knobs") parts.push(...notes.map((n) => `note: ${n}`));
  }
  return `${parts.join('\n')}\n`;
}

function compareGolden(name: string, actual: string): void {
  const path = join(GOLDEN, `${name}.txt`);
  if (process.env.UPDATE_GOLDEN || !existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, actual);
  }
  expect(actual).toBe(readFileSync(path, 'utf8'));
}

const VARIANTS = [
  { label: 'window 300,000', knobs: { contextWindow: 300_000 } },
  {
    label: 'microcompact on (v2.1.68)',
    knobs: { microcompactEnabled: true, microcompactVariant: 'v2.1.68' as const },
  },
  { label: 'override 60%', knobs: { autocompactPctOverride: 60 } },
];

describe('replay dumps (golden): fixtures', () => {
  it('tiny.jsonl', async () => {
    const session = await parseSession([
      createMemorySource('tiny.jsonl', readFileSync(join(ROOT, 'tests/fixtures/tiny.jsonl'))),
    ]);
    compareGolden('tiny', dumpReplay(session, VARIANTS));
  });

  it('the bundled sample', async () => {
    const index = JSON.parse(readFileSync(join(ROOT, 'public/samples/index.json'), 'utf8'));
    const files: string[] = index.files.map((f: { path: string }) => `public/samples/${f.path}`);
    const session = await parseSession(
      files.map((f) => createMemorySource(f.split('/').pop()!, readFileSync(join(ROOT, f)))),
    );
    compareGolden('sample', dumpReplay(session, VARIANTS));
  });

  it('a growing session with a real auto and a manual compaction', async () => {
    const spec = growingSpec(70);
    spec.boundaries = [
      {
        afterCall: 29,
        trigger: 'auto',
        preTokens: 165_000,
        summaryChars: 9_000,
        reattached: ['/work/demo/src/file1.ts'],
      },
      { afterCall: 55, trigger: 'manual', preTokens: 150_000, summaryChars: 6_000 },
    ];
    for (let k = 30; k < 70; k++) spec.calls[k]!.context = 30_000 + ((k - 30) % 26) * 5_000;
    spec.micro = [
      {
        afterCall: 40,
        cleared: [
          [31, 0],
          [32, 0],
        ],
        tokensSaved: 9_700,
      },
    ];
    const lines = buildTranscript(spec);
    const session = await parseSession([createMemorySource('growing.jsonl', `${lines.join('\n')}\n`)]);
    compareGolden('growing', dumpReplay(session, VARIANTS));
  });
});

/** Another strategy's dump: the log's own knobs for it, then each variant's overrides. */
function dumpStrategy(
  session: Session,
  strategyId: string,
  variants: { label: string; knobs: Record<string, unknown> }[],
): string {
  const strategy = getStrategy(strategyId);
  const prepared = prepareReplay(session);
  const { knobs: logKnobs, notes } = strategy.getSessionKnobs(getSessionInfo(prepared));
  const parts: string[] = [];
  for (const { label, knobs } of [{ label: "the log's own knobs", knobs: {} }, ...variants]) {
    const result = computeReplay(prepared, strategyId, strategy.normalizeKnobs(knobs, logKnobs));
    expect(checkReplayInvariants(prepared, result), label).toEqual([]);
    parts.push(`== ${label}`, formatReplayDump(prepared, result));
    if (label === "the log's own knobs") parts.push(...notes.map((n) => `note: ${n}`));
  }
  return `${parts.join('\n')}\n`;
}

const CLINE_VARIANTS = [
  { label: 'window 100,000', knobs: { contextWindow: 100_000 } },
  {
    label: 'window 60,000, no dedup, a quarter kept',
    knobs: { contextWindow: 60_000, dedupEnabled: false, truncateKeep: 'quarter' },
  },
  { label: 'auto-condense at 40%', knobs: { useAutoCondense: true, autoCondensePercent: 40 } },
];

async function readSample(): Promise<Session> {
  const index = JSON.parse(readFileSync(join(ROOT, 'public/samples/index.json'), 'utf8'));
  const files: string[] = index.files.map((f: { path: string }) => `public/samples/${f.path}`);
  return parseSession(files.map((f) => createMemorySource(f.split('/').pop()!, readFileSync(join(ROOT, f)))));
}

describe('replay dumps (golden): the Cline strategy', () => {
  it('the Cline task folder', async () => {
    const dir = join(ROOT, 'tests/fixtures/cline-task');
    const session = await parseSession(
      readdirSync(dir).map((f) => createMemorySource(f, readFileSync(join(dir, f)))),
    );
    compareGolden('cline-task', dumpStrategy(session, 'cline', CLINE_VARIANTS));
  });

  it('tiny.jsonl', async () => {
    const session = await parseSession([
      createMemorySource('tiny.jsonl', readFileSync(join(ROOT, 'tests/fixtures/tiny.jsonl'))),
    ]);
    compareGolden('cline-tiny', dumpStrategy(session, 'cline', CLINE_VARIANTS));
  });

  it('the bundled sample', async () => {
    compareGolden('cline-sample', dumpStrategy(await readSample(), 'cline', CLINE_VARIANTS));
  });

  const clineLog = join(CORPUS, 'CoreGems__Cline-Xray/task_sample__ui_messages.json');
  it.skipIf(!existsSync(clineLog))('the corpus Cline UI log (skipped without ../shared)', async () => {
    const session = await parseSession([createMemorySource('ui_messages.json', readFileSync(clineLog))]);
    compareGolden('corpus/cline-task_sample', dumpStrategy(session, 'cline', []));
  });
});

function corpusFiles(): string[] {
  if (!existsSync(CORPUS)) return [];
  const out: string[] = [];
  for (const dir of readdirSync(CORPUS, { withFileTypes: true })) {
    if (!dir.isDirectory()) continue;
    for (const f of readdirSync(join(CORPUS, dir.name)))
      if (f.endsWith('.jsonl')) out.push(join(CORPUS, dir.name, f));
  }
  return out.sort();
}

const corpus = corpusFiles();
// One golden per corpus transcript that compacts (numbers only: no text of the logs is stored).
describe.skipIf(corpus.length === 0)('replay dumps (golden): corpus', () => {
  it.each(
    corpus.map((f) => ({
      file: f,
      // The session or agent id only: the rest of a corpus name is someone's project path.
      name: basename(f, '.jsonl').split('__').pop()!,
    })),
  )('$name', async ({ file, name }) => {
    const session = await parseSession([createMemorySource(basename(file), readFileSync(file))]);
    // The replay models Claude Code; other dialects' compactions are not its to reproduce.
    if (!session.compactions.length || session.format !== 'claude-code') return;
    compareGolden(`corpus/${name}`, dumpReplay(session, []));
  });
});
if (corpus.length === 0)
  describe.skip('replay dumps (golden): corpus — ../shared/corpus is absent', () => it('skipped'));
