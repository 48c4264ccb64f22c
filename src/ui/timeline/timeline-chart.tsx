import { prepareCanvas } from '../common/canvas';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { SessionId, TimelineSeries } from '../../worker/protocol';
import { useUiStore } from '../store';
import { drawTimeline } from './draw-timeline';
import { createGeometry, isFullView, panView, pxToPosition, pxToX, type ViewRange } from './geometry';
import { getClusterSpans } from './marker-clusters';
import { ReplayOverlay, useShownReplayResult } from '../replay/replay-overlay';
import type { ThresholdBars } from './threshold-bars';
import { OverviewStrip } from './overview-strip';
import { TimelineLegend } from './timeline-legend';

import { CompactionMarkers, markerColor, useMarkerClusters } from './timeline-markers';
import { FailedRequestMarkers } from './failed-request-markers';
import { useChartZoom } from './use-chart-zoom';
import { useZoomStore } from './zoom-store';
import { CallTooltip } from './call-tooltip';

import { RangeTotals } from './range-totals';

/** The series drawn once already (the first draw of each is marked). */
const drawnSeries = new WeakSet<object>();

// The context chart: a canvas drawn a frame after each change, zoom and pan by wheel, keys, drag
// and a shift-drag brush; a click selects the call's first entry, a zoom reveals the range's
// first entry in the transcript.

/**
 * The chart offers to fit its height to the context when the highest point drawn stays under this
 * share of the window's frame (ours: below half, the curve uses less than half the chart's height).
 */
const FIT_OFFER_SHARE = 0.5;

