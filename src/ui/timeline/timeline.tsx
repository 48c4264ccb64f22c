import { prepareCanvas } from '../common/canvas';
import { useQuery } from '@tanstack/react-query';
import { type CSSProperties, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { TimelineMarker } from '../../engine/query/timeline-series';
import { computeThresholds } from '../../engine/thresholds';
import type { SessionId, TimelineSeries } from '../../worker/protocol';
import { formatClock, formatCount, formatDelta } from '../common/format';
import { timelineQuery } from '../queries';
import { useUiStore } from '../store';
import { drawTimeline } from './draw-timeline';
import { createGeometry, pxToX, xToPx, yToPx } from './geometry';
import { ReplayOverlay, ReplayPointLine } from '../replay/replay-overlay';
import { useFollowedBranch } from './branch-store';
import { KnobsBar } from './knobs-bar';
import { TimelineNotes } from './timeline-notes';

const CHART_HEIGHT_PX = 190;
/** Markers closer than this share a row only if they do not overlap. */
const MARKER_WIDTH_PX = 20;
const MARKER_ROW_PX = 20;

/** Row per compaction index, so markers at nearly the same x stack instead of overlapping. */
function getMarkerRows(markers: TimelineMarker[], geometry: ReturnType<typeof createGeometry>): number[] {
  const rows: number[] = [];
  const lastPxByRow: number[] = [];
  const byX = [...markers].sort((a, b) => a.x - b.x);
  for (const m of byX) {
    const px = xToPx(geometry, m.x);
    let row = 0;
    while (lastPxByRow[row] !== undefined && px - lastPxByRow[row]! < MARKER_WIDTH_PX) row++;
    lastPxByRow[row] = px;
    rows[m.compactionIndex] = row;
  }
  return rows;
}

export function markerColor(m: Pick<TimelineMarker, 'kind' | 'trigger'>): string {
  if (m.kind === 'microcompact') return '#9d8cf5';
  return m.trigger === 'manual' ? '#4fd1c5' : '#f0a23b';
}

function markerGlyph(m: TimelineMarker): string {
  if (m.kind === 'microcompact') return 'μ';
  return m.trigger === 'manual' ? 'M' : 'A';
}

function markerTitle(m: TimelineMarker): string {
  if (m.kind === 'microcompact') {
    return `Microcompact (${m.trigger}) · saved ${formatCount(m.tokensSaved)} tokens`;
  }
  const post = m.postEstimated
    ? `~${formatCount(m.postTokens)} (estimated: no usage)`
    : formatCount(m.postTokens);
  return `Compaction (${m.trigger}) · ${formatCount(m.preTokens)} → ${post} tokens`;
}

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

export function Timeline({ sessionId }: { sessionId: SessionId }) {
  const branchId = useFollowedBranch(sessionId);
  const { data: series, error } = useQuery({
    ...timelineQuery(sessionId, branchId),
    placeholderData: (d) => d,
  });
  const knobs = useUiStore((s) => s.knobs);
  const thresholds = useMemo(() => computeThresholds(knobs), [knobs]);
  return (
    <section className="timeline-section">
      <KnobsBar thresholds={thresholds} />
      <TimelineNotes sessionId={sessionId} />
      {error ? (
        <div className="panel-message error">Timeline failed: {error.message}</div>
      ) : series ? (
        <TimelineChart series={series} thresholds={thresholds} />
      ) : (
        <div className="timeline placeholder" style={{ height: CHART_HEIGHT_PX }} />
      )}
    </section>
  );
}

function TimelineChart({
  series,
  thresholds,
}: {
  series: TimelineSeries;
  thresholds: ReturnType<typeof computeThresholds>;
}) {
  const containerRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [widthPx, setWidthPx] = useState(800);
  const [hoverX, setHoverX] = useState<number>();
  const selectedEntry = useUiStore((s) => s.selectedEntry);
  const selectEntry = useUiStore((s) => s.selectEntry);
  const openCompaction = useUiStore((s) => s.openCompaction);
  const openCompactionCard = useUiStore((s) => s.openCompactionCard);

  useLayoutEffect(() => {
    const el = containerRef.current;
    if (!el) return;
    setWidthPx(el.clientWidth);
    const observer = new ResizeObserver(() => setWidthPx(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const n = series.contextTokens.length;
  const yMax = useMemo(() => {
    let max = Math.max(series.peakContextTokens, thresholds.blocking, thresholds.autoCompact);
    for (const m of series.markers) max = Math.max(max, m.preTokens ?? 0);
    for (let k = 0; k < series.side.contextTokens.length; k++)
      max = Math.max(max, series.side.contextTokens[k]!);
    return Math.max(thresholds.contextWindow, max) * 1.04;
  }, [series, thresholds]);
  const geometry = useMemo(() => createGeometry(widthPx, CHART_HEIGHT_PX, n, yMax), [widthPx, n, yMax]);
  const selectedX = selectedEntry === undefined ? undefined : findCallAtOrBefore(series, selectedEntry);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const ctx = prepareCanvas(canvas, geometry.widthPx, geometry.heightPx);
    if (!ctx) return;
    drawTimeline(ctx, geometry, {
      series,
      thresholds,
      hoverX,
      selectedX,
      markerXs: series.markers.map((m) => ({ x: m.x, color: markerColor(m) })),
    });
  }, [geometry, series, thresholds, hoverX, selectedX]);

  const hover = hoverX === undefined ? undefined : describeCall(series, hoverX, thresholds.autoCompact);
  const markerRows = useMemo(() => getMarkerRows(series.markers, geometry), [series.markers, geometry]);

  return (
    <div
      ref={containerRef}
      className="timeline"
      data-testid="timeline"
      data-calls={n}
      style={{ height: CHART_HEIGHT_PX }}
      onMouseMove={(e) => {
        if (n === 0) return;
        const rect = e.currentTarget.getBoundingClientRect();
        setHoverX(pxToX(geometry, e.clientX - rect.left));
      }}
      onMouseLeave={() => setHoverX(undefined)}
    >
      <canvas
        ref={canvasRef}
        style={{ width: geometry.widthPx, height: geometry.heightPx }}
        onClick={() => {
          if (hoverX !== undefined) selectEntry(series.firstEntryIndex[hoverX], true);
        }}
      />
      <ReplayOverlay geometry={geometry} series={series} />
      {n === 0 && <div className="timeline-empty muted">No API calls with usage in this transcript.</div>}
      {series.markers.map((m) => (
        <button
          type="button"
          key={m.compactionIndex}
          className={`compaction-marker ${m.isMain ? '' : 'side'} ${openCompaction === m.compactionIndex ? 'open' : ''}`}
          data-testid="compaction-marker"
          data-kind={m.kind}
          data-trigger={m.trigger}
          data-compaction-index={m.compactionIndex}
          title={markerTitle(m)}
          aria-label={markerTitle(m)}
          style={
            {
              left: xToPx(geometry, m.x),
              top: geometry.topPx - 12 + (markerRows[m.compactionIndex] ?? 0) * MARKER_ROW_PX,
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
      ))}
      {hover && hoverX !== undefined && (
        <div
          className="timeline-tooltip mono"
          data-testid="timeline-tooltip"
          style={{
            left: Math.min(xToPx(geometry, hoverX) + 10, geometry.widthPx - 210),
            top: Math.max(4, yToPx(geometry, series.contextTokens[hoverX]!) - 60),
          }}
        >
          {hover}
          <ReplayPointLine series={series} x={hoverX} />
        </div>
      )}
    </div>
  );
}

function describeCall(series: TimelineSeries, x: number, autoCompact: number) {
  const tokens = series.contextTokens[x]!;
  const previous = x > 0 ? series.contextTokens[x - 1] : undefined;
  const time = formatClock(series.timestampMs[x]);
  return (
    <>
      <div>
        call #{x + 1} {time && <span className="muted">{time}</span>}
      </div>
      <div>
        context <b>{series.estimated[x] ? `~${formatCount(tokens)}` : formatCount(tokens)}</b> tok
        {series.estimated[x] === 1 && <span className="muted"> (estimated: no usage)</span>}
      </div>
      <div className="muted">
        Δ {formatDelta(previous === undefined ? undefined : tokens - previous)} · out{' '}
        {formatCount(series.outputTokens[x])}
      </div>
      {tokens >= autoCompact && <div className="over">over auto-compact</div>}
    </>
  );
}
