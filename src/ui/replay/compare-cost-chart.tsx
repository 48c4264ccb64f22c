import { formatUsd, isUnpriced } from '../../engine/replay/compare-table';
import type { ReplayCompare } from '../../worker/protocol';
import { formatCount } from '../common/format';

// The compare view's cost against compactions: one point per compared strategy (its number and
// colour as on the line chart), the log's real cost at the same prices as a dashed line across.
// Which strategy compacts least for what it costs, read at a glance; the table has the figures.
// Loaded with import() after a first compare: not startup code.

const W = 560;
const H = 200;
/** Points at the same compaction count are spread this far apart (px), cheapest first. */
const SPREAD_PX = 16;
const PAD = { l: 58, r: 16, t: 14, b: 32 };
const SERIES = 6;

/**
 * The chart, or nothing when no strategy's cost is priced: a session whose calls all have no list
 * price costs $0.000 under every strategy (the table says "no price"; a real Cline task of 220
 * unpriced calls drew four points and "the log's real cost $0.000" on a $0–$1 axis).
 */
export default function CompareCostChart({ result }: { result: ReplayCompare }) {
  const points = result.rows.flatMap((row, i) =>
    row.cost && !isUnpriced(row.cost) ? [{ i, row, usd: row.cost.usd, compactions: row.events.compact }] : [],
  );
  if (points.length === 0) return null;
  const real = points[0]!.row.cost!.realUsd;
  // Some calls unpriced: the figures leave them out, marked "+" as in the table.
  const some = points[0]!.row.cost!.unpricedCalls > 0 ? '+' : '';
  const maxX = Math.max(1, ...points.map((p) => p.compactions));
  const maxUsd = Math.max(real, ...points.map((p) => p.usd)) * 1.08 || 1;
  const minUsd = Math.max(0, Math.min(real, ...points.map((p) => p.usd)) * 0.9);
  const x = (n: number) => PAD.l + 10 + ((W - PAD.l - PAD.r - 20) * n) / maxX;
  // Strategies with the same count side by side, not on top of each other.
  const offset = new Map<string, number>();
  for (const n of new Set(points.map((p) => p.compactions))) {
    const same = points.filter((p) => p.compactions === n).sort((a, b) => a.usd - b.usd);
    for (const [j, p] of same.entries())
      offset.set(p.row.strategyId, (j - (same.length - 1) / 2) * SPREAD_PX);
  }
  const y = (usd: number) => PAD.t + (H - PAD.t - PAD.b) * (1 - (usd - minUsd) / (maxUsd - minUsd || 1));
  const ticks = maxX <= 8 ? Array.from({ length: maxX + 1 }, (_, k) => k) : [0, Math.round(maxX / 2), maxX];
  return (
    <figure className="strat-cost" data-testid="compare-cost-chart">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        width={W}
        height={H}
        role="img"
        aria-label="Cost against compactions, one point per strategy; the dashed line is the log's real cost"
      >
        <line className="strat-grid" x1={PAD.l} x2={W - PAD.r} y1={H - PAD.b} y2={H - PAD.b} />
        <line className="strat-grid" x1={PAD.l} x2={PAD.l} y1={PAD.t} y2={H - PAD.b} />
        {[minUsd, (minUsd + maxUsd) / 2, maxUsd].map((v) => (
          <text key={v} className="strat-axis" x={PAD.l - 6} y={y(v) + 3} textAnchor="end">
            {formatUsd(v)}
          </text>
        ))}
        {ticks.map((k) => (
          <text key={k} className="strat-axis" x={x(k)} y={H - PAD.b + 13} textAnchor="middle">
            {k}
          </text>
        ))}
        <text className="strat-axis" x={(PAD.l + W - PAD.r) / 2} y={H - 4} textAnchor="middle">
          compactions (summaries)
        </text>
        <line className="strat-cost-real" x1={PAD.l} x2={W - PAD.r} y1={y(real)} y2={y(real)} />
        <line className="strat-cost-real" x1={W - PAD.r - 200} x2={W - PAD.r - 176} y1={PAD.t} y2={PAD.t} />
        <text className="strat-axis" x={W - PAD.r} y={PAD.t + 3} textAnchor="end">
          the log's real cost {formatUsd(real)}
          {some}
        </text>
        {points.map(({ i, row, usd, compactions }) => {
          const color = `var(--cmp-${i % SERIES})`;
          const cx = x(compactions) + (offset.get(row.strategyId) ?? 0);
          return (
            <g
              key={row.strategyId}
              data-testid="compare-cost-point"
              data-strategy={row.strategyId}
              data-compactions={compactions}
              data-cost={usd.toFixed(6)}
            >
              <circle cx={cx} cy={y(usd)} r={4.5} style={{ fill: color }} />
              <text
                className="strat-cost-label"
                x={cx}
                y={y(usd) - 7}
                textAnchor="middle"
                style={{ fill: color }}
              >
                {i + 1}
              </text>
              <title>{`${i + 1} ${row.label}: ${formatUsd(usd)} (real ${formatUsd(real)}), ${formatCount(compactions)} compactions, ${formatCount(row.events.truncate)} truncations, ${formatCount(row.events.microcompact)} clearings`}</title>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
