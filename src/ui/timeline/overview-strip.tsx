import { useEffect, useRef } from 'react';
import { prepareCanvas } from '../common/canvas';
import { clampView, panView, type ViewRange } from './geometry';

// A small map of the whole session beside the legend, the visible range as a window on it:
// drag the window to pan, drag elsewhere to select a range, click to centre the view there.

const WIDTH_PX = 160;
const HEIGHT_PX = 14;

export function OverviewStrip(props: {
  values: Float64Array;
  count: number;
  view: ViewRange;
  onChange: (view: ViewRange) => void;
}) {
  const { values, count, view, onChange } = props;
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const drag = useRef<{ startPos: number; view: ViewRange; pan: boolean; moved: boolean }>(undefined);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const ctx = prepareCanvas(canvas, WIDTH_PX, HEIGHT_PX);
    if (!ctx || values.length === 0) return;
    let max = 1;
    for (const v of values) if (v > max) max = v;
    ctx.fillStyle = getComputedStyle(canvas).color;
    // Max per pixel column, like the chart's own decimation.
    for (let c = 0; c < WIDTH_PX; c++) {
      const from = Math.floor((c / WIDTH_PX) * values.length);
      const to = Math.max(from + 1, Math.floor(((c + 1) / WIDTH_PX) * values.length));
      let hi = 0;
      for (let x = from; x < to && x < values.length; x++) hi = Math.max(hi, values[x]!);
      const h = Math.max(1, (hi / max) * (HEIGHT_PX - 2));
      ctx.fillRect(c, HEIGHT_PX - h, 1, h);
    }
  }, [values]);

  const posOf = (clientX: number, el: HTMLElement) =>
    ((clientX - el.getBoundingClientRect().left) / WIDTH_PX) * count;
  const leftPx = (view.from / Math.max(1, count)) * WIDTH_PX;
  const widthPx = Math.max(2, ((view.to - view.from) / Math.max(1, count)) * WIDTH_PX);

  return (
    <div
      className="overview-strip"
      data-testid="timeline-overview"
      title="The whole session: drag the window to pan, drag elsewhere to select, click to centre"
      style={{ width: WIDTH_PX, height: HEIGHT_PX }}
      onPointerDown={(e) => {
        if (count === 0 || e.button !== 0) return;
        e.currentTarget.setPointerCapture(e.pointerId);
        const pos = posOf(e.clientX, e.currentTarget);
        drag.current = { startPos: pos, view, pan: pos >= view.from && pos <= view.to, moved: false };
      }}
      onPointerMove={(e) => {
        const d = drag.current;
        if (!d) return;
        const pos = posOf(e.clientX, e.currentTarget);
        if (Math.abs(pos - d.startPos) / count < 2 / WIDTH_PX && !d.moved) return;
        d.moved = true;
        if (d.pan) onChange(panView(d.view, count, pos - d.startPos));
        else onChange(clampView({ from: Math.min(d.startPos, pos), to: Math.max(d.startPos, pos) }, count));
      }}
      onPointerUp={(e) => {
        const d = drag.current;
        drag.current = undefined;
        if (!d || d.moved) return;
        const pos = posOf(e.clientX, e.currentTarget);
        onChange(panView(d.view, count, pos - (d.view.from + d.view.to) / 2));
      }}
      onPointerCancel={() => {
        drag.current = undefined;
      }}
    >
      <canvas ref={canvasRef} style={{ width: WIDTH_PX, height: HEIGHT_PX }} />
      <div className="overview-window" style={{ left: leftPx, width: widthPx }} />
    </div>
  );
}
