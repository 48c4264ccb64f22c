// Chart geometry shared by the canvas drawing and the DOM overlays (markers, tooltip).

export interface ChartGeometry {
  widthPx: number;
  heightPx: number;
  leftPx: number;
  rightPx: number;
  topPx: number;
  bottomPx: number;
  /** Number of main-conversation calls on the x axis. */
  count: number;
  /** Visible range of call positions [from, to) (call x spans [x, x + 1)); 0 … count when unzoomed. */
  from: number;
  to: number;
  yMaxTokens: number;
}

/** A visible range of call positions; `to − from` is at least MIN_VIEW_SPAN (or the whole axis). */
export interface ViewRange {
  from: number;
  to: number;
}

/** Fewest calls a zoom can show: below this the axis has nothing left to resolve. */
export const MIN_VIEW_SPAN = 4;

/** The top padding is the marker lane: compaction markers sit there, above the plot, never on it. */
const PLOT_PADDING = { leftPx: 52, rightPx: 14, topPx: 24, bottomPx: 20 } as const;

export function createGeometry(
  widthPx: number,
  heightPx: number,
  count: number,
  yMaxTokens: number,
  view?: ViewRange,
): ChartGeometry {
  const range = clampView(view ?? { from: 0, to: count }, count);
  return {
    from: range.from,
    to: range.to,
    widthPx,
    heightPx,
    leftPx: PLOT_PADDING.leftPx,
    // A chart narrower than its padding (0 px while a layout squeezes it) keeps a 1 px plot: a
    // negative width turned every px ↔ call mapping around ("index -3 is out of range", issue 21).
    rightPx: Math.max(PLOT_PADDING.leftPx + 1, widthPx - PLOT_PADDING.rightPx),
    topPx: PLOT_PADDING.topPx,
    bottomPx: heightPx - PLOT_PADDING.bottomPx,
    count: Math.max(1, count),
    yMaxTokens: Math.max(1, yMaxTokens),
  };
}

/** Keeps a range inside [0, count] and at least MIN_VIEW_SPAN wide, preserving its centre. */
export function clampView(view: ViewRange, count: number): ViewRange {
  const total = Math.max(1, count);
  const span = Math.min(total, Math.max(Math.min(MIN_VIEW_SPAN, total), view.to - view.from));
  const from = Math.min(total - span, Math.max(0, (view.from + view.to) / 2 - span / 2));
  return { from, to: from + span };
}

/** Whether the range shows the whole axis. */
export function isFullView(g: Pick<ChartGeometry, 'from' | 'to' | 'count'>): boolean {
  return g.from <= 0 && g.to >= g.count;
}

/** Call position (0 … count−1, fractional allowed) → CSS px; outside [leftPx, rightPx] when off-view. */
export function xToPx(g: ChartGeometry, x: number): number {
  return g.leftPx + ((x + 0.5 - g.from) / (g.to - g.from)) * (g.rightPx - g.leftPx);
}

/** CSS px → fractional call position (unclamped); the inverse of `xToPx` without the +0.5. */
export function pxToPosition(g: ChartGeometry, px: number): number {
  return g.from + ((px - g.leftPx) / (g.rightPx - g.leftPx)) * (g.to - g.from);
}

/** CSS px → nearest call position in the visible range. */
export function pxToX(g: ChartGeometry, px: number): number {
  const x = Math.floor(pxToPosition(g, px));
  const first = Math.max(0, Math.floor(g.from));
  const last = Math.min(g.count - 1, Math.ceil(g.to) - 1);
  return Math.min(last, Math.max(first, x));
}

/** The range after zooming by `factor` (<1 in, >1 out) around call position `anchor`. */
export function zoomView(view: ViewRange, count: number, factor: number, anchor: number): ViewRange {
  const span = view.to - view.from;
  const nextSpan = Math.min(Math.max(1, count), Math.max(MIN_VIEW_SPAN, span * factor));
  const t = span > 0 ? (anchor - view.from) / span : 0.5;
  const from = anchor - t * nextSpan;
  return clampView({ from, to: from + nextSpan }, count);
}

/** The range moved by `delta` call positions, stopping at the ends. */
export function panView(view: ViewRange, count: number, delta: number): ViewRange {
  const span = view.to - view.from;
  const from = Math.min(Math.max(1, count) - span, Math.max(0, view.from + delta));
  return { from, to: from + span };
}

/** Clips later drawing to the plot area (call `ctx.restore()` after). */
export function clipToPlot(ctx: CanvasRenderingContext2D, g: ChartGeometry): void {
  ctx.save();
  ctx.beginPath();
  ctx.rect(g.leftPx, g.topPx - 1, g.rightPx - g.leftPx, g.bottomPx - g.topPx + 2);
  ctx.clip();
}

export function yToPx(g: ChartGeometry, tokens: number): number {
  return g.bottomPx - (Math.min(tokens, g.yMaxTokens) / g.yMaxTokens) * (g.bottomPx - g.topPx);
}

/** A "nice" grid step (1, 2, 5 × 10^k) giving about `targetLines` lines up to `max`. */
export function getNiceStep(max: number, targetLines: number): number {
  const raw = max / Math.max(1, targetLines);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const normalized = raw / magnitude;
  const nice = normalized <= 1 ? 1 : normalized <= 2 ? 2 : normalized <= 5 ? 5 : 10;
  return nice * magnitude;
}
