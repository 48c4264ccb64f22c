import type { ErosionChain } from '../erosion/erosion';
import { FACT_CATEGORIES, FACT_CATEGORY_LABELS, type FactCategory } from '../retention/types';
import { escapeHtml } from './escape-html';

// The erosion chart as a standalone SVG: retention of every fact the session held since its start,
// per category, after each compaction of a chain. Each series has its own colour, dash pattern
// and marker shape, and its name and last value are written at its end, so it reads without
// colour. Colours are attributes over the picture's own background (light or dark palette), so it
// looks the same inline in the report, in an <img> in the page and saved as a file.

type ErosionSvgPalette = 'light' | 'dark';

interface ErosionSvgOptions {
  title?: string;
  palette?: ErosionSvgPalette;
  widthPx?: number;
  /** Height of the plot area and axes; a legend below adds its rows. */
  heightPx?: number;
  /** Series names at their line's end (wide pictures), or in rows below the plot (narrow ones). */
  legend?: 'right' | 'below';
}

type Shape = 'circle' | 'square' | 'triangle' | 'diamond' | 'cross' | 'bar' | 'star';

interface SeriesStyle {
  light: string;
  dark: string;
  dash: string;
  shape: Shape;
}

/** 'all' is every fact; the rest are the retention categories. */
type ErosionSeriesKey = FactCategory | 'all';

export const EROSION_SERIES_STYLES: Record<ErosionSeriesKey, SeriesStyle> = {
  all: { light: '#111827', dark: '#f9fafb', dash: '', shape: 'circle' },
  path: { light: '#1d4ed8', dark: '#93c5fd', dash: '6 3', shape: 'square' },
  command: { light: '#b45309', dark: '#fcd34d', dash: '2 3', shape: 'triangle' },
  identifier: { light: '#047857', dark: '#6ee7b7', dash: '8 3 2 3', shape: 'diamond' },
  error: { light: '#b91c1c', dark: '#fca5a5', dash: '1 3', shape: 'cross' },
  instruction: { light: '#7c3aed', dark: '#c4b5fd', dash: '10 4', shape: 'star' },
  'last-request': { light: '#0f766e', dark: '#5eead4', dash: '4 2 1 2', shape: 'bar' },
};

const EROSION_SERIES_LABELS: Record<ErosionSeriesKey, string> = {
  all: 'All facts',
  ...FACT_CATEGORY_LABELS,
};

const PALETTES = {
  light: { background: '#ffffff', text: '#111827', axis: '#4b5563', grid: '#e5e7eb' },
  dark: { background: '#111827', text: '#e5e7eb', axis: '#9ca3af', grid: '#374151' },
};

/** One series: the ratio after each step (undefined while the category has no fact yet). */
interface ErosionSeries {
  key: ErosionSeriesKey;
  label: string;
  values: (number | undefined)[];
}

/** The series a chain draws: all facts, then each category that has any fact. */
export function getErosionSeries(chain: ErosionChain): ErosionSeries[] {
  const out: ErosionSeries[] = [
    {
      key: 'all',
      label: EROSION_SERIES_LABELS.all,
      values: chain.steps.map((s) => (s.total ? s.ratio : undefined)),
    },
  ];
  for (const c of FACT_CATEGORIES) {
    if (!chain.steps.some((s) => s.byCategory[c].total > 0)) continue;
    out.push({
      key: c,
      label: EROSION_SERIES_LABELS[c],
      values: chain.steps.map((s) => (s.byCategory[c].total ? s.byCategory[c].ratio : undefined)),
    });
  }
  return out;
}

