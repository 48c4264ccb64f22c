import { at } from '../../src/engine/assert';
import { expect } from 'vitest';
import { computeReplay, type ReplayOptions } from '../../src/engine/replay/compute-replay';
import { checkReplayInvariants } from './invariants';
import { type PreparedReplay, prepareReplay } from '../../src/engine/replay/prepare';
import type { ReplayResult } from '../../src/engine/replay/types';
import {
  DEFAULT_CLAUDE_CODE_KNOBS,
  type ClaudeCodeKnobs,
} from '../../src/engine/strategies/claude-code/knobs';
import type { Session } from '../../src/engine/types';

/** Runs the Claude Code replay and fails the test on any invariant violation. */
export function runReplay(
  sessionOrPrepared: Session | PreparedReplay,
  knobs: Partial<ClaudeCodeKnobs> = {},
  options: ReplayOptions = {},
): { prepared: PreparedReplay; result: ReplayResult } {
  const prepared = 'calls' in sessionOrPrepared ? sessionOrPrepared : prepareReplay(sessionOrPrepared);
  const result = computeReplay(
    prepared,
    'claude-code',
    { ...DEFAULT_CLAUDE_CODE_KNOBS, microcompactEnabled: false, ...knobs },
    options,
  );
  expect(checkReplayInvariants(prepared, result)).toEqual([]);
  return { prepared, result };
}

/** The first call whose trigger count reaches `threshold`, as Claude Code 2.1.x counts it. */
export function firstCallAtOrAbove(prepared: PreparedReplay, threshold: number, countPending = true): number {
  for (let k = 0; k + 1 < prepared.calls.length; k++) {
    const t =
      at(prepared.recorded, k) +
      at(prepared.output, k) +
      (countPending ? at(prepared.pendingEstimate, k) : 0);
    if (t >= threshold) return k;
  }
  return -1;
}
