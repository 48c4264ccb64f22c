import { at } from '../../src/engine/assert';
import { describe, expect, it } from 'vitest';
import {
  clusterMarkers,
  getClusterSpans,
  MARKER_SIZES,
  placeClearOf,
} from '../../src/ui/timeline/marker-clusters';

const SIZES = { markerPx: 20, clusterPx: 28 };

describe('clusterMarkers', () => {
  it('merges markers within one marker width and keeps distant ones apart', () => {
    const clusters = clusterMarkers([100, 105, 112, 300, 400, 401], (px) => px, SIZES, 50, 500);
    expect(clusters.map((c) => c.items)).toEqual([[100, 105, 112], [300], [400, 401]]);
    expect(at(clusters, 0).px).toBeCloseTo(317 / 3);
  });

  it('splits a long run of close markers into clusters that do not overlap', () => {
    const run = Array.from({ length: 100 }, (_, k) => 100 + k * 3); // 3px apart, 297px long
    const clusters = clusterMarkers(run, (px) => px, SIZES, 0, 1000);
    expect(clusters.length).toBe(10); // 10 markers (27px) per box
    expect(clusters.reduce((n, c) => n + c.items.length, 0)).toBe(100);
    for (let k = 1; k < clusters.length; k++) {
      expect(at(clusters, k).px - at(clusters, k - 1).px).toBeGreaterThanOrEqual(SIZES.clusterPx - 1e-9);
    }
    // Each box stays near its members.
    for (const c of clusters) {
      expect(c.px).toBeGreaterThanOrEqual(at(c.items, 0) - SIZES.clusterPx);
      expect(c.px).toBeLessThanOrEqual(at(c.items, c.items.length - 1) + SIZES.clusterPx);
    }
  });

  it('drops markers outside the plot and keeps every box inside it', () => {
    const clusters = clusterMarkers([10, 52, 55, 499, 600], (px) => px, SIZES, 50, 500);
    expect(clusters.map((c) => c.items)).toEqual([[52, 55], [499]]);
    expect(at(clusters, 0).px).toBe(64); // 53.5 pushed right by half a cluster box
    expect(at(clusters, 1).px).toBe(490); // half a marker from the right edge
  });

  it('sorts by position whatever the input order', () => {
    const clusters = clusterMarkers([{ p: 300 }, { p: 100 }], (m) => m.p, SIZES, 0, 1000);
    expect(clusters.map((c) => at(c.items, 0).p)).toEqual([100, 300]);
  });
});

describe('placeClearOf (the window label beside the marker buttons)', () => {
  it('moves a label right past every box it would overlap, chained', () => {
    expect(placeClearOf(54, 60, [], 1000)).toBe(54);
    // A cluster box at the plot's left edge (a session compacting at call 1: "A 4").
    const spans = getClusterSpans(clusterMarkers([52, 55, 58, 60], (px) => px, MARKER_SIZES, 50, 1000));
    expect(spans).toEqual([{ x0: 50, x1: 80 }]);
    expect(placeClearOf(54, 60, spans, 1000)).toBe(84);
    // A second box where the label would land pushes it on past that one too.
    expect(placeClearOf(54, 60, [...spans, { x0: 120, x1: 140 }], 1000)).toBe(144);
    // A box clear of the label's run leaves it where it was.
    expect(placeClearOf(54, 60, [{ x0: 200, x1: 220 }], 1000)).toBe(54);
  });

  it('has no place when no gap as wide as the label is left before the edge', () => {
    expect(placeClearOf(54, 60, [{ x0: 50, x1: 980 }], 1000)).toBeUndefined();
    // A dense session's row: boxes 30 px wide every 50 px leave gaps of 20 px for a 60 px label.
    const row = Array.from({ length: 20 }, (_, i) => ({ x0: 50 + i * 50, x1: 80 + i * 50 }));
    expect(placeClearOf(54, 60, row, 1000)).toBeUndefined();
    // One gap wide enough, past the others, takes it.
    const gap = row.filter((s) => s.x0 < 400 || s.x0 > 500);
    expect(placeClearOf(54, 60, gap, 1000)).toBe(384);
  });
});
