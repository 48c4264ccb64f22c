import { at } from '../../engine/assert';
import { prepareCanvas } from '../common/canvas';
import { type CSSProperties, useEffect, useMemo, useRef } from 'react';
import type { ReplayEvent } from '../../engine/replay/types';
import type { TimelineSeries } from '../../worker/protocol';
import { formatCount } from '../common/format';
import { useRovingFocus } from '../common/use-roving-focus';
import { useUiStore } from '../store';
import { type ChartGeometry, clipToPlot, xToPx, yToPx } from '../timeline/geometry';
import { MarkerClusterButton } from '../timeline/marker-cluster';
import { clusterMarkers } from '../timeline/marker-clusters';
import { useReplayStore } from './replay-store';
import { useReplayRun } from './use-replay';
import { formatOrdinal } from '../../engine/query/numbering';

// The simulated context over the real one on the timeline, and one marker per replay event
// along the bottom of the chart. Calls are placed by their index in `session.apiCalls`.

const SIM_COLOR = '#e37fd6';
export const EVENT_COLORS: Record<ReplayEvent['kind'], string> = {
  compact: '#e37fd6',
  truncate: '#f0a35e',
  replace: '#9fd36b',
  microcompact: '#b9a6ff',
  reset: '#4fd1c5',
  blocked: '#ef6461',
  'compact-failed': '#ef6461',
};
export const EVENT_GLYPHS: Record<ReplayEvent['kind'], string> = {
  compact: '◆',
  truncate: '✂',
  replace: '≡',
  microcompact: 'μ',
  reset: '↺',
  blocked: '!',
  'compact-failed': '✗',
};

export function describeReplayEvent(e: ReplayEvent): string {
  switch (e.kind) {
    case 'compact':
      return `Replay: ${e.mechanism} compaction (${e.trigger}) after ${formatOrdinal('api-call', e.afterApiCall)} · ${formatCount(e.preTokens)} → ${formatCount(e.postTokens)} tokens`;
    case 'truncate':
      return `Replay: truncation after ${formatOrdinal('api-call', e.afterApiCall)} · −${formatCount(e.droppedTokens)} tokens ${e.hidden ? 'hidden' : 'dropped'} · ${formatCount(e.preTokens)} → ${formatCount(e.postTokens)} tokens`;
    case 'replace':
      return `Replay: ${e.clearedToolIds?.length ?? 0} earlier file reads replaced by a notice after ${formatOrdinal('api-call', e.afterApiCall)} · −${formatCount(e.savedTokens)} tokens`;
    case 'microcompact':
      return `Replay: microcompact after ${formatOrdinal('api-call', e.afterApiCall)} · cleared ${e.clearedToolIds?.length ?? 0} results, −${formatCount(e.savedTokens)} tokens`;
    case 'reset':
      return `Replay: the log's manual compaction after ${formatOrdinal('api-call', e.afterApiCall)} · continues from the log's ${formatCount(e.postTokens)} tokens`;
    case 'blocked':
      return `Replay: ${formatCount(e.preTokens)} tokens reach the blocking limit after ${formatOrdinal('api-call', e.afterApiCall)}`;
    case 'compact-failed':
      if (e.failure === 'thrashing')
        return `Replay: the ${e.trigger} compaction after ${formatOrdinal('api-call', e.afterApiCall)} is refused (autocompact is thrashing: the third in a row within 3 calls of the one before); the history stays`;
      return `Replay: the ${e.trigger} compaction after ${formatOrdinal('api-call', e.afterApiCall)} fails (${e.failure}): its request of ${formatCount(e.requestTokens)} tokens is over the ${formatCount(e.limitTokens)} window${(e.attempts ?? 1) > 1 ? `; ${e.attempts} calls in a row` : ''}; the history stays`;
  }
}

/** The replay's result for the session on screen, if any. */
export function useShownReplayResult() {
  const sessionId = useUiStore((s) => s.currentSessionId);
  const params = useReplayStore((s) => s.runParams);
  const { data } = useReplayRun();
  return params && params.sessionId === sessionId ? data?.result : undefined;
}

/** Tooltip line for the simulated point at timeline position `x`: its value and how it was obtained. */
export function ReplayPointLine({ series, x }: { series: TimelineSeries; x: number }) {
  const result = useShownReplayResult();
  const posByCall = useMemo(() => {
    const map = new Map<number, number>();
    result?.callIndex.forEach((call, k) => {
      map.set(call, k);
    });
    return map;
  }, [result]);
  const k = posByCall.get(at(series.callIndex, x));
  if (!result || k === undefined) return null;
  const diverged = result.diverged[k] === 1;
  return (
    <div data-testid="timeline-tooltip-replay" data-kind={diverged ? 'attributed' : 'recorded'}>
      replay <b>{formatCount(result.simulatedTokens[k])}</b> tok ·{' '}
      <span className="muted">{diverged ? 'attributed per message' : 'recorded usage'}</span>
    </div>
  );
}

/** Position on the timeline's x axis of each API call index (undefined when not on it). */
function useXByCall(series: TimelineSeries): (apiCall: number) => number | undefined {
  return useMemo(() => {
    const map = new Map<number, number>();
    series.callIndex.forEach((call, x) => {
      map.set(call, x);
    });
    return (apiCall: number) => map.get(apiCall);
  }, [series]);
}

