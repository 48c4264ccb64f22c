import { useMemo } from 'react';
import type { CompareSeries } from '../../engine/replay/compare-strategies';
import type { ReplayCompare } from '../../worker/protocol';
import { formatCount, formatTokensShort } from '../common/format';
import { getNiceStep } from '../timeline/geometry';
import { getThresholdBars } from '../timeline/threshold-bars';
import { EVENT_GLYPHS } from './replay-overlay';

// The compare view's chart: one line per strategy told apart by colour, dash pattern and a
// numbered label at its end; each strategy's threshold lines in its colour, labelled in a gutter
// right of the plot (or folded into a legend under it when they do not fit), never on the data;
// the model's window, and a peak above it flagged; each strategy's events marked on its line.

const CHART_HEIGHT_PX = 240;
const PAD = { left: 44, right: 12, top: 10, bottom: 22 };
/** Height of a label line at the right edge (labels closer than this are moved apart). */
const LABEL_PX = 13;
/** Width of one character of the 10px monospace labels. */
const MONO_CHAR_PX = 6.1;
/** Series styles by position among the picked: colours from the palette (light-dark), dashes. */
const SERIES_DASHES = ['', '7 3', '2 3', '9 3 2 3', '4 4', '1 3'];
const SERIES_COUNT = 6;

function seriesStyle(i: number): { color: string; dash: string } {
  return {
    color: `var(--cmp-${i % SERIES_COUNT})`,
    dash: SERIES_DASHES[i % SERIES_DASHES.length]!,
  };
}

/**
 * Labels moved apart so that none overprints another (`LABEL_PX` between centres), kept within
 * `minY`..`maxY`: pushed down from the top, then back up from the bottom when the stack ran over.
 */
function stackLabels<T extends { y: number }>(items: T[], minY: number, maxY: number): T[] {
  const sorted = [...items].sort((a, b) => a.y - b.y);
  let previous = Number.NEGATIVE_INFINITY;
  for (const item of sorted) {
    item.y = Math.max(minY, item.y, previous + LABEL_PX);
    previous = item.y;
  }
  let next = Number.POSITIVE_INFINITY;
  for (let k = sorted.length - 1; k >= 0; k--) {
    const item = sorted[k]!;
    item.y = Math.min(item.y, maxY, next - LABEL_PX);
    next = item.y;
  }
  return sorted;
}

/** The column of line numbers at the lines' ends, right of the plot. */
const END_COLUMN_PX = 18;
/** The threshold labels' gutter never takes more of the chart's width than this. */
const MAX_GUTTER_SHARE = 0.4;

interface ThresholdLabel {
  key: string;
  i: number;
  strategyId: string;
  text: string;
  tokens: number;
  /** Where the label sits (its centre); `lineY` is where its line is. */
  y: number;
  lineY: number;
}

/**
 * Where the threshold labels go: stacked in a gutter right of the plot, each tied to its line by a
 * leader, so that none sits on the data or on another label; or, when they do not fit the chart's
 * height (or would take too much of its width), folded into a legend under the chart.
 */
function placeThresholdLabels(
  series: ReplayCompare['series'],
  bars: ReturnType<typeof getThresholdBars>[],
  widthPx: number,
  innerH: number,
): { labels: ThresholdLabel[]; gutterPx: number; folded: boolean } {
  const labels: ThresholdLabel[] = series.flatMap((s, i) =>
    bars[i]!.bars.map((bar) => ({
      key: `${s.strategyId}-${bar.id}`,
      i,
      strategyId: s.strategyId,
      text: `${i + 1} ${bar.label} ${formatTokensShort(bar.tokens)}`,
      tokens: bar.tokens,
      y: 0,
      lineY: 0,
    })),
  );
  const longest = Math.max(0, ...labels.map((l) => l.text.length));
  const gutterPx = Math.ceil(longest * MONO_CHAR_PX) + 14;
  const fits = labels.length * LABEL_PX <= innerH && gutterPx <= widthPx * MAX_GUTTER_SHARE;
  return { labels, gutterPx: fits && labels.length > 0 ? gutterPx : 0, folded: !fits };
}