/** A marker path centred on (x, y). */
function marker(shape: Shape, x: number, y: number, r: number): string {
  const f = (n: number) => n.toFixed(1);
  switch (shape) {
    case 'circle':
      return `M${f(x - r)},${f(y)}a${r},${r} 0 1,0 ${2 * r},0a${r},${r} 0 1,0 ${-2 * r},0Z`;
    case 'square':
      return `M${f(x - r)},${f(y - r)}h${2 * r}v${2 * r}h${-2 * r}Z`;
    case 'triangle':
      return `M${f(x)},${f(y - r - 1)}L${f(x + r + 1)},${f(y + r)}L${f(x - r - 1)},${f(y + r)}Z`;
    case 'diamond':
      return `M${f(x)},${f(y - r - 1)}L${f(x + r + 1)},${f(y)}L${f(x)},${f(y + r + 1)}L${f(x - r - 1)},${f(y)}Z`;
    case 'cross':
      return `M${f(x - r)},${f(y - r)}L${f(x + r)},${f(y + r)}M${f(x + r)},${f(y - r)}L${f(x - r)},${f(y + r)}`;
    case 'bar':
      return `M${f(x - r - 1)},${f(y - 1.5)}h${2 * r + 2}v3h${-2 * r - 2}Z`;
    case 'star':
      return `M${f(x)},${f(y - r - 1)}L${f(x)},${f(y + r + 1)}M${f(x - r - 1)},${f(y)}L${f(x + r + 1)},${f(y)}M${f(x - r)},${f(y - r)}L${f(x + r)},${f(y + r)}M${f(x + r)},${f(y - r)}L${f(x - r)},${f(y + r)}`;
  }
}

