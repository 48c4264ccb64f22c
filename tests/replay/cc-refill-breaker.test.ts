import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeFileSource } from '../../src/cli/node-source';
import { parseSession } from '../../src/engine/parse/parse-session';
import { computeReplay } from '../../src/engine/replay/compute-replay';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { getStrategy } from '../../src/engine/strategies/registry';
import { getSessionInfo } from '../../src/engine/strategies/types';
import { CORPUS, corpusOrSkip } from '../helpers/corpus';
import { type CallSpec, parseFixture } from './transcript-fixture';
import { runReplay } from './run-replay';

// Claude Code's rapid-refill breaker: the third automatic compaction in a row, each due within 3
// calls of the one before, is not made ("Autocompact is thrashing: the context refilled to the
// limit within 3 turns of the previous compact, 3 times in a row."). A corpus Claude Code 2.1.92
// subagent (session 05541cb5) compacts after its calls 1, 2, 3 and stops so at call 4; the replay,
// now stepping after the last call too (request-after-last-call.test.ts), compacted a fourth time.
// A new prompt starts the count over (the same session's main thread). The breaker is in the npm
// package's cli.js from 2.1.89, not 2.1.88 (docs/sources.md#cc-refill-breaker); 2.1.87 has none (a
// corpus subagent of session cc06da85 compacts after four calls in a row).

/** Calls that each refill a ~176,000-token base (a tool result pending after each). */
const refilling = (n: number, promptAt = -1): CallSpec[] =>
  Array.from({ length: n }, (_, k) => ({
    prompt: k === 0 ? 'Explore the vault.' : k === promptAt ? 'Try again.' : undefined,
    context: 176_000 + k * 300,
    output: 100,
    tools: [{ name: 'Bash', resultChars: 800 }],
  }));

/** The replay's events at the knobs the version gets (the breaker's switch among them). */
const kinds = async (version: string, calls: CallSpec[]) => {
  const prepared = prepareReplay((await parseFixture({ version, calls })).session);
  const { knobs } = getStrategy('claude-code').getSessionKnobs(getSessionInfo(prepared));
  const { result } = runReplay(prepared, { rapidRefillBreaker: knobs.rapidRefillBreaker as boolean });
  return result.events.map((e) => (e.kind === 'compact-failed' ? `failed:${e.failure}` : e.kind));
};

describe('Claude Code rapid-refill breaker', () => {
  it('refuses the third rapid refill in a row, until a new prompt', async () => {
    expect(await kinds('2.1.92', refilling(5))).toEqual([
      'compact',
      'compact',
      'compact',
      'failed:thrashing',
    ]);
    expect(await kinds('2.1.92', refilling(5, 3))).toEqual([
      'compact',
      'compact',
      'compact',
      'compact',
      'compact',
    ]);
  });

  it('is there from 2.1.89, as its cli.js, not before', async () => {
    expect((await kinds('2.1.89', refilling(5))).at(-1)).toBe('failed:thrashing');
    expect(await kinds('2.1.88', refilling(5))).toEqual([
      'compact',
      'compact',
      'compact',
      'compact',
      'compact',
    ]);
  });

  const dir = join(CORPUS, 'LAF-US__IDAHO-VAULT');
  const name = (id: string, agent: string) =>
    join(
      dir,
      `claude__projects__c--Users-loganf-Documents-IDAHO-VAULT__${id}__subagents__agent-${agent}.jsonl`,
    );
  const thrashing = name('05541cb5-fe43-41c9-87ef-2a6d89bba271', 'a6f4214ad9ef22a7f');
  const fourInARow = name('cc06da85-8b62-41f5-9393-d8ff1a51b0df', 'a4be9d337750c67bc');
  const present = corpusOrSkip('rapid-refill breaker on real subagents') && existsSync(thrashing);
  it.skipIf(!present)('holds to the real subagents, with and without the breaker', async () => {
    for (const [file, compactions] of [
      [thrashing, 3],
      [fourInARow, 4],
    ] as const) {
      const session = await parseSession([createNodeFileSource(file)]);
      const prepared = prepareReplay(session);
      const { knobs } = getStrategy('claude-code').getSessionKnobs(getSessionInfo(prepared));
      const { comparison, events } = computeReplay(prepared, 'claude-code', knobs);
      expect(comparison.counts, file).toMatchObject({ matched: compactions, missing: 0, extra: 0 });
      expect(events.filter((e) => e.kind === 'compact-failed').length, file).toBe(compactions === 3 ? 1 : 0);
    }
  });
});