export function CompareChart({
  result,
  widthPx,
  windowTokens,
}: {
  result: ReplayCompare;
  widthPx: number;
  /** The model's context window (the log's, as the timeline shows it): a peak above it is flagged. */
  windowTokens?: number;
}) {
  const { series } = result;
  const n = Math.max(0, ...series.map((s) => s.simulatedTokens.length));
  const bars = series.map((s) => getThresholdBars(s.thresholds));
  let yMax = windowTokens ?? 1;
  for (const s of series) for (const t of s.simulatedTokens) yMax = Math.max(yMax, t);
  for (const b of bars) for (const bar of b.bars) yMax = Math.max(yMax, bar.tokens);
  yMax *= 1.05;
  const innerH = CHART_HEIGHT_PX - PAD.top - PAD.bottom;
  const placed = placeThresholdLabels(series, bars, widthPx, innerH);
  const right = PAD.right + END_COLUMN_PX + placed.gutterPx;
  const innerW = Math.max(10, widthPx - PAD.left - right);
  const plotRight = PAD.left + innerW;
  const x = (k: number) => PAD.left + (n <= 1 ? innerW / 2 : (k / (n - 1)) * innerW);
  const y = (tokens: number) => PAD.top + innerH - (tokens / yMax) * innerH;
  const step = getNiceStep(yMax / 1.05, 4);
  const yTicks: number[] = [];
  for (let v = 0; v <= yMax; v += step) yTicks.push(v);
  for (const l of placed.labels) {
    l.lineY = y(l.tokens);
    l.y = l.lineY;
  }
  const thresholdLabels = placed.folded
    ? []
    : stackLabels(placed.labels, PAD.top + LABEL_PX / 2, PAD.top + innerH - LABEL_PX / 2);
  const gutterX = plotRight + END_COLUMN_PX + 6;
  // The line numbers at the lines' ends, stacked in their own column.
  const endLabels = stackLabels(
    series.flatMap((s, i) => {
      const last = s.simulatedTokens.length - 1;
      return last >= 0 ? [{ i, y: y(s.simulatedTokens[last]!) }] : [];
    }),
    PAD.top + LABEL_PX / 2,
    PAD.top + innerH - LABEL_PX / 2,
  );
  return (
    <>
      <svg
        className="strat-chart"
        data-testid="compare-chart"
        data-plot-right={plotRight}
        data-labels={placed.folded ? 'legend' : 'gutter'}
        width={widthPx}
        height={CHART_HEIGHT_PX}
        viewBox={`0 0 ${widthPx} ${CHART_HEIGHT_PX}`}
        role="img"
        aria-label={`Simulated context per main call under ${series.map((s) => s.label).join(', ')}; the table below has the figures`}
      >
        {yTicks.map((t) => (
          <g key={t}>
            <line className="strat-grid" x1={PAD.left} x2={plotRight} y1={y(t)} y2={y(t)} />
            <text className="strat-axis" x={PAD.left - 6} y={y(t) + 3} textAnchor="end">
              {formatTokensShort(t)}
            </text>
          </g>
        ))}
        <text className="strat-axis" x={PAD.left} y={CHART_HEIGHT_PX - 6} textAnchor="start">
          call 1
        </text>
        <text className="strat-axis" x={plotRight} y={CHART_HEIGHT_PX - 6} textAnchor="end">
          {n > 0 ? `call ${formatCount(n)}` : ''}
        </text>
        <text className="strat-axis" x={PAD.left + innerW / 2} y={CHART_HEIGHT_PX - 6} textAnchor="middle">
          main-thread API calls
        </text>
        {windowTokens !== undefined && (
          <g data-testid="compare-window" data-value={windowTokens}>
            <line
              className="strat-window"
              x1={PAD.left}
              x2={plotRight}
              y1={y(windowTokens)}
              y2={y(windowTokens)}
            />
          </g>
        )}
        {series.map((s, i) => {
          const { color } = seriesStyle(i);
          return bars[i]!.bars.map((bar) =>
            bar.tokens <= yMax ? (
              <line
                key={`${s.strategyId}-${bar.id}`}
                className="strat-threshold"
                data-testid="compare-threshold"
                data-strategy={s.strategyId}
                data-value={bar.tokens}
                x1={PAD.left}
                x2={plotRight}
                y1={y(bar.tokens)}
                y2={y(bar.tokens)}
                style={{ stroke: color }}
              >
                <title>{`${s.label}: ${bar.label} ${formatCount(bar.tokens)}`}</title>
              </line>
            ) : null,
          );
        })}
        {series.map((s, i) => (
          <SeriesLine
            key={s.strategyId}
            s={s}
            i={i}
            x={x}
            y={y}
            innerW={innerW}
            windowTokens={windowTokens}
          />
        ))}
        {/* Over the lines, with a halo: drawn under them, a real session's replays running above
            the window hid it ("model! wi… 200k" under one series' ticks). */}
        {windowTokens !== undefined && (
          <text
            className="strat-axis strat-window-label"
            data-testid="compare-window-label"
            x={PAD.left + 4}
            y={y(windowTokens) - 3}
            textAnchor="start"
          >
            model window {formatTokensShort(windowTokens)}
          </text>
        )}
        {endLabels.map((l) => (
          <text
            key={l.i}
            className="strat-end-label"
            data-testid="compare-end-label"
            x={plotRight + END_COLUMN_PX - 2}
            y={l.y + 3.5}
            textAnchor="end"
            style={{ fill: seriesStyle(l.i).color }}
          >
            {l.i + 1}
          </text>
        ))}
        {thresholdLabels.map((l) => (
          <g key={l.key} data-testid="compare-threshold-label" data-strategy={l.strategyId}>
            {/* A leader from the line's end at the plot's edge to its label in the gutter. */}
            <polyline
              className="strat-leader"
              points={`${plotRight},${l.lineY} ${plotRight + END_COLUMN_PX},${l.lineY} ${gutterX - 2},${l.y}`}
              style={{ stroke: seriesStyle(l.i).color }}
            />
            <text
              className="strat-threshold-label"
              x={gutterX}
              y={l.y + 3.5}
              style={{ fill: seriesStyle(l.i).color }}
            >
              {l.text}
            </text>
          </g>
        ))}
      </svg>
      {placed.folded && placed.labels.length > 0 && (
        <div className="strat-threshold-legend small" data-testid="compare-threshold-legend">
          {series.map((s, i) =>
            bars[i]!.bars.length > 0 ? (
              <span key={s.strategyId} data-strategy={s.strategyId}>
                <b style={{ color: seriesStyle(i).color }}>{i + 1}</b>{' '}
                {bars[i]!.bars.map((bar) => `${bar.label} ${formatTokensShort(bar.tokens)}`).join(' · ')}
              </span>
            ) : null,
          )}
        </div>
      )}
    </>
  );
}

