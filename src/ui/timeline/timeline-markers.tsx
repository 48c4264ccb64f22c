import { type CSSProperties, useMemo } from 'react';
import type { TimelineMarker } from '../../engine/query/timeline-series';
import type { TimelineSeries } from '../../worker/protocol';
import { formatCount } from '../common/format';
import { useRovingFocus } from '../common/use-roving-focus';
import { useUiStore } from '../store';
import { xToPx } from './geometry';
import { clusterMarkers, MARKER_LANE, MARKER_SIZES } from './marker-clusters';
import { MarkerClusterButton } from './marker-cluster';

import type { ChartGeometry as Geometry } from './geometry';

// The compaction markers over the chart: colour, glyph and title by kind, clustered where they
// would overlap (marker-clusters.ts). The lane is one Tab stop, ← → Home End move along it.

/** Tallest a cluster's member list grows before it scrolls. */
const CLUSTER_LIST_MAX_PX = 260;
/** Top of the marker lane (inside PLOT_PADDING.topPx, above the plot). */
const MARKER_TOP_PX = MARKER_LANE.topPx;
export function markerColor(m: Pick<TimelineMarker, 'kind' | 'trigger'>): string {
  if (m.kind === 'microcompact') return '#9d8cf5';
  if (m.kind === 'truncate') return '#e879a6';
  return m.trigger === 'manual' ? '#4fd1c5' : '#f0a23b';
}

export function markerGlyph(m: Pick<TimelineMarker, 'kind' | 'trigger'>): string {
  if (m.kind === 'microcompact') return 'μ';
  if (m.kind === 'truncate') return 'T';
  return m.trigger === 'manual' ? 'M' : 'A';
}

function markerTitle(m: TimelineMarker): string {
  if (m.kind === 'microcompact') {
    return `Microcompact (${m.trigger}) · saved ${formatCount(m.tokensSaved)} tokens`;
  }
  const post = m.postEstimated
    ? `~${formatCount(m.postTokens)} (estimated: no usage)`
    : formatCount(m.postTokens);
  if (m.kind === 'truncate') {
    const range = m.deletedRange
      ? ` · history messages ${m.deletedRange[0]}–${m.deletedRange[1]} dropped`
      : '';
    return `Truncation (${m.trigger}) · ${formatCount(m.preTokens)} → ${post} tokens${range}`;
  }
  return `Compaction (${m.trigger}) · ${formatCount(m.preTokens)} → ${post} tokens`;
}

/** The marker buttons as the chart places them: clustered where they would overlap (marker-clusters.ts). */
export function useMarkerClusters(series: TimelineSeries, geometry: Geometry) {
  return useMemo(
    () =>
      clusterMarkers(
        series.markers,
        (m) => xToPx(geometry, m.x),
        MARKER_SIZES,
        geometry.leftPx,
        geometry.rightPx,
      ),
    [series.markers, geometry],
  );
}

/** The compaction markers above the plot: one button each, or a cluster where they would overlap. */
export function CompactionMarkers({
  series,
  geometry,
  onZoomTo,
}: {
  series: TimelineSeries;
  geometry: Geometry;
  onZoomTo: (fromX: number, toX: number) => void;
}) {
  const selectEntry = useUiStore((s) => s.selectEntry);
  const openCompaction = useUiStore((s) => s.openCompaction);
  const openCompactionCard = useUiStore((s) => s.openCompactionCard);
  const clusters = useMarkerClusters(series, geometry);
  const openAt = clusters.findIndex((c) => c.items.some((m) => m.compactionIndex === openCompaction));
  const roving = useRovingFocus(clusters.length, openAt < 0 ? undefined : openAt);
  return (
    <div role="toolbar" aria-label="Compaction markers (← → move)" onKeyDown={roving.onKeyDown}>
      {clusters.map((c, k) => {
        if (c.items.length > 1) {
          const xs = c.items.map((m) => m.x);
          return (
            <MarkerClusterButton
              key={`cluster-${c.items[0]!.compactionIndex}`}
              items={c.items.map((m) => ({
                key: String(m.compactionIndex),
                glyph: markerGlyph(m),
                color: markerColor(m),
                title: `after call ${Math.floor(m.x) + 1}: ${markerTitle(m)}`,
                onOpen: () => {
                  openCompactionCard(m.compactionIndex);
                  selectEntry(m.entryIndex, true);
                },
              }))}
              leftPx={c.px}
              topPx={MARKER_TOP_PX}
              listTopPx={MARKER_TOP_PX + 20}
              listMaxHeightPx={CLUSTER_LIST_MAX_PX}
              chartWidthPx={geometry.widthPx}
              className="compaction-marker"
              testId="compaction-cluster"
              onZoom={() => onZoomTo(Math.min(...xs) - 1, Math.max(...xs) + 2)}
              roving={roving.itemProps(k)}
            />
          );
        }
        const m = c.items[0]!;
        return (
          <button
            type="button"
            key={m.compactionIndex}
            className={`compaction-marker ${openCompaction === m.compactionIndex ? 'open' : ''}`}
            data-testid="compaction-marker"
            data-kind={m.kind}
            data-trigger={m.trigger}
            data-compaction-index={m.compactionIndex}
            title={markerTitle(m)}
            aria-label={markerTitle(m)}
            {...roving.itemProps(k)}
            style={
              {
                left: c.px,
                top: MARKER_TOP_PX,
                '--mc': markerColor(m),
              } as CSSProperties
            }
            onMouseMove={(e) => e.stopPropagation()}
            onClick={() => {
              openCompactionCard(m.compactionIndex);
              selectEntry(m.entryIndex, true);
            }}
          >
            {markerGlyph(m)}
          </button>
        );
      })}
    </div>
  );
}
