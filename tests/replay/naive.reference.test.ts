import { describe, expect, it } from 'vitest';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { expectAgreement, generated } from './naive-agreement';
import { REPLAY_FIXTURES } from './replay-fixtures';

// The `reference` stage (npm test runs it after `unit`; vitest project `reference`): the fast
// Claude Code replay against the naive one on the big generated seeds and the bundled sample,
// hundreds of calls each. naive.test.ts checks small sessions per commit.

describe('fast replay = naive replay: claude-code, big sessions', () => {
  for (const seed of [3, 11]) {
    it(`agrees on a generated session (seed ${seed})`, async () => {
      const prepared = prepareReplay(await generated(seed, 450));
      expect(expectAgreement(prepared, `seed ${seed}`)).toBeGreaterThan(10);
    });
  }

  it.each(REPLAY_FIXTURES.filter((f) => f.name === 'sample'))('agrees on $label', async ({ name, load }) => {
    const prepared = prepareReplay(await load());
    expect(expectAgreement(prepared, name)).toBeGreaterThan(0);
  });
});
