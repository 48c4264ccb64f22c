import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { computeReplay } from '../../src/engine/replay/compute-replay';
import { formatReplayDump } from '../../src/engine/replay/dump';
import { checkReplayInvariants } from './invariants';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { BOUNDARY_SCORING_STRATEGY } from '../../src/engine/strategies/boundary-scoring';
import { getBoundaryScores } from '../../src/engine/strategies/boundary-scoring/detail';
import { getSessionInfo } from '../../src/engine/strategies/types';
import type { Session } from '../../src/engine/types';
import { buildTranscript, growingSpec } from './transcript-fixture';

// Golden replay dumps of the boundary-scoring strategy (STYLE.md §7): the replay dump, then each
// compaction's candidate splits as `message:score` (`*` chosen, `!` unsafe). `UPDATE_GOLDEN=1`
// rewrites them; review the diff.

const ROOT = resolve(__dirname, '../..');
const GOLDEN = resolve(__dirname, '../golden/replay/boundary-scoring');

function dump(session: Session, variants: { label: string; knobs: Record<string, unknown> }[]): string {
  const prepared = prepareReplay(session);
  const { knobs: logKnobs, notes } = BOUNDARY_SCORING_STRATEGY.getSessionKnobs(getSessionInfo(prepared));
  const parts: string[] = [];
  for (const { label, knobs } of [{ label: 'defaults', knobs: {} }, ...variants]) {
    const result = computeReplay(prepared, 'boundary-scoring', { ...logKnobs, ...knobs });
    expect(checkReplayInvariants(prepared, result)).toEqual([]);
    parts.push(`== ${label}`, formatReplayDump(prepared, result));
    for (const [i, e] of result.events.entries()) {
      const boundaryScores = getBoundaryScores(e);
      if (!boundaryScores) continue;
      const scores = boundaryScores.map(
        (c) => `${c.messageIndex}:${c.score}${c.chosen ? '*' : ''}${c.unsafe ? '!' : ''}`,
      );
      parts.push(`  #${i} candidates ${scores.join(' ')}`);
    }
    if (label === 'defaults') parts.push(...notes.map((n) => `note: ${n}`));
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
  { label: 'threshold 60,000', knobs: { thresholdTokens: 60_000 } },
  {
    label: 'counter: the simulated context, threshold 100,000',
    knobs: { counter: 'context', thresholdTokens: 100_000 },
  },
  {
    label: 'no preserved results, no tool summary, threshold 60,000',
    knobs: { thresholdTokens: 60_000, preserveToolResults: false, preserveToolCalls: false },
  },
];

describe('boundary-scoring replay dumps (golden)', () => {
  it('tiny.jsonl', async () => {
    const session = await parseSession([
      createMemorySource('tiny.jsonl', readFileSync(join(ROOT, 'tests/fixtures/tiny.jsonl'))),
    ]);
    compareGolden(
      'tiny',
      dump(session, [
        ...VARIANTS,
        {
          label: 'threshold 1,000, 4 messages, tail 2',
          knobs: { thresholdTokens: 1_000, minMessages: 4, tailMessages: 2 },
        },
      ]),
    );
  });

  it('the bundled sample', async () => {
    const index = JSON.parse(readFileSync(join(ROOT, 'public/samples/index.json'), 'utf8'));
    const files: string[] = index.files.map((f: { path: string }) => `public/samples/${f.path}`);
    const session = await parseSession(
      files.map((f) => createMemorySource(f.split('/').pop()!, readFileSync(join(ROOT, f)))),
    );
    compareGolden('sample', dump(session, VARIANTS));
  });

  it('a generated growing session', async () => {
    const lines = buildTranscript(growingSpec(70, { stepTokens: 4_000 }));
    const session = await parseSession([createMemorySource('growing.jsonl', `${lines.join('\n')}\n`)]);
    compareGolden('growing', dump(session, VARIANTS));
  });
});
