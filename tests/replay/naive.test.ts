import { describe, expect, it } from 'vitest';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { expectAgreement, generated } from './naive-agreement';
import { REPLAY_FIXTURES } from './replay-fixtures';
import { growingSpec, parseFixture } from './transcript-fixture';

// The fast replay against the deliberately naive one (tests/replay/reference/claude-code.ts) on a
// small generated transcript and the fixtures, per commit (naive-agreement.ts); the big seeds and
// the sample in naive.reference.test.ts.

// Cline's own naive reference (tests/replay/reference/cline.ts) is checked in tests/replay/cline-strategy.test.ts;
// OpenCode's prune (tests/replay/reference/opencode.ts: logs without compactions, auto-compaction off) in
// tests/replay/opencode-strategy.test.ts — its compaction is Claude Code's full summary at another line;
// Roo's sliding window (tests/replay/reference/roo.ts; its condense is a full summary as Claude Code's) in
// tests/replay/roo-strategy.test.ts; the summaries with a kept range after them, pi's
// (tests/replay/reference/pi.ts) in tests/replay/naive-pi.test.ts and boundary-scoring's
// (tests/replay/reference/boundary-scoring.ts, its scores shared) in tests/replay/naive-boundary-scoring.test.ts.
// Which strategies have a reference, and why the others have none: tests/engine/registry-structure.test.ts.

describe('fast replay = naive replay: claude-code', () => {
  // Small, per commit; the 450-call seeds and the sample: naive.reference.test.ts. It starts at
  // 100,000 tokens, so 120 calls reach every threshold (16 events over the knob sets).
  it('agrees on a small generated session (seed 3, 120 calls from 100,000 tokens)', async () => {
    const prepared = prepareReplay(await generated(3, 120, 100_000));
    expect(expectAgreement(prepared, 'seed 3, 120 calls')).toBeGreaterThan(10);
  });

  it('agrees where microcompact and a full compaction follow the same call (edge case 6)', async () => {
    const prepared = prepareReplay(
      (await parseFixture(growingSpec(9, { start: 25_000, stepTokens: 25_000 }))).session,
    );
    expect(expectAgreement(prepared, 'same turn')).toBeGreaterThan(0);
  });

  it.each(REPLAY_FIXTURES.filter((f) => f.name !== 'growing' && f.name !== 'sample'))(
    'agrees on $label',
    async ({ name, load }) => {
      const prepared = prepareReplay(await load());
      expect(expectAgreement(prepared, name)).toBeGreaterThan(0);
    },
  );
});