/** Replay event markers are 14px wide (a cluster box with its count ~28px). */
const EVENT_SIZES = { markerPx: 15, clusterPx: 30 };

export function ReplayOverlay({
  geometry,
  series,
  onZoomTo,
}: {
  geometry: ChartGeometry;
  series: TimelineSeries;
  /** Zooms the chart to call positions [from, to). */
  onZoomTo: (from: number, to: number) => void;
}) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const openEvent = useReplayStore((s) => s.openEvent);
  const openEventCard = useReplayStore((s) => s.openEventCard);
  const result = useShownReplayResult();
  const xOf = useXByCall(series);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const ctx = prepareCanvas(canvas, geometry.widthPx, geometry.heightPx);
    if (!ctx) return;
    if (!result) return;
    const n = result.callIndex.length;
    const plotWidthPx = geometry.rightPx - geometry.leftPx;
    // Points per visible call over all calls: decimate to ~2 points per px of the visible range.
    const visibleShare = (geometry.to - geometry.from) / geometry.count;
    const step = Math.max(1, (n * visibleShare) / (plotWidthPx * 2));
    clipToPlot(ctx, geometry);
    ctx.strokeStyle = SIM_COLOR;
    ctx.lineWidth = 1.5;
    ctx.setLineDash([5, 3]);
    ctx.beginPath();
    let started = false;
    for (let f = 0; f < n; f += step) {
      const k = Math.floor(f);
      const x = xOf(at(result.callIndex, k));
      if (x === undefined) continue;
      // Off-view points beyond the one next to each edge add nothing but path length.
      if (x < geometry.from - 2 * step - 1 || x > geometry.to + 2 * step + 1) {
        if (x > geometry.to) break;
        continue;
      }
      const px = xToPx(geometry, x);
      const py = yToPx(geometry, at(result.simulatedTokens, k));
      if (started) ctx.lineTo(px, py);
      else ctx.moveTo(px, py);
      started = true;
    }
    ctx.stroke();
    // The strategy's threshold lines are the chart's own bars (timeline/threshold-bars.ts).
    ctx.setLineDash([]);
    ctx.restore();
  }, [geometry, result, xOf]);

  const events = result?.events ?? [];
  const clusters = useMemo(() => {
    const placed = events.flatMap((e, i) => {
      const x = xOf(e.afterApiCall);
      return x === undefined ? [] : [{ e, i, x }];
    });
    return clusterMarkers(
      placed,
      (p) => xToPx(geometry, p.x + 0.5),
      EVENT_SIZES,
      geometry.leftPx,
      geometry.rightPx,
    );
  }, [events, xOf, geometry]);
  // One Tab stop for the lane, as the compaction markers' (timeline-markers.tsx).
  const openAt = clusters.findIndex((c) => c.items.some((p) => p.i === openEvent));
  const roving = useRovingFocus(clusters.length, openAt < 0 ? undefined : openAt);
  const top = geometry.bottomPx - 9;
  return (
    <>
      <canvas
        ref={canvasRef}
        className="replay-overlay"
        data-testid="replay-overlay"
        data-simulated-last={
          result ? Math.round(result.simulatedTokens[result.simulatedTokens.length - 1] ?? 0) : undefined
        }
        style={{ width: geometry.widthPx, height: geometry.heightPx }}
      />
      <div role="toolbar" aria-label="Replay markers (← → move)" onKeyDown={roving.onKeyDown}>
        {clusters.map((c, k) => {
          if (c.items.length > 1) {
            const xs = c.items.map((p) => p.x);
            return (
              <MarkerClusterButton
                key={`cluster-${at(c.items, 0).i}`}
                items={c.items.map(({ e, i }) => ({
                  key: String(i),
                  glyph: EVENT_GLYPHS[e.kind],
                  color: EVENT_COLORS[e.kind],
                  title: describeReplayEvent(e),
                  onOpen: () => openEventCard(i),
                }))}
                leftPx={c.px}
                topPx={top}
                listTopPx={geometry.topPx}
                listMaxHeightPx={Math.max(60, top - geometry.topPx - 4)}
                chartWidthPx={geometry.widthPx}
                className="replay-marker"
                testId="replay-cluster"
                onZoom={() => onZoomTo(Math.min(...xs) - 1, Math.max(...xs) + 2)}
                roving={roving.itemProps(k)}
              />
            );
          }
          const { e, i } = at(c.items, 0);
          return (
            <button
              type="button"
              key={i}
              className={`replay-marker ink ${openEvent === i ? 'open' : ''}`}
              data-testid="replay-marker"
              data-kind={e.kind}
              data-trigger={e.trigger}
              data-after-call={e.afterApiCall}
              data-event-index={i}
              title={describeReplayEvent(e)}
              aria-label={describeReplayEvent(e)}
              {...roving.itemProps(k)}
              style={{ left: c.px, top, '--c': EVENT_COLORS[e.kind] } as CSSProperties}
              onMouseMove={(ev) => ev.stopPropagation()}
              onClick={(ev) => {
                ev.stopPropagation();
                openEventCard(i);
              }}
            >
              {EVENT_GLYPHS[e.kind]}
            </button>
          );
        })}
      </div>
    </>
  );
}
