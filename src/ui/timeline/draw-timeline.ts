import type { TimelineSeries } from '../../worker/protocol';
import { formatTokensShort } from '../common/format';
import { drawEstimated } from './draw-estimated';
import { type ChartGeometry, clipToPlot, getNiceStep, pxToX, xToPx, yToPx } from './geometry';
import { MARKER_LANE, placeClearOf } from './marker-clusters';
import type { ThresholdBars } from './threshold-bars';

/** Height of one threshold label (10px font + gap). */
const LABEL_HEIGHT_PX = 12;

const COLORS = {
  grid: 'rgba(255,255,255,0.06)',
  axisText: '#7f8796',
  window: 'rgba(255,255,255,0.25)',
  line: '#5cb0f6',
  fill: 'rgba(92,176,246,0.14)',
  side: 'rgba(200,160,255,0.55)',
  hover: 'rgba(255,255,255,0.45)',
  selected: '#e8e8e8',
  overThreshold: '#f0a23b',
};

interface DrawState {
  series: TimelineSeries;
  /** The strategy's lines as bars (threshold-bars.ts); undefined: no strategy for the session's agent, no bars. */
  thresholds?: ThresholdBars;
  hoverX?: number;
  selectedX?: number;
  /** Marker x positions (drawn as faint vertical lines; the buttons are DOM). */
  markerXs: { x: number; color: string }[];
  /** Where the marker buttons sit over the chart (CSS px): the window's label keeps clear of them. */
  markerSpans: readonly { x0: number; x1: number }[];
}

/** Where a threshold label was drawn (CSS px in the canvas), or that it folded into the readout. */
type ThresholdLabelBox =
  | { text: string; folded: false; x0: number; x1: number; y0: number; y1: number }
  | { text: string; folded: true };

/**
 * The highest point (smallest y, CSS px) the context line reaches over the pixel columns `x0..x1`,
 * a call before and after included; the plot's bottom where no call falls there.
 */
function getDataTopPx(g: ChartGeometry, values: Float64Array, x0: number, x1: number): number {
  if (values.length === 0) return g.bottomPx;
  const from = Math.max(0, pxToX(g, x0) - 1);
  const to = Math.min(values.length - 1, pxToX(g, x1) + 1);
  let max = 0;
  for (let k = from; k <= to; k++) if (values[k]! > max) max = values[k]!;
  return Math.max(g.topPx, yToPx(g, max) - 1);
}

/**
 * Draws the whole chart; cheap enough to call on every hover move (decimates above 2 points/px).
 * Returns where each threshold label went, and the window's label.
 */
