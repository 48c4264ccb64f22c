import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { generateSession } from '../../sample/generate-session';
import { parsePiSession } from './pi-session';
import { expectAgreement } from './naive-boundary-scoring-agreement';
import { REPLAY_FIXTURES } from './replay-fixtures';
import { growingSpec, parseFixture } from './transcript-fixture';

// The fast boundary-scoring replay against the deliberately naive one
// (tests/replay/reference/boundary-scoring.ts), call by call: the same simulated context, the same
// compactions (call, post-compaction context, summary size, first kept message) and resets.

describe('fast replay = naive replay: boundary-scoring', () => {
  // Small, per commit; the 300-call seeds and the sample: naive-boundary-scoring.reference.test.ts. It
  // starts at 100,000 tokens, so 120 calls reach every threshold.
  it('agrees on a small generated session (seed 3, 120 calls from 100,000 tokens)', async () => {
    const g = generateSession({ seed: 3, apiCalls: 120, initialContextTokens: 100_000 });
    const session = await parseSession(g.files.map((f) => createMemorySource(f.name, f.text)));
    expect(expectAgreement(prepareReplay(session), 'seed 3, 120 calls')).toBeGreaterThan(5);
  });

  it('agrees on a generated transcript that grows past every window', async () => {
    const prepared = prepareReplay((await parseFixture(growingSpec(40))).session);
    expect(expectAgreement(prepared, 'growing 40')).toBeGreaterThan(0);
  });

  it('agrees on a pi session with two logged compactions', async () => {
    const turns = Array.from({ length: 50 }, (_, t) => ({
      promptChars: 400,
      calls: [
        {
          tools: [
            { name: 'read' as const, path: `src/f${t % 9}.ts`, resultChars: 6_000 + ((t * 7919) % 30_000) },
          ],
        },
        {},
      ],
    }));
    const prepared = prepareReplay(
      await parsePiSession({
        turns,
        compactions: [
          { afterTurn: 20, firstKeptTurn: 18, summaryChars: 10_000 },
          { afterTurn: 38, firstKeptTurn: 37, summaryChars: 8_000 },
        ],
      }),
    );
    expect(expectAgreement(prepared, 'pi session')).toBeGreaterThan(0);
  });

  it.each(REPLAY_FIXTURES.filter((f) => f.name !== 'sample'))('agrees on $label', async ({ name, load }) => {
    const prepared = prepareReplay(await load());
    expect(expectAgreement(prepared, name)).toBeGreaterThan(0);
  });
});
