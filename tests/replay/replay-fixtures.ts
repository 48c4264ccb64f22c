import { readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { at } from '../../src/engine/assert';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import type { Session } from '../../src/engine/types';
import { generateSession } from '../../sample/generate-session';
import { buildTranscript, growingSpec } from './transcript-fixture';

// The transcripts every strategy is replayed on: golden dumps (the first three) and invariants
// (all of them).

const ROOT = resolve(__dirname, '../..');

async function growingSession(): Promise<Session> {
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
  for (let k = 30; k < 70; k++) at(spec.calls, k).context = 30_000 + ((k - 30) % 26) * 5_000;
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
  return parseSession([createMemorySource('growing.jsonl', `${lines.join('\n')}\n`)]);
}

export const REPLAY_FIXTURES: { name: string; label: string; load: () => Promise<Session> }[] = [
  {
    name: 'tiny',
    label: 'tiny.jsonl',
    load: () =>
      parseSession([createMemorySource('tiny.jsonl', readFileSync(join(ROOT, 'tests/fixtures/tiny.jsonl')))]),
  },
  {
    name: 'sample',
    label: 'the bundled sample',
    load: () => {
      const index = JSON.parse(readFileSync(join(ROOT, 'public/samples/index.json'), 'utf8'));
      const files: string[] = index.files.map((f: { path: string }) => `public/samples/${f.path}`);
      return parseSession(files.map((f) => createMemorySource(basename(f), readFileSync(join(ROOT, f)))));
    },
  },
  {
    name: 'growing',
    label: 'a growing session with a real auto and a manual compaction',
    load: growingSession,
  },
];

async function generated(seed: number, apiCalls: number): Promise<Session> {
  const g = generateSession({ seed, apiCalls });
  return parseSession(g.files.map((f) => createMemorySource(f.name, f.text)));
}

/** Golden fixtures plus generated transcripts (the sample generator, two seeds). */
export const INVARIANT_FIXTURES: { name: string; label: string; load: () => Promise<Session> }[] = [
  ...REPLAY_FIXTURES,
  { name: 'generated-3', label: 'a generated session (seed 3, 450 calls)', load: () => generated(3, 450) },
  { name: 'generated-11', label: 'a generated session (seed 11, 450 calls)', load: () => generated(11, 450) },
];
