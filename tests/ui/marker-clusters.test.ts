import { describe, expect, it } from 'vitest';
import { clusterMarkers } from '../../src/ui/timeline/marker-clusters';

describe('clusterMarkers', () => {
  it('merges markers closer than the gap and keeps distant ones apart', () => {
    const clusters = clusterMarkers([100, 105, 112, 300, 400, 401], (px) => px, 20, 50, 500);
    expect(clusters.map((c) => c.items)).toEqual([[100, 105, 112], [300], [400, 401]]);
    expect(clusters[0]!.px).toBeCloseTo(317 / 3);
  });

  it('drops markers outside the plot and keeps a cluster box inside it', () => {
    const clusters = clusterMarkers([10, 52, 55, 499, 600], (px) => px, 20, 50, 500);
    expect(clusters.map((c) => c.items)).toEqual([[52, 55], [499]]);
    expect(clusters[0]!.px).toBe(60); // 53.5 pushed right by half a marker
    expect(clusters[1]!.px).toBe(490);
  });

  it('sorts by position whatever the input order', () => {
    const clusters = clusterMarkers([{ p: 300 }, { p: 100 }], (m) => m.p, 20, 0, 1000);
    expect(clusters.map((c) => c.items[0]!.p)).toEqual([100, 300]);
  });
});
