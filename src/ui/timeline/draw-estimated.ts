import type { TimelineSeries } from '../../worker/protocol';
import { type ChartGeometry, xToPx, yToPx } from './geometry';

// Points whose context is Claude Code's estimate (the call recorded no usage,
// engine/query/usage-coverage.ts) are drawn apart from measured ones: the solid line into them is
// cleared and redrawn dashed, and each such point is a hollow circle. Above 1 point per 6 px the
// circles would merge, so only the dashes are drawn.

export const ESTIMATED_COLOR = '#c9b458';
const DASH_PX = [4, 3];

/** Redraws the estimated points of the context line in the estimated style. */
export function drawEstimated(ctx: CanvasRenderingContext2D, g: ChartGeometry, series: TimelineSeries): void {
  const { estimated, contextTokens } = series;
  const n = contextTokens.length;
  if (!estimated.some((v) => v === 1)) return;
  const segments: [number, number][] = [];
  for (let x = 0; x < n; x++) if (estimated[x] === 1) segments.push([Math.max(0, x - 1), x]);
  ctx.save();
  ctx.globalCompositeOperation = 'destination-out';
  ctx.lineWidth = 3;
  ctx.beginPath();
  for (const [a, b] of segments) {
    ctx.moveTo(xToPx(g, a), yToPx(g, contextTokens[a]!));
    ctx.lineTo(xToPx(g, b), yToPx(g, contextTokens[b]!));
  }
  ctx.stroke();
  ctx.globalCompositeOperation = 'source-over';
  ctx.strokeStyle = ESTIMATED_COLOR;
  ctx.lineWidth = 1.25;
  ctx.setLineDash(DASH_PX);
  ctx.beginPath();
  for (const [a, b] of segments) {
    ctx.moveTo(xToPx(g, a), yToPx(g, contextTokens[a]!));
    ctx.lineTo(xToPx(g, b), yToPx(g, contextTokens[b]!));
  }
  ctx.stroke();
  ctx.setLineDash([]);
  if (n <= (g.rightPx - g.leftPx) / 6) {
    ctx.fillStyle = '#15171c';
    for (let x = 0; x < n; x++) {
      if (estimated[x] !== 1) continue;
      ctx.beginPath();
      ctx.arc(xToPx(g, x), yToPx(g, contextTokens[x]!), 3, 0, Math.PI * 2);
      ctx.fill();
      ctx.stroke();
    }
  }
  ctx.restore();
}
