import type { TimelineSeries } from '../query/timeline-series';
import type { TokenCount } from '../types';
import { escapeHtml } from './escape-html';

// The context timeline as a standalone SVG: the context of every main-thread API call, the
// strategy's threshold lines, a marker where compaction fired (A/M auto/manual, µ microcompact)
// and, when given, a replay's simulated series and its events. Colours are attributes, so the
// picture looks the same in a file viewer, an <img> and inline in the report.

interface SvgThreshold {
  label: string;
  tokens: TokenCount;
  kind: 'trigger' | 'warning' | 'limit';
  /** A trigger the knobs turned off (`ThresholdLine.off`): not drawn. */
  off?: boolean;
}

interface SvgReplay {
  /** Simulated context per main call (same x axis as the series). */
  simulatedTokens: ArrayLike<number>;
  events: readonly { kind: string; afterCallPos: number }[];
}

interface TimelineSvgOptions {
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

/** Top: the title's line above the markers' letters; bottom: the axis label and the legend. */
const MARGIN = { left: 56, right: 12, top: 40, bottom: 28 };

const fmtK = (n: number): string =>
  n === 0 ? '0' : n >= 1_000_000 ? `${+(n / 1_000_000).toFixed(2)}M` : `${Math.round(n / 1000)}k`;

/** A round grid step (1, 2 or 5 × 10^k tokens) giving about four lines up to `max`. */
function getGridStep(max: number): number {
  const raw = max / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5]) if (m * power >= raw) return m * power;
  return 10 * power;
}

/**
 * Width of one character of the 13 px bold title, px (ours: DejaVu Sans Bold, Chromium's
 * system-ui on Linux, averages 7.8 px over the title of a real session's path; 8.2 leaves a margin).
 */
const TITLE_CHAR_PX = 8.2;

/**
 * The title as drawn, within `widthPx`: a session opened from a folder is named by its path
 * ("Context timeline of explorer-tree/…/<project>/<session>.jsonl, replayed under …" is 1,470 px
 * in a 960 px picture), so the path's folders go first ("…/<session>.jsonl"), then, if it is still
 * too long, its middle. `<title>` keeps it whole.
 */
function fitTitle(title: string, widthPx: number): string {
  const maxChars = Math.floor(widthPx / TITLE_CHAR_PX);
  const fits = (text: string) => Array.from(text).length <= maxChars;
  if (fits(title)) return title;
  const short = dropFolders(title);
  if (fits(short)) return short;
  // By code point, so a cut never splits an emoji's surrogate pair.
  const chars = Array.from(short);
  const tail = Math.ceil((maxChars - 1) * 0.6);
  const head = maxChars - 1 - tail;
  return `${chars.slice(0, head).join('')}…${chars.slice(chars.length - tail).join('')}`;
}

/** The first path in `text` ("a/b/c/file.jsonl", up to the spaces around it) as "…/file.jsonl". */
function dropFolders(text: string): string {
  const isSeparator = (c: string) => c === '/' || c === '\\';
  const isSpace = (c: string) => /\s/.test(c);
  const first = text.search(/[/\\]/);
  if (first < 0) return text;
  let start = first;
  while (start > 0 && !isSpace(text[start - 1]!)) start--;
  let end = first;
  let last = first;
  for (; end < text.length && !isSpace(text[end]!); end++) if (isSeparator(text[end]!)) last = end;
  return last === end - 1 ? text : `${text.slice(0, start)}…${text.slice(last)}`;
}

/** Height of a label line, px: threshold labels closer than this are moved apart. */
const LABEL_GAP_PX = 13;

