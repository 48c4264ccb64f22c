import type { StrategyFigures } from './compare-strategies';
import type { ReplayEventKind } from './types';

// The strategies' comparison as a table: its columns, shared by the CLI's text and the page's
// table (which imports this, not the replays that fill it: compare-strategies.ts runs in the worker).

/** Event kinds in the order the table lists them. */
export const EVENT_KINDS: readonly ReplayEventKind[] = [
  'compact',
  'truncate',
  'replace',
  'microcompact',
  'reset',
  'blocked',
];

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/** A column of token counts: exact in its text, the count itself for the page's compact cell. */
const tokenColumn = (key: string, label: string, tokens: (r: StrategyFigures) => number) => ({
  key,
  label,
  value: (r: StrategyFigures) => fmt(tokens(r)),
  tokens,
});

/** The columns of the table, shared by the CLI's text and the app's table. */
export const COMPARE_COLUMNS: readonly {
  key: string;
  label: string;
  value: (r: StrategyFigures) => string;
  /** A token count's column: its count, which the page shows compact (the exact one on hover). */
  tokens?: (r: StrategyFigures) => number;
}[] = [
  { key: 'strategy', label: 'strategy', value: (r) => r.strategyId },
  {
    key: 'events',
    label: 'events',
    value: (r) =>
      EVENT_KINDS.filter((k) => r.events[k] > 0)
        .map((k) => `${k} ${r.events[k]}`)
        .join(', ') || 'none',
  },
  tokenColumn('cleared', 'cleared', (r) => r.clearedTokens),
  tokenColumn('replaced', 'replaced', (r) => r.replacedTokens),
  tokenColumn('truncated', 'truncated', (r) => r.truncatedTokens),
  tokenColumn('summarized', 'summarized', (r) => r.summarizedTokens),
  { key: 'llm', label: 'LLM calls', value: (r) => String(r.llmCalls) },
  tokenColumn('peak', 'peak', (r) => r.peakContextTokens),
  tokenColumn('final', 'final', (r) => r.finalContextTokens),
  {
    key: 'real',
    label: 'real reproduced',
    value: (r) => (r.real ? `${r.real.reproduced}/${r.real.expected}` : '-'),
  },
  { key: 'cost', label: 'cost', value: (r) => formatCostCell(r.cost, r.cost?.usd ?? 0) },
  { key: 'realCost', label: 'real cost', value: (r) => formatCostCell(r.cost, r.cost?.realUsd ?? 0) },
  {
    key: 'costDelta',
    label: 'Δ cost',
    value: (r) => (!r.cost || isUnpriced(r.cost) ? '-' : formatUsdDelta(r.cost.usd - r.cost.realUsd)),
  },
  {
    key: 'cache',
    label: 'cache read/write/uncached',
    value: (r) =>
      r.cost
        ? [r.cost.cacheReadTokens, r.cost.cacheWriteTokens, r.cost.uncachedTokens]
            .map(formatMillions)
            .join('/')
        : '-',
  },
];

/**
 * No call of the log could be priced (its models are not in the price table): both figures are
 * $0 for want of a price, not a free session. A real Cline task on such a model read "$0.000 ·
 * $0.000 · +$0.000" for every strategy, where the replay strip says "no list price".
 */
export function isUnpriced(cost: NonNullable<StrategyFigures['cost']>): boolean {
  return cost.unpricedCalls > 0 && cost.usd === 0 && cost.realUsd === 0;
}

/**
 * A cost figure as the replay strip says it (the compare table, the sweep): "no price" when none of
 * the log's calls has one, "+" after it when some have none (in neither figure).
 */
export function formatCostCell(cost: StrategyFigures['cost'], usd: number): string {
  if (!cost) return '-';
  if (isUnpriced(cost)) return 'no price';
  return `${formatUsd(usd)}${cost.unpricedCalls > 0 ? '+' : ''}`;
}

/** Dollars with cents (a tenth of a cent under $1), thousands grouped as every count is ($23,560.56). */
export function formatUsd(usd: number): string {
  const digits = Math.abs(usd) < 1 ? 3 : 2;
  // `|| 0`: −0 reads as 0, as toFixed read it.
  return `$${(usd || 0).toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })}`;
}

/** A signed difference in dollars. */
export function formatUsdDelta(usd: number): string {
  return `${usd < 0 ? '−' : '+'}${formatUsd(Math.abs(usd))}`;
}

/** Tokens in millions with one decimal (`12.3M`), thousands under a million (`830k`), units under a thousand. */
export function formatMillions(tokens: number): string {
  if (tokens >= 1e6) return `${(tokens / 1e6).toFixed(1)}M`;
  return tokens >= 1e3 ? `${Math.round(tokens / 1e3)}k` : String(Math.round(tokens));
}

/** The rows as an aligned text table (numbers right-aligned), a header line first. */
export function formatCompareTable(rows: readonly StrategyFigures[]): string {
  const cells = [
    COMPARE_COLUMNS.map((c) => c.label),
    ...rows.map((r) => COMPARE_COLUMNS.map((c) => c.value(r))),
  ];
  const widths = COMPARE_COLUMNS.map((_, j) => Math.max(...cells.map((row) => row[j]!.length)));
  const leftAligned = new Set(['strategy', 'events']);
  return cells
    .map((row) =>
      row
        .map((cell, j) =>
          leftAligned.has(COMPARE_COLUMNS[j]!.key) ? cell.padEnd(widths[j]!) : cell.padStart(widths[j]!),
        )
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
