/**
 * Sizes a canvas for the device pixel ratio and returns its 2D context in CSS pixels (cleared),
 * or undefined when the canvas has no 2D context.
 */
export function prepareCanvas(
  canvas: HTMLCanvasElement,
  widthPx: number,
  heightPx: number,
): CanvasRenderingContext2D | undefined {
  const dpr = window.devicePixelRatio || 1;
  canvas.width = Math.round(widthPx * dpr);
  canvas.height = Math.round(heightPx * dpr);
  const ctx = canvas.getContext('2d');
  if (!ctx) return undefined;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, widthPx, heightPx);
  return ctx;
}
