import { describe, expect, it } from 'vitest';
import {
  clampView,
  createGeometry,
  MIN_VIEW_SPAN,
  panView,
  pxToX,
  xToPx,
  zoomView,
} from '../../src/ui/timeline/geometry';

describe('timeline geometry with a visible range', () => {
  it('maps the visible range onto the plot width', () => {
    const g = createGeometry(1052, 200, 1000, 1, { from: 100, to: 200 });
    expect(xToPx(g, 99.5)).toBeCloseTo(g.leftPx); // position 100 at the left edge
    expect(xToPx(g, 199.5)).toBeCloseTo(g.rightPx);
    expect(pxToX(g, g.leftPx + 1)).toBe(100);
    expect(pxToX(g, g.leftPx - 500)).toBe(100); // clamped to the visible calls
  });

  it('zooms around the anchor and keeps it at the same place', () => {
    const view = zoomView({ from: 0, to: 1000 }, 1000, 0.5, 250);
    expect(view).toEqual({ from: 125, to: 625 });
    expect((250 - view.from) / (view.to - view.from)).toBeCloseTo(0.25);
  });

  it('never zooms below the minimum span nor out beyond the axis', () => {
    const inView = zoomView({ from: 10, to: 20 }, 1000, 0.01, 15);
    expect(inView.to - inView.from).toBe(MIN_VIEW_SPAN);
    expect(zoomView({ from: 10, to: 20 }, 30, 100, 15)).toEqual({ from: 0, to: 30 });
  });

  it('pans and stops at either end', () => {
    expect(panView({ from: 10, to: 20 }, 100, -50)).toEqual({ from: 0, to: 10 });
    expect(panView({ from: 10, to: 20 }, 100, 500)).toEqual({ from: 90, to: 100 });
    expect(clampView({ from: -5, to: 5 }, 100)).toEqual({ from: 0, to: 10 });
  });
});

describe('a chart narrower than its padding', () => {
  // Issue 21: at 0 px the plot's width was −66 px, and the replay line's decimation walked the
  // calls backwards ("index -3 is out of range (length 380)").
  it.each([0, 1, 30, 66])('keeps a plot at least 1 px wide, its positions in range, at %i px', (widthPx) => {
    const g = createGeometry(widthPx, 200, 380, 1000);
    expect(g.rightPx - g.leftPx).toBeGreaterThanOrEqual(1);
    for (const px of [-50, 0, 10, 52, 53, 100, 1000]) {
      const x = pxToX(g, px);
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(380);
    }
    expect(Number.isFinite(xToPx(g, 379))).toBe(true);
  });
});