/** Pointer travel below which a press is a click (select a call), not a drag. */
const DRAG_THRESHOLD_PX = 3;
/** Largest main call whose first entry is at or before `entryIndex` (calls are in entry order). */
function findCallAtOrBefore(series: TimelineSeries, entryIndex: number): number | undefined {
  const first = series.firstEntryIndex;
  let lo = 0;
  let hi = first.length - 1;
  let found: number | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (first[mid]! <= entryIndex) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

export function TimelineChart({
  sessionId,
  series,
  thresholds,
  heightPx,
  format,
}: {
  sessionId: SessionId;
  series: TimelineSeries;
  thresholds?: ThresholdBars;
  heightPx: number;
  /** What the file was read as, said when it has no call to draw (a prompt log holds none). */
  format?: string;
}) {
  const containerRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [widthPx, setWidthPx] = useState(800);
  const [hoverX, setHoverX] = useState<number>();
  const view = useZoomStore((s) => (s.sessionId === sessionId ? s.view : undefined));
  const setView = useCallback(
    (next: ViewRange | undefined) => useZoomStore.getState().setView(sessionId, next),
    [sessionId],
  );
  const [brush, setBrush] = useState<{ fromPx: number; toPx: number }>();
  const drag = useRef<{ startPx: number; view: ViewRange; brush: boolean; moved: boolean }>(undefined);
  const selectedEntry = useUiStore((s) => s.selectedEntry);
  const selectEntry = useUiStore((s) => s.selectEntry);

  useLayoutEffect(() => {
    const el = containerRef.current;
    if (!el) return;
    setWidthPx(el.clientWidth);
    const observer = new ResizeObserver(() => setWidthPx(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const n = series.contextTokens.length;
  const replay = useShownReplayResult();
  // The highest point drawn: the log's context, its markers' pre-compaction figures, subagent
  // calls and the replay's simulated context.
  const dataMax = useMemo(() => {
    let max = series.peakContextTokens;
    for (const m of series.markers) max = Math.max(max, m.preTokens ?? 0);
    for (let k = 0; k < series.side.contextTokens.length; k++)
      max = Math.max(max, series.side.contextTokens[k]!);
    for (const tokens of replay?.simulatedTokens ?? []) max = Math.max(max, tokens);
    return max;
  }, [series, replay]);
  // The frame: the window and every threshold line, with the data.
  const frameMax = useMemo(() => {
    let max = dataMax;
    for (const bar of thresholds?.bars ?? []) max = Math.max(max, bar.tokens);
    return Math.max(thresholds?.windowTokens ?? 0, max) * 1.04;
  }, [dataMax, thresholds]);
  const fitOffered = dataMax > 0 && dataMax < frameMax * FIT_OFFER_SHARE;
  const fitHeight = useZoomStore((s) => s.fitHeight) && fitOffered;
  const yMax = fitHeight ? dataMax * 1.1 : frameMax;
  const geometry = useMemo(
    () => createGeometry(widthPx, heightPx, n, yMax, view),
    [widthPx, heightPx, n, yMax, view],
  );
  // Where the marker buttons stand, as CompactionMarkers places them (timeline-markers.tsx).
  const markerClusters = useMarkerClusters(series, geometry);
  const markerSpans = useMemo(() => getClusterSpans(markerClusters), [markerClusters]);
  const selectedX = selectedEntry === undefined ? undefined : findCallAtOrBefore(series, selectedEntry);

  // Drawn at the next frame, not in the commit: a session's first render (React, then the layout
  // of the new page) and its first draw were one 113–133 ms task on a 7,000-call session; split,
  // the page paints between them. Hover moves drawn this way coalesce to one draw a frame.
  useEffect(() => {
    const frame = requestAnimationFrame(() => {
      const canvas = canvasRef.current;
      if (!canvas) return;
      const ctx = prepareCanvas(canvas, geometry.widthPx, geometry.heightPx);
      if (!ctx) return;
      const { labels, windowLabel } = drawTimeline(ctx, geometry, {
        series,
        thresholds,
        hoverX,
        selectedX,
        markerXs: series.markers.map((m) => ({ x: m.x, color: markerColor(m) })),
        markerSpans,
      });
      // Where the threshold labels went (drawn boxes, or folded into the readout): e2e/layout.spec.ts.
      containerRef.current?.setAttribute('data-threshold-labels', JSON.stringify(labels));
      // And the window's label, clear of the marker buttons: e2e/compaction-counts.spec.ts.
      containerRef.current?.setAttribute('data-window-label', JSON.stringify(windowLabel ?? null));
      // A user-timing mark on a series' first draw (once per load): bench/browser-load.ts.
      if (!drawnSeries.has(series)) {
        drawnSeries.add(series);
        performance.mark('compactlab:timeline:drawn');
      }
    });
    return () => cancelAnimationFrame(frame);
  }, [geometry, series, thresholds, hoverX, selectedX, markerSpans]);

  const current = { from: geometry.from, to: geometry.to };
  const { changeView, zoomTo, onKeyDown } = useChartZoom(containerRef, series, geometry, setView);

  // The range shown, 1-based and inclusive, as the legend numbers it.
  const rangeFirst = Math.min(n, Math.max(1, Math.ceil(geometry.from + 0.5)));
  const rangeLast = Math.min(n, Math.max(rangeFirst, Math.floor(geometry.to + 0.5)));
  const plotX = (clientX: number) => clientX - (containerRef.current?.getBoundingClientRect().left ?? 0);

  return (
    <>
      <div
        ref={containerRef}
        className={`timeline ${brush ? 'brushing' : ''}`}
        data-testid="timeline"
        data-calls={n}
        data-window={thresholds?.windowTokens}
        data-y-max={Math.round(yMax)}
        data-view-from={geometry.from.toFixed(2)}
        data-view-to={geometry.to.toFixed(2)}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the chart takes keys for zoom and pan.
        tabIndex={0}
        role="application"
        aria-roledescription="chart"
        aria-label="Context tokens per API call. Keys: + and − zoom, ← and → pan, 0 resets."
        style={{ height: heightPx }}
        onKeyDown={onKeyDown}
        onPointerDown={(e) => {
          if (n === 0 || e.button !== 0) return;
          if ((e.target as HTMLElement).closest('button, .marker-cluster-list')) return;
          e.currentTarget.setPointerCapture(e.pointerId);
          drag.current = { startPx: plotX(e.clientX), view: current, brush: e.shiftKey, moved: false };
        }}
        onPointerMove={(e) => {
          const px = plotX(e.clientX);
          const d = drag.current;
          if (d) {
            if (Math.abs(px - d.startPx) >= DRAG_THRESHOLD_PX) d.moved = true;
            if (!d.moved) return;
            setHoverX(undefined);
            if (d.brush) setBrush({ fromPx: d.startPx, toPx: px });
            else {
              const span = d.view.to - d.view.from;
              changeView(
                panView(d.view, n, (-(px - d.startPx) / (geometry.rightPx - geometry.leftPx)) * span),
              );
            }
            return;
          }
          // Over a marker or a cluster's list the call tooltip would cover them.
          if ((e.target as HTMLElement).closest('button, .marker-cluster-list')) setHoverX(undefined);
          else if (n > 0) setHoverX(pxToX(geometry, px));
        }}
        onPointerUp={(e) => {
          const d = drag.current;
          drag.current = undefined;
          setBrush(undefined);
          if (!d) return;
          const px = plotX(e.clientX);
          if (!d.moved) {
            selectEntry(series.firstEntryIndex[pxToX(geometry, px)], true);
            return;
          }
          if (d.brush) {
            const a = pxToPosition(geometry, Math.min(d.startPx, px));
            const b = pxToPosition(geometry, Math.max(d.startPx, px));
            zoomTo(Math.max(0, a), Math.min(n, b));
          }
        }}
        onPointerCancel={() => {
          drag.current = undefined;
          setBrush(undefined);
        }}
        onMouseLeave={() => setHoverX(undefined)}
      >
        <canvas ref={canvasRef} style={{ width: geometry.widthPx, height: geometry.heightPx }} />
        <ReplayOverlay geometry={geometry} series={series} onZoomTo={zoomTo} />
        {n === 0 && (
          <div className="timeline-empty muted" data-testid="timeline-empty">
            <span>No API calls with usage in this transcript{format ? `, read as a ${format}` : ''}.</span>
          </div>
        )}
        {brush && (
          <div
            className="timeline-brush"
            data-testid="timeline-brush"
            style={{
              left: Math.max(geometry.leftPx, Math.min(brush.fromPx, brush.toPx)),
              width: Math.abs(brush.toPx - brush.fromPx),
              top: geometry.topPx,
              height: geometry.bottomPx - geometry.topPx,
            }}
          />
        )}
        <CompactionMarkers series={series} geometry={geometry} onZoomTo={zoomTo} />
        <FailedRequestMarkers series={series} geometry={geometry} />
        {hoverX !== undefined && (
          <CallTooltip
            series={series}
            x={hoverX}
            geometry={geometry}
            heightPx={heightPx}
            thresholds={thresholds}
          />
        )}
      </div>
      <TimelineLegend
        count={n}
        from={geometry.from}
        to={geometry.to}
        zoomed={!isFullView(geometry)}
        onReset={() => changeView(undefined)}
        truncations={series.markers.some((m) => m.kind === 'truncate')}
        failedRequests={series.failed.length > 0}
        fitHeight={fitOffered ? fitHeight : undefined}
        onFitHeight={(fit) => useZoomStore.getState().setFitHeight(fit)}
        totals={
          isFullView(geometry) ? undefined : (
            <RangeTotals series={series} first={rangeFirst} last={rangeLast} />
          )
        }
        overview={
          <OverviewStrip values={series.contextTokens} count={n} view={current} onChange={changeView} />
        }
      />
    </>
  );
}
