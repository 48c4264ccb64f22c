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
  /** `threshold-<id without hyphens>` (`threshold-autocompact`, `threshold-maxallowed`). */
  testId: string;
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

/** The lowest trigger: where the strategy first acts (the tooltip's "over …"). */
export function getFirstTrigger(bars: readonly ThresholdBar[]): ThresholdBar | undefined {
  let first: ThresholdBar | undefined;
  for (const b of bars) if (b.kind === 'trigger' && !b.off && (!first || b.tokens < first.tokens)) first = b;
  return first;
}
