import type { KeyboardEvent } from 'react';
import { formatMillions, formatUsd } from '../../engine/replay/compare-table';
import type { UsageGroup } from '../../engine/stats/usage';
import { formatCount } from '../common/format';

// The usage charts: bars per day (oldest left) and per project (largest first), drawn as the
// what-if's charts are (an SVG in a figure, the same axis and tick styles). Each bar is a button:
// a click, Enter or Space chooses its day or project (the list shows its sessions).

type UsageMetric = 'cost' | 'tokens';

/** The token kinds stacked in a tokens bar, bottom up, with their colour variables (usage.css). */
export const TOKEN_KINDS = [
  { key: 'cacheRead', label: 'cache read', color: 'var(--usage-read)' },
  { key: 'cacheWrite', label: 'cache write', color: 'var(--usage-write)' },
  { key: 'input', label: 'input', color: 'var(--usage-input)' },
  { key: 'output', label: 'output', color: 'var(--usage-output)' },
] as const;

const totalTokens = (g: UsageGroup) => g.input + g.output + g.cacheRead + g.cacheWrite;
const metricValue = (g: UsageGroup, metric: UsageMetric) => (metric === 'cost' ? g.costUsd : totalTokens(g));
const formatMetric = (v: number, metric: UsageMetric) =>
  metric === 'cost' ? formatUsd(v) : formatMillions(v);

/** What a bar says to a screen reader and in its tooltip. */
export function describeGroup(g: UsageGroup): string {
  const unpriced = g.unpricedCalls > 0 ? ` (+${g.unpricedCalls} calls unpriced)` : '';
  return `${g.label}: ${formatUsd(g.costUsd)}${unpriced}, ${formatMillions(totalTokens(g))} tokens, ${formatCount(g.calls)} calls, ${g.sessions} ${g.sessions === 1 ? 'session' : 'sessions'}`;
}

interface ChartProps {
  groups: readonly UsageGroup[];
  metric: UsageMetric;
  selected?: string;
  onPick(g: UsageGroup): void;
}

const onKey = (e: KeyboardEvent, pick: () => void) => {
  if (e.key === 'Enter' || e.key === ' ') {
    e.preventDefault();
    pick();
  }
};

/** A bar's segments, bottom up: one of the metric, or the token kinds stacked. */
function segments(g: UsageGroup, metric: UsageMetric): { value: number; color: string }[] {
  if (metric === 'cost') return [{ value: g.costUsd, color: 'var(--usage-cost)' }];
  return TOKEN_KINDS.map((k) => ({ value: g[k.key], color: k.color }));
}

const W = 560;
const H = 230;
const PAD = { l: 56, r: 10, t: 16, b: 44 };
/** Least horizontal room between two day labels (px of the chart's box). */
const LABEL_PX = 64;

/** Bars per day, oldest left; the dates under them as many as fit. */
export function DayChart({ groups, metric, selected, onPick }: ChartProps) {
  const max = Math.max(0, ...groups.map((g) => metricValue(g, metric))) || 1;
  const y = (v: number) => PAD.t + (H - PAD.t - PAD.b) * (1 - v / max);
  const slot = (W - PAD.l - PAD.r) / Math.max(1, groups.length);
  const bar = Math.max(2, Math.min(36, slot * 0.7));
  const every = Math.max(1, Math.ceil(LABEL_PX / slot));
  const first = groups[0]?.label ?? '';
  const last = groups.at(-1)?.label ?? '';
  const title = `${metric === 'cost' ? 'Cost' : 'Tokens'} by day`;
  return (
    <figure className="whatif-chart usage-chart" data-testid="usage-chart-day">
      <figcaption>
        {title}
        {groups.length === 1
          ? ` · ${first}, the one day with calls`
          : groups.length > 1
            ? ` · ${first} to ${last}, ${groups.length} days with calls`
            : ''}
      </figcaption>
      {/* biome-ignore lint/a11y/useSemanticElements: an SVG holding the bars, each a button. */}
      <svg viewBox={`0 0 ${W} ${H}`} width={W} height={H} role="group" aria-label={title}>
        <line className="whatif-axis" x1={PAD.l} x2={W - PAD.r} y1={y(0)} y2={y(0)} />
        <text className="whatif-tick" x={PAD.l - 6} y={y(max) + 4} textAnchor="end">
          {formatMetric(max, metric)}
        </text>
        <text className="whatif-tick" x={PAD.l - 6} y={y(0) + 4} textAnchor="end">
          {metric === 'cost' ? '$0' : '0'}
        </text>
        {groups.map((g, i) => {
          const cx = PAD.l + slot * (i + 0.5);
          let base = 0;
          const isSelected = selected === g.key;
          return (
            // biome-ignore lint/a11y/useSemanticElements: an SVG bar cannot be a <button>; it acts as one.
            <g
              key={g.key || '(none)'}
              role="button"
              tabIndex={0}
              aria-label={describeGroup(g)}
              aria-pressed={isSelected}
              className={`usage-bar${isSelected ? ' selected' : ''}`}
              data-testid="usage-bar-day"
              data-key={g.key}
              data-cost={g.costUsd}
              onClick={() => onPick(g)}
              onKeyDown={(e) => onKey(e, () => onPick(g))}
            >
              <title>{describeGroup(g)}</title>
              {/* The whole slot takes the click: a day of a few cents is a bar of a pixel. */}
              <rect className="usage-hit" x={cx - slot / 2} y={PAD.t} width={slot} height={y(0) - PAD.t} />
              {segments(g, metric).map((s, j) => {
                const top = y(base + s.value);
                const rect = (
                  <rect
                    // biome-ignore lint/suspicious/noArrayIndexKey: a fixed stack, bottom up.
                    key={j}
                    x={cx - bar / 2}
                    y={top}
                    width={bar}
                    height={Math.max(0, y(base) - top)}
                    style={{ fill: s.color }}
                  />
                );
                base += s.value;
                return rect;
              })}
              {i % every === 0 && (
                <text className="whatif-tick" x={cx} y={H - PAD.b + 14} textAnchor="middle">
                  {g.key ? g.label.slice(5) : 'no time'}
                </text>
              )}
            </g>
          );
        })}
        {groups.length > 0 && (
          <text className="whatif-tick muted" x={PAD.l} y={H - 8}>
            {first.slice(0, 4)}
            {last.slice(0, 4) !== first.slice(0, 4) ? `–${last.slice(0, 4)}` : ''} (month-day)
          </text>
        )}
      </svg>
    </figure>
  );
}

