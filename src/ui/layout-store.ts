import { create } from 'zustand';

// Panel sizes the user dragged: the chart height and the side panel width, remembered across
// visits in localStorage (sizes only, nothing from a transcript).

const CHART_KEY = 'compactlab.chartHeightPx';
const SIDE_KEY = 'compactlab.sidePanelPx';

const CHART_HEIGHT_LIMITS = { minPx: 90, maxPx: 640 } as const;
const SIDE_WIDTH_LIMITS = { minPx: 300, maxPx: 1200 } as const;

function readNumber(key: string): number | undefined {
  try {
    const value = Number(globalThis.localStorage?.getItem(key));
    return Number.isFinite(value) && value > 0 ? value : undefined;
  } catch {
    return undefined; // storage disabled: sizes are not remembered
  }
}

function writeNumber(key: string, value: number): void {
  try {
    globalThis.localStorage?.setItem(key, String(Math.round(value)));
  } catch {
    // storage disabled or full: the size holds for this visit only
  }
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/**
 * Default chart height: about a fifth of the window, 136px at 720px tall (its plot, between the
 * marker row and the call axis, 92px: issue 24 found 90 too flat), so that at 1280×720 the
 * transcript still keeps at least 12 rows under the header, knobs and replay bars
 * (e2e/timeline.spec.ts, e2e/layout.spec.ts).
 */
function defaultChartHeightPx(): number {
  const h = globalThis.innerHeight || 900;
  return clamp(Math.round(h * 0.33 - 102), 136, 280);
}

function defaultSideWidthPx(): number {
  const w = globalThis.innerWidth || 1440;
  return clamp(Math.round(w * 0.3), 360, 760);
}

interface LayoutState {
  chartHeightPx: number;
  sideWidthPx: number;
  setChartHeight(px: number): void;
  setSideWidth(px: number): void;
}

const storedChartHeightPx = readNumber(CHART_KEY);
/** Whether the user has set the chart height (now or on an earlier visit). */
let chartHeightChosen = storedChartHeightPx !== undefined;
const storedSideWidthPx = readNumber(SIDE_KEY);
let sideWidthChosen = storedSideWidthPx !== undefined;

export const useLayoutStore = create<LayoutState>()((set) => ({
  chartHeightPx: clamp(
    storedChartHeightPx ?? defaultChartHeightPx(),
    CHART_HEIGHT_LIMITS.minPx,
    CHART_HEIGHT_LIMITS.maxPx,
  ),
  sideWidthPx: clamp(
    storedSideWidthPx ?? defaultSideWidthPx(),
    SIDE_WIDTH_LIMITS.minPx,
    SIDE_WIDTH_LIMITS.maxPx,
  ),
  setChartHeight: (px) => {
    const chartHeightPx = clamp(px, CHART_HEIGHT_LIMITS.minPx, CHART_HEIGHT_LIMITS.maxPx);
    chartHeightChosen = true;
    writeNumber(CHART_KEY, chartHeightPx);
    set({ chartHeightPx });
  },
  setSideWidth: (px) => {
    const sideWidthPx = clamp(px, SIDE_WIDTH_LIMITS.minPx, SIDE_WIDTH_LIMITS.maxPx);
    sideWidthChosen = true;
    writeNumber(SIDE_KEY, sideWidthPx);
    set({ sideWidthPx });
  },
}));

// Until the user drags a splitter, the size it sets follows the window's.
if (typeof window !== 'undefined' && !(chartHeightChosen && sideWidthChosen)) {
  const follow = () => {
    if (chartHeightChosen && sideWidthChosen) window.removeEventListener('resize', follow);
    useLayoutStore.setState((s) => ({
      chartHeightPx: chartHeightChosen ? s.chartHeightPx : defaultChartHeightPx(),
      sideWidthPx: sideWidthChosen ? s.sideWidthPx : defaultSideWidthPx(),
    }));
  };
  window.addEventListener('resize', follow);
}
