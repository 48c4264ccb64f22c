// Groups chart markers that would overlap into clusters, so a dense session shows "A 7" once
// instead of a pile of boxes running over the plot and the panels below.

export interface MarkerCluster<T> {
  /** Members in x order; one member is a plain marker. */
  items: T[];
  /** Where the cluster is drawn: the mean of its members' positions, CSS px. */
  px: number;
}

/**
 * Greedy left-to-right clustering: a marker joins the open cluster when its px is closer than
 * `minGapPx` to the cluster's last member. Markers outside [leftPx, rightPx] are dropped, so
 * nothing is drawn outside the plot.
 */
export function clusterMarkers<T>(
  items: readonly T[],
  pxOf: (item: T) => number,
  minGapPx: number,
  leftPx: number,
  rightPx: number,
): MarkerCluster<T>[] {
  const placed = items
    .map((item) => ({ item, px: pxOf(item) }))
    .filter((m) => m.px >= leftPx && m.px <= rightPx)
    .sort((a, b) => a.px - b.px);
  const clusters: MarkerCluster<T>[] = [];
  let current: { items: T[]; pxs: number[] } | undefined;
  for (const m of placed) {
    const lastPx = current?.pxs[current.pxs.length - 1];
    if (current && lastPx !== undefined && m.px - lastPx < minGapPx) {
      current.items.push(m.item);
      current.pxs.push(m.px);
      continue;
    }
    if (current) clusters.push(finish(current, leftPx, rightPx, minGapPx));
    current = { items: [m.item], pxs: [m.px] };
  }
  if (current) clusters.push(finish(current, leftPx, rightPx, minGapPx));
  return clusters;
}

function finish<T>(
  c: { items: T[]; pxs: number[] },
  leftPx: number,
  rightPx: number,
  widthPx: number,
): MarkerCluster<T> {
  const mean = c.pxs.reduce((a, b) => a + b, 0) / c.pxs.length;
  // Keep the whole box inside the plot: its centre at least half a marker from either edge.
  const half = widthPx / 2;
  return { items: c.items, px: Math.min(rightPx - half, Math.max(leftPx + half, mean)) };
}
