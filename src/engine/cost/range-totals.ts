import { computeCostUsd } from './prices';
import type { Session, TokenCount } from '../types';

// Totals over a range of the timeline (the calls a shift-drag selected): tokens by kind, cost at
// the models' list prices (cost/prices.ts) and the number of calls. Linear in the calls given.

export interface RangeTotals {
  /** Calls counted (each index once; synthetic and unknown indices left out). */
  calls: number;
  /** Of `calls`, the subagents' own. */
  subagentCalls: number;
  inputTokens: TokenCount;
  cacheCreationInputTokens: TokenCount;
  cacheReadInputTokens: TokenCount;
  outputTokens: TokenCount;
  costUsd: number;
  /** Calls whose model has no known price (not in `costUsd`). */
  unpricedCalls: number;
}

/**
 * Sums the calls `callIndices` (indices into `session.apiCalls`); `subagentIndices` are counted
 * as well and also as subagent calls. Duplicates and indices out of range are ignored.
 */
export function computeRangeTotals(
  session: Session,
  callIndices: readonly number[],
  subagentIndices: readonly number[] = [],
): RangeTotals {
  const totals: RangeTotals = {
    calls: 0,
    subagentCalls: 0,
    inputTokens: 0,
    cacheCreationInputTokens: 0,
    cacheReadInputTokens: 0,
    outputTokens: 0,
    costUsd: 0,
    unpricedCalls: 0,
  };
  const seen = new Set<number>();
  const add = (index: number, subagent: boolean) => {
    const call = Number.isInteger(index) ? session.apiCalls[index] : undefined;
    if (!call || seen.has(index) || call.model === '<synthetic>') return;
    seen.add(index);
    totals.calls++;
    if (subagent) totals.subagentCalls++;
    const u = call.usage;
    totals.inputTokens += u.inputTokens;
    totals.cacheCreationInputTokens += u.cacheCreationInputTokens;
    totals.cacheReadInputTokens += u.cacheReadInputTokens;
    totals.outputTokens += u.outputTokens;
    const cost = computeCostUsd(call.model, u);
    if (cost === undefined) totals.unpricedCalls++;
    else totals.costUsd += cost;
  };
  for (const i of callIndices) add(i, false);
  for (const i of subagentIndices) add(i, true);
  return totals;
}
