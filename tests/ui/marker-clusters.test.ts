import { at } from '../../src/engine/assert';
import { describe, expect, it } from 'vitest';
import { clusterMarkers } from '../../src/ui/timeline/marker-clusters';

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
