import { type KeyboardEvent, type RefObject, useCallback, useEffect, useRef } from 'react';
import type { TimelineSeries } from '../../worker/protocol';
import { type ChartGeometry, panView, pxToPosition, type ViewRange, zoomView } from './geometry';
import { useRevealStore } from './reveal-store';

// The chart's zoom and pan: wheel (a native listener: React's is passive), keys, and the reveal of
// the visible range's first entry in the transcript once a change settles. A new series starts
// unzoomed. The view itself is the chart's state (its geometry derives from it).

/** Wheel zoom: factor per pixel of wheel delta (one notch ≈ 100px → ×1.22). */
const WHEEL_ZOOM_PER_PX = 0.002;
/** Keyboard zoom step and pan step (fraction of the visible span). */
const KEY_ZOOM = 1.5;
const KEY_PAN = 0.2;
/** Wait after the last zoom/pan step before the transcript reveals its first entry, ms. */
const REVEAL_DELAY_MS = 120;

/** Zoom and pan of the chart whose `geometry` shows `series`; `setView` is the chart's view state. */
export function useChartZoom(
  containerRef: RefObject<HTMLDivElement | null>,
  series: TimelineSeries,
  geometry: ChartGeometry,
  setView: (view: ViewRange | undefined) => void,
) {
  const n = series.contextTokens.length;
  const revealTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const requestReveal = useRevealStore((s) => s.requestReveal);
  // A new session starts unzoomed: the range is kept by session (zoom-store.ts).
  useEffect(() => () => clearTimeout(revealTimer.current), []);

  /** Sets the visible range from a zoom/pan; the transcript then shows its first entry. */
  const changeView = useCallback(
    (next: ViewRange | undefined) => {
      setView(next);
      clearTimeout(revealTimer.current);
      revealTimer.current = setTimeout(() => {
        const firstX = Math.min(n - 1, Math.max(0, Math.ceil((next?.from ?? 0) - 0.5)));
        // A range from the first call also shows what precedes it (the session's opening entries).
        const entry = firstX === 0 ? 0 : series.firstEntryIndex[firstX];
        if (entry !== undefined) requestReveal(entry);
      }, REVEAL_DELAY_MS);
    },
    [n, series, requestReveal, setView],
  );
  const zoomTo = useCallback(
    (fromX: number, toX: number) => changeView(zoomView({ from: fromX, to: toX }, n, 1, (fromX + toX) / 2)),
    [changeView, n],
  );

  // Wheel: a native listener, because React's is passive and the page must not scroll meanwhile.
  const latest = useRef({ geometry, changeView, n });
  latest.current = { geometry, changeView, n };
  useEffect(() => {
    const el = containerRef.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      const { geometry: g, changeView: change, n: count } = latest.current;
      if (count === 0) return;
      e.preventDefault();
      const rect = el.getBoundingClientRect();
      const current = { from: g.from, to: g.to };
      const span = g.to - g.from;
      const horizontal = Math.abs(e.deltaX) > Math.abs(e.deltaY) ? e.deltaX : e.shiftKey ? e.deltaY : 0;
      if (horizontal !== 0) {
        change(panView(current, count, (horizontal / (g.rightPx - g.leftPx)) * span));
        return;
      }
      const anchor = pxToPosition(g, e.clientX - rect.left);
      const pxDelta = e.deltaMode === 1 ? e.deltaY * 33 : e.deltaY; // line mode: ~33px a line
      change(zoomView(current, count, Math.exp(pxDelta * WHEEL_ZOOM_PER_PX), anchor));
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [containerRef]);

  const current = { from: geometry.from, to: geometry.to };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (n === 0 || e.target !== e.currentTarget) return;
    const span = geometry.to - geometry.from;
    const centre = (geometry.from + geometry.to) / 2;
    const actions: Record<string, () => ViewRange | undefined> = {
      '+': () => zoomView(current, n, 1 / KEY_ZOOM, centre),
      '=': () => zoomView(current, n, 1 / KEY_ZOOM, centre),
      '-': () => zoomView(current, n, KEY_ZOOM, centre),
      _: () => zoomView(current, n, KEY_ZOOM, centre),
      ArrowLeft: () => panView(current, n, -span * KEY_PAN),
      ArrowRight: () => panView(current, n, span * KEY_PAN),
      '0': () => undefined,
    };
    const action = actions[e.key];
    if (!action) return;
    e.preventDefault();
    changeView(action());
  };

  return { changeView, zoomTo, onKeyDown };
}