/** Projects shown as bars; the others are in the table. */
const PROJECT_BARS = 10;
const ROW_PX = 19;
const PW = 560;
const LABEL_W = 150;
const VALUE_W = 64;

/** Horizontal bars per project, largest first (by the metric), the name left, the value right. */
export function ProjectChart({ groups, metric, selected, onPick }: ChartProps) {
  const sorted = [...groups].sort((a, b) => metricValue(b, metric) - metricValue(a, metric));
  const shown = sorted.slice(0, PROJECT_BARS);
  const max = Math.max(0, ...shown.map((g) => metricValue(g, metric))) || 1;
  const height = 8 + shown.length * ROW_PX;
  const x = (v: number) => ((PW - LABEL_W - VALUE_W - 8) * v) / max;
  const title = `${metric === 'cost' ? 'Cost' : 'Tokens'} by project`;
  return (
    <figure className="whatif-chart usage-chart" data-testid="usage-chart-project">
      <figcaption>
        {title}
        {sorted.length > shown.length
          ? ` · the ${shown.length} largest of ${sorted.length} (all in the table)`
          : ` · ${sorted.length} ${sorted.length === 1 ? 'project' : 'projects'}`}
      </figcaption>
      {/* biome-ignore lint/a11y/useSemanticElements: an SVG holding the bars, each a button. */}
      <svg viewBox={`0 0 ${PW} ${height}`} width={PW} height={height} role="group" aria-label={title}>
        {shown.map((g, i) => {
          const top = 4 + i * ROW_PX;
          let base = 0;
          const isSelected = selected === g.key;
          const name = g.label.length > 22 ? `${g.label.slice(0, 21)}…` : g.label;
          return (
            // biome-ignore lint/a11y/useSemanticElements: an SVG bar cannot be a <button>; it acts as one.
            <g
              key={g.key || '(none)'}
              role="button"
              tabIndex={0}
              aria-label={`${describeGroup(g)}${g.key ? ` (${g.key})` : ''}`}
              aria-pressed={isSelected}
              className={`usage-bar${isSelected ? ' selected' : ''}`}
              data-testid="usage-bar-project"
              data-key={g.key}
              data-cost={g.costUsd}
              onClick={() => onPick(g)}
              onKeyDown={(e) => onKey(e, () => onPick(g))}
            >
              <title>{`${describeGroup(g)}${g.key ? `\n${g.key}` : ''}`}</title>
              <rect className="usage-hit" x={0} y={top} width={PW} height={ROW_PX} />
              <text className="whatif-tick" x={LABEL_W - 6} y={top + 13} textAnchor="end">
                {name}
              </text>
              {segments(g, metric).map((s, j) => {
                const left = LABEL_W + x(base);
                base += s.value;
                return (
                  <rect
                    // biome-ignore lint/suspicious/noArrayIndexKey: a fixed stack, left to right.
                    key={j}
                    x={left}
                    y={top + 3}
                    width={Math.max(0, LABEL_W + x(base) - left)}
                    height={ROW_PX - 6}
                    style={{ fill: s.color }}
                  />
                );
              })}
              <text className="whatif-tick" x={LABEL_W + x(base) + 5} y={top + 13}>
                {formatMetric(metricValue(g, metric), metric)}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