/** One strategy's line (min/max per pixel column when the calls outnumber the pixels), its events. */
function SeriesLine({
  s,
  i,
  x,
  y,
  innerW,
  windowTokens,
}: {
  s: CompareSeries;
  i: number;
  x: (k: number) => number;
  y: (t: number) => number;
  innerW: number;
  windowTokens?: number;
}) {
  const { color, dash } = seriesStyle(i);
  const values = s.simulatedTokens;
  const points = useMemo(() => {
    const n = values.length;
    const out: string[] = [];
    const columns = Math.max(1, Math.floor(innerW));
    if (n <= columns * 2) {
      for (let k = 0; k < n; k++) out.push(`${x(k).toFixed(1)},${y(values[k]!).toFixed(1)}`);
      return out.join(' ');
    }
    for (let c = 0; c < columns; c++) {
      const from = Math.floor((c / columns) * n);
      const to = Math.max(from + 1, Math.floor(((c + 1) / columns) * n));
      let lo = Number.POSITIVE_INFINITY;
      let hi = 0;
      for (let k = from; k < to && k < n; k++) {
        lo = Math.min(lo, values[k]!);
        hi = Math.max(hi, values[k]!);
      }
      out.push(`${x(from).toFixed(1)},${y(hi).toFixed(1)}`, `${x(from).toFixed(1)},${y(lo).toFixed(1)}`);
    }
    return out.join(' ');
  }, [values, x, y, innerW]);
  // One mark per kind and pixel column: thousands of clearings on a long session stay a few hundred nodes.
  const marks = useMemo(() => {
    const seen = new Set<string>();
    return s.events.flatMap((e, j) => {
      const key = `${e.kind}:${Math.round(x(e.afterCallPos) / 3)}`;
      if (seen.has(key)) return [];
      seen.add(key);
      return [{ e, j }];
    });
  }, [s.events, x]);
  // The peak, flagged where it passes the model's window: a request that large would be refused.
  let peakAt = -1;
  for (let k = 0; k < values.length; k++) if (peakAt < 0 || values[k]! > values[peakAt]!) peakAt = k;
  const overWindow = windowTokens !== undefined && peakAt >= 0 && values[peakAt]! > windowTokens;
  return (
    <g data-testid="compare-series" data-strategy={s.strategyId} data-points={values.length}>
      <polyline
        className="strat-line"
        points={points}
        style={{ stroke: color, strokeDasharray: dash || undefined }}
      />
      {marks.map(({ e, j }) => (
        <text
          key={j}
          className="strat-event"
          data-testid="compare-event"
          data-kind={e.kind}
          x={x(e.afterCallPos)}
          y={y(e.preTokens) - 3}
          textAnchor="middle"
          style={{ fill: color }}
        >
          {EVENT_GLYPHS[e.kind]}
          <title>{`${s.label}: ${e.kind} after API call ${formatCount(e.afterApiCall + 1)} · ${formatCount(e.preTokens)} → ${formatCount(e.postTokens)} tokens`}</title>
        </text>
      ))}
      {overWindow && (
        <text
          className="strat-over-window"
          data-testid="compare-over-window"
          x={x(peakAt)}
          y={y(values[peakAt]!) - 12}
          textAnchor="middle"
          style={{ fill: color }}
        >
          ▲ {formatTokensShort(values[peakAt]!)}
          <title>{`${s.label}: peak ${formatCount(values[peakAt]!)} tokens at main call ${formatCount(peakAt + 1)}, above the model's ${formatCount(windowTokens ?? 0)}-token window (such a request would be refused)`}</title>
        </text>
      )}
    </g>
  );
}

/** The line's colour and dash beside its number: the legend of the chart. */
export function LineSwatch({ i }: { i: number }) {
  const { color, dash } = seriesStyle(i);
  return (
    <span className="strat-swatch">
      <svg width={26} height={8} aria-hidden="true">
        <line x1={1} x2={25} y1={4} y2={4} style={{ stroke: color, strokeDasharray: dash || undefined }} />
      </svg>
      <b style={{ color }}>{i + 1}</b>
    </span>
  );
}
