import type { SweepPoint, SweepResult } from '../../engine/replay/sweep';
import { formatCostCell, formatUsd } from '../../engine/replay/compare-table';
import type { ReplayCostFigures } from '../../engine/replay/types';
import type { KnobSpec, KnobValue } from '../../engine/strategies/types';
import { formatCount, formatTokensShort } from '../common/format';

// The sweep's chart: compactions (or truncations) fired and real ones matched for each value of the swept knob,
// and the replay's cost on its own scale (its highest value labelled at the right edge).

const CHART_WIDTH_PX = 380;
const CHART_HEIGHT_PX = 150;
const PAD = { left: 30, right: 10, top: 10, bottom: 22 };

/** A sweep value's cost, as the compare table writes it ("no price", "+": `formatCostCell`). */
export const formatPointCost = (cost: ReplayCostFigures): string => formatCostCell(cost, cost.usd);

export function formatValue(value: number, unit: KnobSpec['unit']): string {
  if (unit === 'percent') return `${value}%`;
  if (unit === 'tokens') return formatTokensShort(value);
  return formatCount(value);
}

/** A value with its unit in words, for titles: "20,000 tokens", "80%". */
export function formatValueLong(value: number, unit: KnobSpec['unit']): string {
  if (unit === 'percent') return `${value}%`;
  if (unit === 'tokens') return `${formatCount(value)} tokens`;
  return formatCount(value);
}

/**
 * What a point's replay fired: its compactions and its truncations (a Cline strategy truncates and
 * never summarizes: counting compactions alone drew its line flat at 0 beside 32 extra).
 */
export const getFired = (p: SweepPoint): number => p.events.compact + p.events.truncate;

/** The sweep's fired events in words, singular and plural, by the kinds its replays fired. */
export function getFiredWords(points: readonly SweepPoint[]): { one: string; many: string } {
  const compacts = points.some((p) => p.events.compact > 0);
  const truncates = points.some((p) => p.events.truncate > 0);
  if (truncates && compacts) return { one: 'compaction or truncation', many: 'compactions and truncations' };
  if (truncates) return { one: 'truncation', many: 'truncations' };
  return { one: 'compaction', many: 'compactions' };
}

export function SweepChart({
  result,
  axisTitle,
  current,
  onPick,
}: {
  result: SweepResult;
  axisTitle: string;
  current: KnobValue;
  onPick: (value: number) => void;
}) {
  const { points, unit } = result;
  const xs = points.map((p) => p.value);
  const xMin = Math.min(...xs);
  const xMax = Math.max(...xs);
  const yMax = Math.max(1, ...points.map((p) => Math.max(getFired(p), p.expectedReal)));
  const words = getFiredWords(points);
  const innerW = CHART_WIDTH_PX - PAD.left - PAD.right;
  const innerH = CHART_HEIGHT_PX - PAD.top - PAD.bottom;
  const x = (v: number) => PAD.left + (xMax === xMin ? innerW / 2 : ((v - xMin) / (xMax - xMin)) * innerW);
  const y = (n: number) => PAD.top + innerH - (n / yMax) * innerH;
  const line = (get: (p: SweepPoint) => number) =>
    points.map((p) => `${x(p.value).toFixed(1)},${y(get(p)).toFixed(1)}`).join(' ');
  const yTicks = yMax <= 4 ? Array.from({ length: yMax + 1 }, (_, i) => i) : [0, Math.round(yMax / 2), yMax];
  // The cost on its own scale (0 to the highest), labelled at the right edge.
  const costMax = Math.max(0, ...points.map((p) => p.cost?.usd ?? 0));
  const yCost = (usd: number) => PAD.top + innerH - (usd / costMax) * innerH;
  return (
    <svg
      className="sweep-chart"
      data-testid="sweep-chart"
      data-points={points.length}
      width={CHART_WIDTH_PX}
      height={CHART_HEIGHT_PX}
      viewBox={`0 0 ${CHART_WIDTH_PX} ${CHART_HEIGHT_PX}`}
      role="img"
      aria-label={`${words.many[0]!.toUpperCase()}${words.many.slice(1)} fired and real ones matched for each value of ${axisTitle}`}
    >
      {yTicks.map((t) => (
        <g key={t}>
          <line className="sweep-grid" x1={PAD.left} x2={CHART_WIDTH_PX - PAD.right} y1={y(t)} y2={y(t)} />
          <text className="sweep-axis" x={PAD.left - 6} y={y(t) + 3} textAnchor="end">
            {t}
          </text>
        </g>
      ))}
      <text className="sweep-axis" x={PAD.left} y={CHART_HEIGHT_PX - 6} textAnchor="start">
        {formatValue(xMin, unit)}
      </text>
      <text className="sweep-axis" x={CHART_WIDTH_PX - PAD.right} y={CHART_HEIGHT_PX - 6} textAnchor="end">
        {formatValue(xMax, unit)}
      </text>
      <text
        className="sweep-axis"
        data-testid="sweep-axis-title"
        x={PAD.left + innerW / 2}
        y={CHART_HEIGHT_PX - 6}
        textAnchor="middle"
      >
        {axisTitle}
      </text>
      {typeof current === 'number' && current >= xMin && current <= xMax && (
        <line className="sweep-current" x1={x(current)} x2={x(current)} y1={PAD.top} y2={PAD.top + innerH} />
      )}
      <polyline className="sweep-line fired" points={line(getFired)} />
      <polyline className="sweep-line matched" points={line((p) => p.matchedReal)} />
      {costMax > 0 && (
        <>
          <polyline
            className="sweep-line cost"
            data-testid="sweep-cost-line"
            points={points
              .map((p) => `${x(p.value).toFixed(1)},${yCost(p.cost?.usd ?? 0).toFixed(1)}`)
              .join(' ')}
          />
          <text className="sweep-axis cost" x={CHART_WIDTH_PX - PAD.right} y={PAD.top + 8} textAnchor="end">
            {formatUsd(costMax)}
          </text>
        </>
      )}
      {points.map((p) => (
        // The table's buttons are the keyboard path to the same action.
        <circle
          key={p.value}
          className="sweep-dot"
          cx={x(p.value)}
          cy={y(getFired(p))}
          r={3}
          onClick={() => onPick(p.value)}
        >
          <title>
            {`${formatValueLong(p.value, unit)}: ${getFired(p) === 1 ? `1 ${words.one}` : `${formatCount(getFired(p))} ${words.many}`} fired, ${p.matchedReal} of ${p.expectedReal} real matched, ${p.extraSimulated} extra${p.cost ? `, cost ${formatPointCost(p.cost)}` : ''}`}
          </title>
        </circle>
      ))}
    </svg>
  );
}