/** The chart; an empty chain draws its axes and says so. */
export function renderErosionSvg(chain: ErosionChain, options: ErosionSvgOptions = {}): string {
  const width = options.widthPx ?? 760;
  const below = options.legend === 'below';
  const n = chain.steps.length;
  const series = n === 0 ? [] : getErosionSeries(chain);
  // Two columns of names when each has room for the longest ("User instructions & rules 100%").
  const columns = below && width >= 460 ? 2 : 1;
  const legendRows = below ? Math.ceil(series.length / columns) : 0;
  const height = (options.heightPx ?? 300) + legendRows * 16;
  const paletteName = options.palette ?? 'light';
  const p = PALETTES[paletteName];
  const left = 44;
  const right = below ? 16 : 200;
  const top = options.title ? 34 : 14;
  const bottom = 40 + legendRows * 16;
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const x = (i: number) => left + (n <= 1 ? plotW / 2 : (i / (n - 1)) * plotW);
  const y = (ratio: number) => top + (1 - ratio) * plotH;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="12" role="img" aria-label="${escapeHtml(options.title ?? 'Retention after each compaction')}">`,
    `<rect width="${width}" height="${height}" fill="${p.background}"/>`,
  ];
  if (options.title)
    out.push(
      `<text x="${left}" y="20" fill="${p.text}" font-size="14" font-weight="600">${escapeHtml(options.title)}</text>`,
    );
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    out.push(
      `<line x1="${left}" x2="${left + plotW}" y1="${y(tick).toFixed(1)}" y2="${y(tick).toFixed(1)}" stroke="${p.grid}"/>`,
      `<text x="${left - 6}" y="${(y(tick) + 4).toFixed(1)}" fill="${p.axis}" text-anchor="end">${tick * 100}%</text>`,
    );
  }
  out.push(
    `<line x1="${left}" x2="${left}" y1="${top}" y2="${top + plotH}" stroke="${p.axis}"/>`,
    `<line x1="${left}" x2="${left + plotW}" y1="${top + plotH}" y2="${top + plotH}" stroke="${p.axis}"/>`,
  );
  for (let i = 0; i < n; i++)
    out.push(
      `<text x="${x(i).toFixed(1)}" y="${top + plotH + 16}" fill="${p.axis}" text-anchor="middle">${i + 1}</text>`,
    );
  out.push(
    `<text x="${left + plotW / 2}" y="${top + plotH + 32}" fill="${p.axis}" text-anchor="middle">${below ? 'after compaction n' : 'after compaction n (kept of every fact held since the start)'}</text>`,
  );
  if (n === 0) {
    out.push(
      `<text x="${left + plotW / 2}" y="${top + plotH / 2}" fill="${p.text}" text-anchor="middle">No summary to score</text>`,
      '</svg>',
    );
    return out.join('');
  }
  const ends: { y: number; text: string; color: string; key: ErosionSeriesKey }[] = [];
  for (const s of series) {
    const style = EROSION_SERIES_STYLES[s.key];
    const color = style[paletteName];
    const points = s.values.map((v, i) => (v === undefined ? undefined : { x: x(i), y: y(v), v, i }));
    let d = '';
    let pen = false;
    for (const pt of points) {
      if (!pt) {
        pen = false;
        continue;
      }
      d += `${pen ? 'L' : 'M'}${pt.x.toFixed(1)},${pt.y.toFixed(1)}`;
      pen = true;
    }
    const strong = s.key === 'all';
    out.push(
      `<g data-series="${s.key}"><path d="${d}" fill="none" stroke="${color}" stroke-width="${strong ? 3 : 1.8}"${style.dash ? ` stroke-dasharray="${style.dash}"` : ''}/>`,
    );
    for (const pt of points) {
      if (!pt) continue;
      const shape = marker(style.shape, pt.x, pt.y, strong ? 4 : 3.5);
      const filled = style.shape !== 'cross' && style.shape !== 'star';
      out.push(
        `<path d="${shape}" ${filled ? `fill="${color}"` : `fill="none" stroke="${color}" stroke-width="1.8"`}><title>${escapeHtml(s.label)} after compaction ${pt.i + 1}: ${Math.round(pt.v * 100)}%</title></path>`,
      );
    }
    out.push('</g>');
    const last = [...points].reverse().find((pt) => pt !== undefined);
    if (last) ends.push({ y: last.y, text: `${s.label} ${Math.round(last.v * 100)}%`, color, key: s.key });
  }
  if (below) {
    // The names under the axis, in series order.
    for (const [i, e] of ends.entries()) {
      const lx = left + (i % columns) * (plotW / columns);
      const ly = top + plotH + 52 + Math.floor(i / columns) * 16;
      const style = EROSION_SERIES_STYLES[e.key];
      out.push(
        `<line x1="${lx}" x2="${lx + 22}" y1="${ly - 4}" y2="${ly - 4}" stroke="${e.color}" stroke-width="2"${style.dash ? ` stroke-dasharray="${style.dash}"` : ''}/>`,
        `<path d="${marker(style.shape, lx + 11, ly - 4, 3.5)}" ${style.shape !== 'cross' && style.shape !== 'star' ? `fill="${e.color}"` : `fill="none" stroke="${e.color}" stroke-width="1.8"`}/>`,
        `<text x="${lx + 28}" y="${ly}" fill="${p.text}">${escapeHtml(e.text)}</text>`,
      );
    }
    out.push('</svg>');
    return out.join('');
  }
  // End labels, pushed apart so none overlaps the next, and up again when they leave the plot.
  ends.sort((a, b) => a.y - b.y);
  const placed: number[] = [];
  let floor = top - 10;
  for (const e of ends) {
    floor = Math.max(e.y + 4, floor + 14);
    placed.push(floor);
  }
  const overflow = Math.max(0, (placed.at(-1) ?? 0) - (top + plotH + 4));
  for (const [i, e] of ends.entries()) {
    const ly = (placed[i] ?? 0) - overflow;
    const style = EROSION_SERIES_STYLES[e.key];
    out.push(
      `<path d="${marker(style.shape, left + plotW + 14, ly - 4, 3.5)}" ${style.shape !== 'cross' && style.shape !== 'star' ? `fill="${e.color}"` : `fill="none" stroke="${e.color}" stroke-width="1.8"`}/>`,
      `<text x="${left + plotW + 24}" y="${ly.toFixed(1)}" fill="${p.text}">${escapeHtml(e.text)}</text>`,
    );
  }
  out.push('</svg>');
  return out.join('');
}
