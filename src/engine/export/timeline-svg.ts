import type { TimelineSeries } from '../query/timeline-series';
import type { TokenCount } from '../types';
import { escapeHtml } from './escape-html';

// The context timeline as a standalone SVG: the context of every main-thread API call, the
// strategy's threshold lines, a marker where compaction fired (A/M auto/manual, µ microcompact)
// and, when given, a replay's simulated series and its events. Colours are attributes, so the
// picture looks the same in a file viewer, an <img> and inline in the report.

export interface SvgThreshold {
  label: string;
  tokens: TokenCount;
  kind: 'trigger' | 'warning' | 'limit';
}

export interface SvgReplay {
  /** Simulated context per main call (same x axis as the series). */
  simulatedTokens: ArrayLike<number>;
  events: readonly { kind: string; afterCallPos: number }[];
}

export interface TimelineSvgOptions {
  thresholds?: readonly SvgThreshold[];
  replay?: SvgReplay;
  widthPx?: number;
  heightPx?: number;
  title?: string;
}

const COLORS = {
  background: '#ffffff',
  axis: '#6b7280',
  grid: '#e5e7eb',
  context: '#2563eb',
  simulated: '#d97706',
  trigger: '#dc2626',
  warning: '#ca8a04',
  limit: '#7f1d1d',
  marker: '#111827',
};

const MARGIN = { left: 56, right: 12, top: 24, bottom: 28 };

const fmtK = (n: number): string =>
  n >= 1_000_000 ? `${(n / 1_000_000).toFixed(1)}M` : `${Math.round(n / 1000)}k`;

/** The SVG document (with its XML namespace, so it opens as a file). */
export function renderTimelineSvg(series: TimelineSeries, options: TimelineSvgOptions = {}): string {
  const width = options.widthPx ?? 960;
  const height = options.heightPx ?? 280;
  const n = series.contextTokens.length;
  const thresholds = options.thresholds ?? [];
  let maxY = series.peakContextTokens;
  for (const t of thresholds) maxY = Math.max(maxY, t.tokens);
  if (options.replay)
    for (let i = 0; i < options.replay.simulatedTokens.length; i++)
      maxY = Math.max(maxY, options.replay.simulatedTokens[i]!);
  maxY = Math.max(1, maxY * 1.05);
  const plotW = width - MARGIN.left - MARGIN.right;
  const plotH = height - MARGIN.top - MARGIN.bottom;
  const x = (pos: number): number => MARGIN.left + (n <= 1 ? plotW / 2 : (pos / (n - 1)) * plotW);
  const y = (tokens: number): number => MARGIN.top + plotH - (tokens / maxY) * plotH;
  const r = (v: number): string => v.toFixed(1);
  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(options.title ?? 'Context timeline')}" font-family="system-ui, sans-serif" font-size="11">`,
    `<title>${escapeHtml(options.title ?? 'Context timeline')}</title>`,
    `<rect width="${width}" height="${height}" fill="${COLORS.background}"/>`,
  );
  // Horizontal grid: five steps.
  for (let i = 0; i <= 4; i++) {
    const tokens = (maxY / 4) * i;
    parts.push(
      `<line x1="${MARGIN.left}" x2="${width - MARGIN.right}" y1="${r(y(tokens))}" y2="${r(y(tokens))}" stroke="${COLORS.grid}"/>`,
      `<text x="${MARGIN.left - 6}" y="${r(y(tokens) + 4)}" text-anchor="end" fill="${COLORS.axis}">${fmtK(tokens)}</text>`,
    );
  }
  parts.push(
    `<text x="${MARGIN.left + plotW / 2}" y="${height - 6}" text-anchor="middle" fill="${COLORS.axis}">API calls (${n})</text>`,
  );
  for (const t of thresholds) {
    const color = COLORS[t.kind];
    parts.push(
      `<g class="threshold" data-kind="${t.kind}"><line x1="${MARGIN.left}" x2="${width - MARGIN.right}" y1="${r(y(t.tokens))}" y2="${r(y(t.tokens))}" stroke="${color}" stroke-dasharray="6 4"/>`,
      `<text x="${width - MARGIN.right - 4}" y="${r(y(t.tokens) - 4)}" text-anchor="end" fill="${color}">${escapeHtml(t.label)} ${fmtK(t.tokens)}</text></g>`,
    );
  }
  const polyline = (values: ArrayLike<number>, color: string, cls: string): string => {
    const points: string[] = [];
    for (let i = 0; i < values.length; i++) points.push(`${r(x(i))},${r(y(values[i]!))}`);
    return `<polyline class="${cls}" fill="none" stroke="${color}" stroke-width="1.5" points="${points.join(' ')}"/>`;
  };
  if (n > 0) parts.push(polyline(series.contextTokens, COLORS.context, 'context'));
  if (options.replay && options.replay.simulatedTokens.length > 0) {
    parts.push(polyline(options.replay.simulatedTokens, COLORS.simulated, 'simulated'));
    for (const e of options.replay.events) {
      if (e.kind !== 'compact' && e.kind !== 'microcompact') continue;
      const ex = x(e.afterCallPos + 0.5);
      parts.push(
        `<path class="replay-event" d="M${r(ex - 4)},${MARGIN.top + plotH} l4,-8 l4,8 z" fill="${COLORS.simulated}"/>`,
      );
    }
  }
  for (const m of series.markers) {
    if (!m.isMain) continue;
    const mx = x(Math.min(Math.max(m.x, 0), Math.max(0, n - 1)));
    const label = m.kind === 'microcompact' ? 'µ' : m.trigger === 'manual' ? 'M' : 'A';
    parts.push(
      `<g class="marker" data-kind="${m.kind}"><line x1="${r(mx)}" x2="${r(mx)}" y1="${MARGIN.top}" y2="${MARGIN.top + plotH}" stroke="${COLORS.marker}" stroke-width="1"/>`,
      `<text x="${r(mx)}" y="${MARGIN.top - 6}" text-anchor="middle" font-weight="bold" fill="${COLORS.marker}">${label}</text></g>`,
    );
  }
  parts.push('</svg>');
  return parts.join('\n');
}
