import { describe, expect, it } from 'vitest';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { INVARIANT_FIXTURES } from './replay-fixtures';
import { logKnobsOf, runStrategy, strategyCases, variantsOf } from './strategy-variants';

// The replay invariants (tests/replay/invariants.ts: pairs never split, nothing cleared twice, context
// under the threshold after a compaction or the event says why, series finite) on every
// registered strategy, at each fixture's own knobs and every variant of the strategy.

describe.each(strategyCases())('replay invariants: $id', ({ id }) => {
  it('hold on every fixture at the log knobs and every variant, and the replays act', async () => {
    let events = 0;
    for (const fixture of INVARIANT_FIXTURES) {
      const prepared = prepareReplay(await fixture.load());
      const { knobs } = logKnobsOf(prepared, id);
      for (const variant of [{ label: 'log knobs', knobs: {} }, ...variantsOf(id)]) {
        const result = runStrategy(prepared, id, { ...knobs, ...variant.knobs });
        expect(result.simulatedTokens.length, `${fixture.name}, ${variant.label}`).toBe(
          prepared.calls.length,
        );
        events += result.events.length;
      }
    }
    // Invariants over replays that never act would check nothing.
    expect(events, `${id} acted somewhere`).toBeGreaterThan(0);
  });
});
