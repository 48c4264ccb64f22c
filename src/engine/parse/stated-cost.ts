import type { SessionMeta } from '../types';

// The agent's own figure for what a session cost, where its log writes one: the costs it wrote on
// its records (`statedCost`, summed by the builder), else the stated totals of its runs. Shown
// beside the cost at list prices, never in its place (the library's Cost column aside, where no
// call could be priced).

/** USD the log states the session cost; undefined where it states none. */
export function getStatedCostUsd(meta: Pick<SessionMeta, 'statedCost' | 'statedTotals'>): number | undefined {
  return meta.statedCost?.usd ?? meta.statedTotals?.costUsd;
}