export function drawTimeline(
  ctx: CanvasRenderingContext2D,
  g: ChartGeometry,
  state: DrawState,
): { labels: ThresholdLabelBox[]; windowLabel?: { x0: number; x1: number; y0: number; y1: number } } {
  const { series, thresholds, markerSpans } = state;
  ctx.clearRect(0, 0, g.widthPx, g.heightPx);
  ctx.font = '10px ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", monospace';
  ctx.textBaseline = 'middle';

  // Grid and y labels.
  const step = getNiceStep(g.yMaxTokens, 4);
  ctx.lineWidth = 1;
  for (let v = 0; v <= g.yMaxTokens; v += step) {
    const y = Math.round(yToPx(g, v)) + 0.5;
    ctx.strokeStyle = COLORS.grid;
    ctx.beginPath();
    ctx.moveTo(g.leftPx, y);
    ctx.lineTo(g.rightPx, y);
    ctx.stroke();
    ctx.fillStyle = COLORS.axisText;
    ctx.textAlign = 'right';
    ctx.fillText(formatTokensShort(v), g.leftPx - 6, y);
  }
  // x labels: call numbers of the visible range.
  const n = series.contextTokens.length;
  ctx.textAlign = 'center';
  const xStep = Math.max(
    1,
    getNiceStep(Math.max(1, g.to - g.from), Math.max(2, Math.floor((g.rightPx - g.leftPx) / 90))),
  );
  for (let x = Math.ceil(g.from / xStep) * xStep; x < Math.min(n, g.to); x += xStep) {
    ctx.fillText(String(x + 1), xToPx(g, x), g.bottomPx + 10);
  }

  // Everything that follows x is clipped to the plot, so a zoomed chart never draws on its axes.
  clipToPlot(ctx, g);
  // Compaction lines behind the data.
  ctx.setLineDash([2, 3]);
  for (const m of state.markerXs) {
    const px = Math.round(xToPx(g, m.x)) + 0.5;
    ctx.strokeStyle = m.color;
    ctx.globalAlpha = 0.55;
    ctx.beginPath();
    ctx.moveTo(px, g.topPx);
    ctx.lineTo(px, g.bottomPx);
    ctx.stroke();
  }
  ctx.globalAlpha = 1;
  ctx.setLineDash([]);

  drawSeries(ctx, g, series.contextTokens);
  drawEstimated(ctx, g, series);

  // Subagent calls as faint dots.
  const dots = new Path2D();
  for (let k = 0; k < series.side.x.length; k++) {
    const x = series.side.x[k]!;
    if (!Number.isFinite(x)) continue;
    dots.rect(xToPx(g, x) - 1, yToPx(g, series.side.contextTokens[k]!) - 1, 2, 2);
  }
  ctx.fillStyle = COLORS.side;
  ctx.fill(dots);

  drawCursor(ctx, g, state.selectedX, COLORS.selected, series);
  drawCursor(ctx, g, state.hoverX, COLORS.hover, series);
  ctx.restore();

  // The strategy's lines on top, labelled at the right edge by its own names; equal values share
  // one label, and labels are stacked so they never overprint.
  ctx.setLineDash([6, 4]);
  // A bar of one window's span (a log that switches models) runs over its calls only, from half a
  // call before its first to half a call after its last; its label stays over that stretch.
  const groups: { value: number; labels: string[]; color: string; x0Px: number; x1Px: number }[] = [];
  for (const bar of thresholds?.bars ?? []) {
    const value = bar.tokens;
    if (value <= 0 || value > g.yMaxTokens) continue;
    const y = Math.round(yToPx(g, value)) + 0.5;
    const x0Px = bar.fromX === undefined ? g.leftPx : Math.max(g.leftPx, xToPx(g, bar.fromX - 0.5));
    const x1Px = bar.toX === undefined ? g.rightPx : Math.min(g.rightPx, xToPx(g, bar.toX + 0.5));
    if (x1Px <= x0Px) continue;
    ctx.strokeStyle = bar.color;
    ctx.beginPath();
    ctx.moveTo(x0Px, y);
    ctx.lineTo(x1Px, y);
    ctx.stroke();
    const same = groups.find((group) => group.value === value);
    if (same) {
      if (!same.labels.includes(bar.label)) same.labels.push(bar.label);
      same.x0Px = Math.min(same.x0Px, x0Px);
      same.x1Px = Math.max(same.x1Px, x1Px);
    } else groups.push({ value, labels: [bar.label], color: bar.color, x0Px, x1Px });
  }
  ctx.setLineDash([]);
  groups.sort((a, b) => b.value - a.value);
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  // Each label at the right edge, else the left, wherever the data does not reach its box; where
  // it would sit on the data at both, it folds into the knobs bar's readout above the chart,
  // which names every line with its value (issue 24 item 3: labels never sit on the data).
  const windowTokens = thresholds?.windowTokens;
  const windowLabel = windowTokens === undefined ? '' : `window ${formatTokensShort(windowTokens)}`;
  const windowLabelWidthPx = ctx.measureText(windowLabel).width;
  // The window's line is near the top, where the marker buttons stand ("A 4" at call 1 covered
  // its label): the label goes clear of them, or is left out where they leave no gap for it (the
  // window is named above the chart, and by the axis).
  const windowLabelX = placeClearOf(g.leftPx + 4, windowLabelWidthPx, markerSpans, g.rightPx);
  const windowBox =
    windowLabelX !== undefined && windowTokens !== undefined && windowTokens <= g.yMaxTokens
      ? {
          x0: windowLabelX - 4,
          x1: windowLabelX + windowLabelWidthPx + 4,
          y0: yToPx(g, windowTokens) - 14,
          y1: yToPx(g, windowTokens),
        }
      : undefined;
  const placed: ThresholdLabelBox[] = [];
  let previousY = Number.NEGATIVE_INFINITY;
  for (const group of groups) {
    const text = `${group.labels.join(' = ')} ${formatTokensShort(group.value)}`;
    const lineY = Math.max(yToPx(g, group.value) - 7, previousY + LABEL_HEIGHT_PX);
    const widthPx = ctx.measureText(text).width + 8;
    // A label high enough to reach the markers' lane (MARKER_LANE, the buttons' CSS): where a
    // marker button stands there (a dense session's last compactions at the right edge, and a real
    // 2.1.92 log cut mid-record compacting 2 calls before its end, covered "blocking 197k"), it
    // goes down to the plot's top edge, under the lane, just below its line.
    const laneBottomPx = MARKER_LANE.topPx + MARKER_LANE.heightPx;
    const placeAt = (x: number) => {
      const y0 = lineY - LABEL_HEIGHT_PX / 2;
      const underButtons =
        y0 < laneBottomPx && markerSpans.some((s) => s.x0 < x + widthPx && s.x1 > x)
          ? Math.max(0, g.topPx - y0)
          : 0;
      return {
        x,
        y: lineY + underButtons,
        y0: y0 + underButtons,
        y1: y0 + underButtons + LABEL_HEIGHT_PX - 1,
      };
    };
    const spot = [group.x1Px - widthPx, group.x0Px + 2]
      .map(placeAt)
      .find(
        ({ x, y0, y1 }) =>
          x >= g.leftPx &&
          y1 < getDataTopPx(g, series.contextTokens, x, x + widthPx) &&
          !(
            windowBox &&
            x < windowBox.x1 &&
            x + widthPx > windowBox.x0 &&
            y0 < windowBox.y1 &&
            y1 > windowBox.y0
          ),
      );
    if (spot === undefined || spot.y0 < 0) {
      placed.push({ text, folded: true });
      continue;
    }
    const { x: x0, y, y0, y1 } = spot;
    previousY = y;
    ctx.fillStyle = 'rgba(21,23,28,0.85)';
    ctx.fillRect(x0, y0, widthPx, LABEL_HEIGHT_PX - 1);
    ctx.fillStyle = group.color;
    ctx.fillText(text, x0 + 4, y);
    placed.push({ text, folded: false, x0, x1: x0 + widthPx, y0, y1 });
  }
  ctx.textBaseline = 'bottom';
  ctx.setLineDash([]);
  if (windowTokens !== undefined && windowTokens <= g.yMaxTokens) {
    const windowY = yToPx(g, windowTokens);
    ctx.strokeStyle = COLORS.window;
    ctx.beginPath();
    ctx.moveTo(g.leftPx, Math.round(windowY) + 0.5);
    ctx.lineTo(g.rightPx, Math.round(windowY) + 0.5);
    ctx.stroke();
    if (windowLabelX !== undefined) {
      ctx.fillStyle = COLORS.axisText;
      ctx.textAlign = 'left';
      ctx.fillText(windowLabel, windowLabelX, windowY - 2);
    }
  }
  return {
    labels: placed,
    windowLabel: windowBox && { ...windowBox, x0: windowBox.x0 + 4, x1: windowBox.x1 - 4 },
  };
}

