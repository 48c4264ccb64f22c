import type { Session } from '../types';
import { computeCostUsd, type PriceOverrides } from './prices';
import { getCallUsage, getSessionCalls } from './session-calls';

// A session's logged cost (what the library's cost column and its Usage charts sum: every call its
// files record, once, at its own model's list price) split by what a replay covers, so the
// what-if's real cost can say where it parts from it (docs/cost.md#which-calls). A replay runs the
// main conversation along one line of its history (engine/replay/: `ReplayResult.callIndex`); the
// rest of the logged cost is the subagents' calls (their own logs, 1.0.x inline sidechains, side
// questions) and the main thread's calls on branches the line left (a rewind, an edited prompt).

interface LoggedCost {
  /** Every call the session's files record, each once: the library's cost column. */
  usd: number;
  /** Of it, other threads' calls (subagents, side questions): never replayed. */
  subagentsUsd: number;
  /** Of it, main-thread calls not on the replayed line (abandoned branches). */
  otherBranchesUsd: number;
}

/** `replayedCalls`: the main thread's calls (indices into `session.apiCalls`) the replay ran over. */
export function getLoggedCost(
  session: Session,
  replayedCalls: ArrayLike<number>,
  prices?: PriceOverrides,
): LoggedCost {
  let usd = 0;
  let subagentsUsd = 0;
  for (const call of getSessionCalls(session)) {
    const cost = computeCostUsd(call.model, getCallUsage(call), prices) ?? 0;
    usd += cost;
    if (call.thread === 'other') subagentsUsd += cost;
  }
  const replayed = new Set(Array.from(replayedCalls));
  let otherBranchesUsd = 0;
  for (const [i, call] of session.apiCalls.entries())
    if (!replayed.has(i)) otherBranchesUsd += computeCostUsd(call.model, call.usage, prices) ?? 0;
  return { usd, subagentsUsd, otherBranchesUsd };
}
