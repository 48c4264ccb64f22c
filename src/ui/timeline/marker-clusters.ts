// Groups chart markers that would overlap into clusters, so a dense session shows "A 7" once
// instead of a pile of boxes running over the plot and the panels below.

interface MarkerCluster<T> {
  /** Members in x order; one member is a plain marker. */
  items: T[];
  /** Where the box is drawn (its centre), CSS px. */
  px: number;
}

interface ClusterSizes {
  /** Width of a single marker box; markers closer than this would overlap. */
  markerPx: number;
  /** Width of a cluster box (glyph and count). */
  clusterPx: number;
}

/**
 * Left-to-right clustering: a marker joins the open cluster when it would overlap the cluster's
 * last member and lies within one cluster box of its first, so a cluster never stands for a wide
 * stretch of the axis
 * (a long run of close markers becomes a row of clusters, each near its members). Boxes are then
 * spaced so none overlaps its neighbour and all stay inside [leftPx, rightPx]; markers outside
 * that range are dropped.
 */
export function clusterMarkers<T>(
  items: readonly T[],
  pxOf: (item: T) => number,
  sizes: ClusterSizes,
  leftPx: number,
  rightPx: number,
): MarkerCluster<T>[] {
  const placed = items
    .map((item) => ({ item, px: pxOf(item) }))
    .filter((m) => m.px >= leftPx && m.px <= rightPx)
    .sort((a, b) => a.px - b.px);
  const groups: { items: T[]; pxs: number[] }[] = [];
  for (const m of placed) {
    const open = groups[groups.length - 1];
    const overlaps = open && m.px - open.pxs[open.pxs.length - 1]! < sizes.markerPx;
    if (open && overlaps && m.px - open.pxs[0]! < sizes.clusterPx) {
      open.items.push(m.item);
      open.pxs.push(m.px);
    } else groups.push({ items: [m.item], pxs: [m.px] });
  }
  const width = (g: { items: T[] }) => (g.items.length > 1 ? sizes.clusterPx : sizes.markerPx);
  const clusters = groups.map((g) => ({
    items: g.items,
    px: g.pxs.reduce((a, b) => a + b, 0) / g.pxs.length,
  }));
  // Push right where boxes would overlap, then back left from the right edge.
  for (let k = 0; k < clusters.length; k++) {
    const c = clusters[k]!;
    const min =
      k === 0 ? leftPx + width(c) / 2 : clusters[k - 1]!.px + (width(clusters[k - 1]!) + width(c)) / 2;
    c.px = Math.max(c.px, min);
  }
  for (let k = clusters.length - 1; k >= 0; k--) {
    const c = clusters[k]!;
    const max =
      k === clusters.length - 1
        ? rightPx - width(c) / 2
        : clusters[k + 1]!.px - (width(clusters[k + 1]!) + width(c)) / 2;
    c.px = Math.min(c.px, max);
  }
  return clusters;
}

/**
 * The marker boxes' sizes on the timeline (CSS px; ours: a box is 18 px wide, a cluster's with its
 * count ~28 px, each with room around it); closer, they would overlap.
 */
export const MARKER_SIZES: ClusterSizes = { markerPx: 20, clusterPx: 30 };

/**
 * The lane the marker buttons stand in, CSS px from the chart's top (styles.css
 * `.compaction-marker`: 18 px tall): the chart's labels keep clear of the buttons there.
 */
export const MARKER_LANE = { topPx: 3, heightPx: 18 } as const;

/** The horizontal span [x0, x1] (CSS px) of each box `clusterMarkers` places. */
export function getClusterSpans<T>(
  clusters: readonly MarkerCluster<T>[],
  sizes: ClusterSizes = MARKER_SIZES,
): { x0: number; x1: number }[] {
  return clusters.map((c) => {
    const half = (c.items.length > 1 ? sizes.clusterPx : sizes.markerPx) / 2;
    return { x0: c.px - half, x1: c.px + half };
  });
}

/**
 * Where a label `widthPx` wide goes from `startPx`: moved right past every span it would overlap
 * (with `gapPx` clear on each side); undefined when that runs past `maxPx` (a row too full to
 * clear: a dense session's markers left no gap as wide as the label, which they then covered).
 */
export function placeClearOf(
  startPx: number,
  widthPx: number,
  spans: readonly { x0: number; x1: number }[],
  maxPx: number,
  gapPx = 4,
): number | undefined {
  let x = startPx;
  for (const span of [...spans].sort((a, b) => a.x0 - b.x0))
    if (span.x1 + gapPx > x && span.x0 - gapPx < x + widthPx) x = span.x1 + gapPx;
  return x + widthPx <= maxPx ? x : undefined;
}
