import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { DEFAULT_CLAUDE_CODE_KNOBS } from '../../src/engine/strategies/claude-code/knobs';
import type { HostState } from '../../src/worker/engine-host';
import { REPLAY_HANDLERS } from '../../src/worker/replay-handlers';

// On a forked session the replay run follows the branch the user picked; a knob sweep must follow
// the same branch, or its figures describe another history than the run beside it.

const FIXTURE = resolve(__dirname, '../fixtures/rewind.jsonl');

async function loadRewind(): Promise<HostState> {
  const session = await parseSession([createMemorySource('rewind.jsonl', readFileSync(FIXTURE))]);
  expect(session.branches?.branches.length, 'the rewind fixture forks once').toBe(2);
  return {
    loaded: {
      sessionId: 1,
      session,
      sources: [],
      rowIndexCache: new Map(),
      fullTextCache: new Map(),
    },
  };
}

const context = (state: HostState) => ({
  state,
  signal: new AbortController().signal,
  onProgress: () => {},
});

describe('replay handlers on a forked session', () => {
  it('the sweep follows the branch the run follows', async () => {
    const state = await loadRewind();
    const base = {
      sessionId: 1,
      strategyId: 'claude-code',
      overrides: { ...DEFAULT_CLAUDE_CODE_KNOBS },
      summaryModel: 'recorded' as const,
      range: { knob: 'autocompactPctOverride', from: 50, to: 100, steps: 2 },
    };
    const peak = async (branchId: number) => {
      const sweep = await REPLAY_HANDLERS['replay-sweep'](
        { kind: 'replay-sweep', ...base, branchId },
        context(state),
      );
      return sweep.result.points.at(-1)?.peakContextTokens ?? 0;
    };
    // The abandoned branch holds the 60,000-char result the main line never saw (rewind.jsonl):
    // its context peaked at 36,000, the main line's near 21,000.
    expect(await peak(1)).toBeGreaterThan((await peak(0)) + 10_000);
  });
});
