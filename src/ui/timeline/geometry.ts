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
  yMaxTokens: number;
}

export const PLOT_PADDING = { leftPx: 52, rightPx: 14, topPx: 14, bottomPx: 20 } as const;

export function createGeometry(
  widthPx: number,
  heightPx: number,
  count: number,
  yMaxTokens: number,
): ChartGeometry {
  return {
    widthPx,
    heightPx,
    leftPx: PLOT_PADDING.leftPx,
    rightPx: widthPx - PLOT_PADDING.rightPx,
    topPx: PLOT_PADDING.topPx,
    bottomPx: heightPx - PLOT_PADDING.bottomPx,
    count: Math.max(1, count),
    yMaxTokens: Math.max(1, yMaxTokens),
  };
}

/** Call position (0 … count−1, fractional allowed) → CSS px. */
export function xToPx(g: ChartGeometry, x: number): number {
  return g.leftPx + ((x + 0.5) / g.count) * (g.rightPx - g.leftPx);
}

/** CSS px → nearest call position. */
export function pxToX(g: ChartGeometry, px: number): number {
  const x = ((px - g.leftPx) / (g.rightPx - g.leftPx)) * g.count - 0.5;
  return Math.min(g.count - 1, Math.max(0, Math.round(x)));
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
