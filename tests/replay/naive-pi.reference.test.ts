import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { generateSession } from '../../sample/generate-session';
import { expectAgreement } from './naive-pi-agreement';
import { REPLAY_FIXTURES } from './replay-fixtures';

// The `reference` stage (npm test runs it after `unit`; vitest project `reference`): the fast
// pi replay against its naive reference on the big generated seeds and the bundled
// sample, hundreds of calls each. naive-pi.test.ts checks small sessions per commit.

describe('fast replay = naive replay: pi, big sessions', () => {
  for (const seed of [3, 11]) {
    it(`agrees on a generated session (seed ${seed})`, async () => {
      const g = generateSession({ seed, apiCalls: 300 });
      const session = await parseSession(g.files.map((f) => createMemorySource(f.name, f.text)));
      expect(expectAgreement(prepareReplay(session), `seed ${seed}`)).toBeGreaterThan(5);
    });
  }

  it.each(REPLAY_FIXTURES.filter((f) => f.name === 'sample'))('agrees on $label', async ({ name, load }) => {
    const prepared = prepareReplay(await load());
    expect(expectAgreement(prepared, name)).toBeGreaterThan(0);
  });
});