/** The SVG document (with its XML namespace, so it opens as a file). */
export function renderTimelineSvg(series: TimelineSeries, options: TimelineSvgOptions = {}): string {
  const width = options.widthPx ?? 960;
  const height = options.heightPx ?? 280;
  const n = series.contextTokens.length;
  const thresholds = (options.thresholds ?? []).filter((t) => !t.off);
  let maxY = series.peakContextTokens;
  for (const t of thresholds) maxY = Math.max(maxY, t.tokens);
  if (options.replay)
    for (let i = 0; i < options.replay.simulatedTokens.length; i++)
      maxY = Math.max(maxY, options.replay.simulatedTokens[i]!);
  maxY = Math.max(1, maxY * 1.05);
  // The thresholds' labels stand in a column right of the plot, where no line runs through them and
  // they hide none of the context's line (inside it, a peak's line crossed them and they hid the
  // context after it). ~6.3 px a character at 11 px (ours), up to 220 px.
  const labelChars = Math.max(0, ...thresholds.map((t) => Array.from(`${t.label} ${fmtK(t.tokens)}`).length));
  const right = thresholds.length > 0 ? Math.min(220, Math.ceil(12 + labelChars * 6.3)) : MARGIN.right;
  const plotW = width - MARGIN.left - right;
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
  if (options.title)
    parts.push(
      `<text class="title" x="${MARGIN.left}" y="16" font-size="13" font-weight="bold" fill="${COLORS.marker}">${escapeHtml(fitTitle(options.title, width - MARGIN.left - MARGIN.right))}</text>`,
    );
  const step = getGridStep(maxY);
  for (let tokens = 0; tokens <= maxY; tokens += step) {
    parts.push(
      `<line x1="${MARGIN.left}" x2="${width - right}" y1="${r(y(tokens))}" y2="${r(y(tokens))}" stroke="${COLORS.grid}"/>`,
      `<text x="${MARGIN.left - 6}" y="${r(y(tokens) + 4)}" text-anchor="end" fill="${COLORS.axis}">${fmtK(tokens)}</text>`,
    );
  }
  parts.push(
    `<text x="${width - right}" y="${height - 6}" text-anchor="end" fill="${COLORS.axis}">API calls (${n})</text>`,
  );
  parts.push(renderLegend(height - 6, options.replay !== undefined));
  // Labels from the top down, each at least a line below the one before (level with its line when
  // it can be), drawn last on a halo of the background.
  let labelY = Number.NEGATIVE_INFINITY;
  const labels: string[] = [];
  for (const t of [...thresholds].sort((a, b) => b.tokens - a.tokens)) {
    const color = COLORS[t.kind];
    labelY = Math.max(y(t.tokens), labelY + LABEL_GAP_PX);
    parts.push(
      `<g class="threshold" data-kind="${t.kind}"><line x1="${MARGIN.left}" x2="${width - right}" y1="${r(y(t.tokens))}" y2="${r(y(t.tokens))}" stroke="${color}" stroke-dasharray="6 4"/></g>`,
    );
    labels.push(
      `<text class="threshold-label" data-kind="${t.kind}" x="${width - right + 6}" y="${r(labelY + 4)}" fill="${color}" stroke="${COLORS.background}" stroke-width="3" stroke-linejoin="round" paint-order="stroke">${escapeHtml(t.label)} ${fmtK(t.tokens)}</text>`,
    );
  }
  const polyline = (values: ArrayLike<number>, color: string, cls: string, extra = ''): string => {
    const points: string[] = [];
    for (let i = 0; i < values.length; i++) points.push(`${r(x(i))},${r(y(values[i]!))}`);
    return `<polyline class="${cls}" fill="none" stroke="${color}" points="${points.join(' ')}"${extra}/>`;
  };
  if (n > 0) parts.push(polyline(series.contextTokens, COLORS.context, 'context', ' stroke-width="2.5"'));
  if (options.replay && options.replay.simulatedTokens.length > 0) {
    // Dashed and thinner, so the recorded line shows where the two are the same.
    parts.push(
      polyline(
        options.replay.simulatedTokens,
        COLORS.simulated,
        'simulated',
        ' stroke-width="1.5" stroke-dasharray="5 3"',
      ),
    );
    for (const e of options.replay.events) {
      if (e.kind !== 'compact' && e.kind !== 'microcompact') continue;
      const ex = x(e.afterCallPos + 0.5);
      parts.push(
        `<path class="replay-event" d="M${r(ex - 4)},${MARGIN.top + plotH} l4,-8 l4,8 z" fill="${COLORS.simulated}"/>`,
      );
    }
  }
  for (const m of series.markers) {
    const mx = x(Math.min(Math.max(m.x, 0), Math.max(0, n - 1)));
    const label = markerLetter(m);
    parts.push(
      `<g class="marker" data-kind="${m.kind}"><line x1="${r(mx)}" x2="${r(mx)}" y1="${MARGIN.top}" y2="${MARGIN.top + plotH}" stroke="${COLORS.marker}" stroke-width="1"/>`,
      `<text x="${r(mx)}" y="${MARGIN.top - 6}" text-anchor="middle" font-weight="bold" fill="${COLORS.marker}">${label}</text></g>`,
    );
  }
  parts.push(...labels, '</svg>');
  return parts.join('\n');
}

/** A compaction marker's letter, as the page draws it: A auto, M manual, µ microcompact, T truncation. */
function markerLetter(m: { kind: string; trigger?: string }): string {
  if (m.kind === 'microcompact') return 'µ';
  if (m.kind === 'truncate') return 'T';
  return m.trigger === 'manual' ? 'M' : 'A';
}

/** The legend on the bottom line, from the left: what each line and letter is. */
function renderLegend(baselineY: number, withReplay: boolean): string {
  const x0 = MARGIN.left;
  const items = [
    `<line x1="${x0}" x2="${x0 + 18}" y1="${baselineY - 4}" y2="${baselineY - 4}" stroke="${COLORS.context}" stroke-width="2.5"/>`,
    `<text x="${x0 + 22}" y="${baselineY}" fill="${COLORS.axis}">context (log)</text>`,
  ];
  let x = x0 + 100;
  if (withReplay) {
    items.push(
      `<line x1="${x}" x2="${x + 18}" y1="${baselineY - 4}" y2="${baselineY - 4}" stroke="${COLORS.simulated}" stroke-width="1.5" stroke-dasharray="5 3"/>`,
      `<text x="${x + 22}" y="${baselineY}" fill="${COLORS.axis}">replay</text>`,
    );
    x += 70;
  }
  items.push(
    `<text x="${x}" y="${baselineY}" fill="${COLORS.axis}">A auto · M manual · µ microcompact · T truncation</text>`,
  );
  return `<g class="legend">${items.join('')}</g>`;
}
