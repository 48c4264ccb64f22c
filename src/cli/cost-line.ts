import { formatMillions, formatUsd, formatUsdDelta } from '../engine/replay/compare-table';
import type { ReplayCostFigures } from '../engine/replay/types';

// The cost line of `compactlab replay` and of each `--sweep` value (docs/cost.md).

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/** `cost $1.23 (real $1.30, −$0.07) · cache read/write/uncached 12.3M/1.1M/0 · 2 summaries $0.10 · prices 2026-11`. */
export function formatCostLine(c: ReplayCostFigures): string {
  // A session whose models have no list price (a pi or OpenCode log on a free or unlisted model)
  // read "cost $0.000 (real $0.000, +$0.000)": say there is no price, as the page does.
  if (c.unpricedCalls > 0 && c.usd === 0 && c.realUsd === 0)
    return [
      `cost: no list price for the log's ${c.unpricedCalls === 1 ? 'call' : `${fmt(c.unpricedCalls)} calls`}`,
      `cache read/write/uncached ${[c.cacheReadTokens, c.cacheWriteTokens, c.uncachedTokens].map(formatMillions).join('/')}`,
      `${c.summaryCalls} summaries`,
      `prices ${c.pricesSeen}`,
    ].join(' · ');
  return [
    `cost ${formatUsd(c.usd)} (real ${formatUsd(c.realUsd)}${c.realSummariesEstimated > 0 ? `, ${c.realSummariesEstimated} of its summary calls estimated` : ''}, ${formatUsdDelta(c.usd - c.realUsd)})`,
    `cache read/write/uncached ${[c.cacheReadTokens, c.cacheWriteTokens, c.uncachedTokens].map(formatMillions).join('/')}`,
    `${c.summaryCalls} summaries ${formatUsd(c.summaryUsd)}`,
    c.unpricedCalls > 0 ? `${c.unpricedCalls} calls unpriced` : '',
    `prices ${c.pricesSeen}`,
  ]
    .filter(Boolean)
    .join(' · ');
}
