/**
 * Sizes a canvas for the device pixel ratio and returns its 2D context in CSS pixels (cleared),
 * or undefined when the canvas has no 2D context. The size is set only when it changed: setting it
 * reallocates the backing store, a third of a 7,000-call chart's first draw.
 */
export function prepareCanvas(
  canvas: HTMLCanvasElement,
  widthPx: number,
  heightPx: number,
): CanvasRenderingContext2D | undefined {
  const dpr = window.devicePixelRatio || 1;
  const width = Math.round(widthPx * dpr);
  const height = Math.round(heightPx * dpr);
  if (canvas.width !== width) canvas.width = width;
  if (canvas.height !== height) canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (!ctx) return undefined;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, widthPx, heightPx);
  return ctx;
}