function drawSeries(ctx: CanvasRenderingContext2D, g: ChartGeometry, values: Float64Array) {
  const n = values.length;
  if (n === 0) return;
  // One call past each edge, so the line runs to the clip instead of stopping short of it.
  const first = Math.max(0, Math.floor(g.from) - 1);
  const last = Math.min(n - 1, Math.ceil(g.to));
  const shown = last - first + 1;
  const plotWidthPx = g.rightPx - g.leftPx;
  ctx.lineWidth = 1.25;
  ctx.strokeStyle = COLORS.line;
  ctx.fillStyle = COLORS.fill;
  if (shown <= plotWidthPx * 2) {
    ctx.beginPath();
    ctx.moveTo(xToPx(g, first), g.bottomPx);
    for (let x = first; x <= last; x++) ctx.lineTo(xToPx(g, x), yToPx(g, values[x]!));
    ctx.lineTo(xToPx(g, last), g.bottomPx);
    ctx.closePath();
    ctx.fill();
    ctx.beginPath();
    for (let x = first; x <= last; x++) {
      const px = xToPx(g, x);
      const py = yToPx(g, values[x]!);
      if (x === first) ctx.moveTo(px, py);
      else ctx.lineTo(px, py);
    }
    ctx.stroke();
    if (shown <= plotWidthPx / 6) {
      ctx.fillStyle = COLORS.line;
      for (let x = first; x <= last; x++) ctx.fillRect(xToPx(g, x) - 1.5, yToPx(g, values[x]!) - 1.5, 3, 3);
    }
    return;
  }
  // Min/max per pixel column of the visible range: constant cost however many calls there are.
  // The columns are two paths filled once each (a fillRect per column was most of the draw).
  const columns = Math.max(1, Math.floor(plotWidthPx));
  const span = g.to - g.from;
  const area = new Path2D();
  const line = new Path2D();
  for (let c = 0; c < columns; c++) {
    const from = Math.max(0, Math.floor(g.from + (c / columns) * span));
    const to = Math.max(from + 1, Math.floor(g.from + ((c + 1) / columns) * span));
    let lo = Number.POSITIVE_INFINITY;
    let hi = 0;
    for (let x = from; x < to && x < n; x++) {
      const v = values[x]!;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    if (lo === Number.POSITIVE_INFINITY) continue;
    const left = g.leftPx + c;
    const top = yToPx(g, hi);
    area.rect(left, top, 1, g.bottomPx - top);
    line.rect(left, top - 0.5, 1, Math.max(1.25, yToPx(g, lo) - top + 1));
  }
  ctx.fillStyle = COLORS.fill;
  ctx.fill(area);
  ctx.fillStyle = COLORS.line;
  ctx.fill(line);
}

function drawCursor(
  ctx: CanvasRenderingContext2D,
  g: ChartGeometry,
  x: number | undefined,
  color: string,
  series: TimelineSeries,
) {
  if (x === undefined || x < 0 || x >= series.contextTokens.length) return;
  const px = Math.round(xToPx(g, x)) + 0.5;
  ctx.strokeStyle = color;
  ctx.lineWidth = 1;
  ctx.beginPath();
  ctx.moveTo(px, g.topPx);
  ctx.lineTo(px, g.bottomPx);
  ctx.stroke();
  ctx.fillStyle = color;
  ctx.beginPath();
  ctx.arc(px, yToPx(g, series.contextTokens[x]!), 3, 0, Math.PI * 2);
  ctx.fill();
}
