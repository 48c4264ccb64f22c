import type { ThresholdLine } from '../../engine/simulation/types';

// A strategy's threshold lines (`strategy.thresholds(knobs)`) as the chart's bars: each labelled
// by the strategy's own name for it, coloured by its kind and its place among lines of that kind.
// Nothing here names a strategy: whatever the registry's strategies return is drawn.

/** One bar of the chart, and its readout in the knobs bar. */
export interface ThresholdBar {
  id: string;
  label: string;
  tokens: number;
  kind: ThresholdLine['kind'];
  /** A trigger the knobs turned off: drawn where it would be, labelled off, never "over" it. */
  off: boolean;
  color: string;
  /** `threshold-<id without hyphens>` (`threshold-autocompact`, `threshold-maxallowed`); `-<n>` in the n-th span. */
  testId: string;
  /** Drawn over these calls only (x on the call axis, inclusive): one window's span (`getSpanBars`). */
  fromX?: number;
  toX?: number;
}

/**
 * Colours by kind, in the order a strategy lists its lines: a trigger orange (then yellow, then
 * teal), a warning yellow then red, a limit violet. They read on both palettes' chart backgrounds.
 */
const KIND_COLORS: Record<ThresholdLine['kind'], readonly string[]> = {
  trigger: ['#f0a23b', '#d9c84a', '#4fd1c5', '#e879a6'],
  warning: ['#d9c84a', '#ef6461'],
  limit: ['#b77fe0', '#ef6461'],
};

/** The line a strategy names `window` is the context window: the chart's frame, not a bar. */
const WINDOW_LINE_ID = 'window';

export interface ThresholdBars {
  bars: ThresholdBar[];
  /** The context window, when the strategy states one. */
  windowTokens?: number;
}

/** A strategy's lines as bars (lines at 0 or below are left out: nothing fires there). */
export function getThresholdBars(lines: readonly ThresholdLine[]): ThresholdBars {
  const used: Record<ThresholdLine['kind'], number> = { trigger: 0, warning: 0, limit: 0 };
  const bars: ThresholdBar[] = [];
  let windowTokens: number | undefined;
  for (const line of lines) {
    if (line.id === WINDOW_LINE_ID) {
      windowTokens = line.tokens;
      continue;
    }
    if (!(line.tokens > 0)) continue;
    const palette = KIND_COLORS[line.kind];
    const color = palette[Math.min(used[line.kind]++, palette.length - 1)]!;
    bars.push({
      id: line.id,
      label: line.off ? `${line.label} (off)` : line.label,
      tokens: line.tokens,
      kind: line.kind,
      off: line.off === true,
      color,
      testId: `threshold-${line.id.replace(/-/g, '')}`,
    });
  }
  return { bars, windowTokens };
}

/** Calls (x on the call axis, inclusive) checked against one window. */
interface WindowSpan {
  fromX: number;
  toX: number;
  windowTokens: number;
}

/**
 * The calls' windows (`ReplayResult.callWindows`, by replayed call, `xOfCall` placing each on the
 * axis) as spans of one window each; undefined when there is one span (the usual one window).
 */
export function getWindowSpans(
  callWindows: Float64Array | undefined,
  xOfCall: (k: number) => number | undefined,
): WindowSpan[] | undefined {
  if (!callWindows) return undefined;
  const spans: WindowSpan[] = [];
  for (let k = 0; k < callWindows.length; k++) {
    const x = xOfCall(k);
    if (x === undefined) continue;
    const last = spans.at(-1);
    if (last && last.windowTokens === callWindows[k]) last.toX = x;
    else spans.push({ fromX: x, toX: x, windowTokens: callWindows[k]! });
  }
  return spans.length > 1 ? spans : undefined;
}

/**
 * A log that switches models: each span's lines (the strategy's for that window) over its calls,
 * and its window as a bar where it is not the chart's frame (`frameTokens`).
 */
export function getSpanBars(
  spans: readonly WindowSpan[],
  linesFor: (windowTokens: number) => readonly ThresholdLine[],
  frameTokens: number | undefined,
): ThresholdBar[] {
  const out: ThresholdBar[] = [];
  spans.forEach((span, i) => {
    const { bars, windowTokens } = getThresholdBars(linesFor(span.windowTokens));
    const at = { fromX: span.fromX, toX: span.toX };
    for (const b of bars) out.push({ ...b, ...at, testId: `${b.testId}-${i}` });
    if (windowTokens !== undefined && windowTokens !== frameTokens)
      out.push({
        id: WINDOW_LINE_ID,
        label: 'Context window',
        tokens: windowTokens,
        kind: 'limit',
        off: false,
        color: KIND_COLORS.limit[0]!,
        testId: `threshold-window-${i}`,
        ...at,
      });
  });
  return out;
}

/** The lowest trigger at call `x` (a span's bar holds over its calls only): where the strategy first acts (the tooltip's "over …"). */
export function getFirstTrigger(bars: readonly ThresholdBar[], x?: number): ThresholdBar | undefined {
  let first: ThresholdBar | undefined;
  for (const b of bars) {
    const outside = x !== undefined && ((b.fromX ?? x) > x || (b.toX ?? x) < x);
    if (b.kind === 'trigger' && !b.off && !outside && (!first || b.tokens < first.tokens)) first = b;
  }
  return first;
}
