import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { CompareProgress, CompareSeries } from '../../engine/replay/compare-strategies';
import { COMPARE_COLUMNS } from '../../engine/replay/compare-table';
import { getDefaultStrategyId } from '../../engine/strategies/descriptors';
import { isCustomStrategyId } from '../custom/custom-registry';
import type { ReplayCompare, SessionId } from '../../worker/protocol';
import { formatCount, formatTokensShort } from '../common/format';
import { useEscapeLayer } from '../common/use-escape';
import { sessionOverviewQuery } from '../queries';
import { getNiceStep } from '../timeline/geometry';
import { getThresholdBars } from '../timeline/threshold-bars';
import { ProgressBar } from '../top-bar/load-progress';
import { useBranchPath } from '../timeline/branch-store';
import { type ReplayCompareParams, replayCompareQuery } from './replay-queries';
import { NO_OVERRIDES, useReplayStore } from './replay-store';
import { EVENT_GLYPHS } from './replay-overlay';

// The compare view: several strategies over the same transcript at once, in the worker (prepared
// once; progress and Cancel as the sweep has). One chart, one line per strategy told apart by
// colour, dash pattern and a numbered label; each strategy's threshold lines in its colour; its
// events marked on its line; and below, the table `compactlab replay --strategy a,b,c` prints
// (engine/replay/compare-strategies.ts). Nothing here names a strategy: the list is the registry's.

/** How many strategies the view starts with: the log's own and the next ones in registry order. */
const DEFAULT_PICKED = 3;
const CHART_HEIGHT_PX = 240;
const PAD = { left: 44, right: 12, top: 10, bottom: 22 };
/** Height of a label line at the right edge (labels closer than this are moved apart). */
const LABEL_PX = 12;
/** Width of one character of the 10px monospace labels. */
const MONO_CHAR_PX = 6.1;
/** Series styles by position among the picked: colours from the palette (light-dark), dashes. */
const SERIES_DASHES = ['', '7 3', '2 3', '9 3 2 3', '4 4', '1 3'];
const SERIES_COUNT = 6;

function seriesStyle(i: number): { color: string; dash: string } {
  return {
    color: `var(--cmp-${i % SERIES_COUNT})`,
    dash: SERIES_DASHES[i % SERIES_DASHES.length]!,
  };
}

/** The first `DEFAULT_PICKED` ids: the log's own strategy first, then the others in list order. */
/** The log's own strategy, then the first others; every custom strategy the user ran besides. */
function getDefaultPicked(ids: readonly string[], ownId: string): string[] {
  const custom = ids.filter(isCustomStrategyId);
  const others = ids.filter((id) => id !== ownId && !custom.includes(id));
  return [...[...(ids.includes(ownId) ? [ownId] : []), ...others].slice(0, DEFAULT_PICKED), ...custom];
}

/** Labels at the right edge moved apart so that none overprints the one above. */
function stackLabels<T extends { y: number }>(items: T[], minY: number, maxY: number): T[] {
  const sorted = [...items].sort((a, b) => a.y - b.y);
  let previous = Number.NEGATIVE_INFINITY;
  for (const item of sorted) {
    item.y = Math.min(maxY, Math.max(minY, item.y, previous + LABEL_PX));
    previous = item.y;
  }
  return sorted;
}

export function CompareChart({ result, widthPx }: { result: ReplayCompare; widthPx: number }) {
  const { series } = result;
  const n = Math.max(0, ...series.map((s) => s.simulatedTokens.length));
  const bars = series.map((s) => getThresholdBars(s.thresholds));
  let yMax = 1;
  for (const s of series) for (const t of s.simulatedTokens) yMax = Math.max(yMax, t);
  for (const b of bars) for (const bar of b.bars) yMax = Math.max(yMax, bar.tokens);
  yMax *= 1.05;
  const innerW = Math.max(10, widthPx - PAD.left - PAD.right);
  const innerH = CHART_HEIGHT_PX - PAD.top - PAD.bottom;
  const x = (k: number) => PAD.left + (n <= 1 ? innerW / 2 : (k / (n - 1)) * innerW);
  const y = (tokens: number) => PAD.top + innerH - (tokens / yMax) * innerH;
  const step = getNiceStep(yMax / 1.05, 4);
  const yTicks: number[] = [];
  for (let v = 0; v <= yMax; v += step) yTicks.push(v);

  // Threshold labels: one per value and colour group, stacked at the right edge.
  const thresholdLabels = stackLabels(
    series.flatMap((s, i) =>
      bars[i]!.bars.map((bar) => ({
        key: `${s.strategyId}-${bar.id}`,
        i,
        text: `${i + 1} ${bar.label} ${formatTokensShort(bar.tokens)}`,
        tokens: bar.tokens,
        y: y(bar.tokens) - 6,
      })),
    ),
    PAD.top + 4,
    PAD.top + innerH - 4,
  );
  return (
    <svg
      className="strat-chart"
      data-testid="compare-chart"
      width={widthPx}
      height={CHART_HEIGHT_PX}
      viewBox={`0 0 ${widthPx} ${CHART_HEIGHT_PX}`}
      role="img"
      aria-label={`Simulated context per main call under ${series.map((s) => s.label).join(', ')}; the table below has the figures`}
    >
      {yTicks.map((t) => (
        <g key={t}>
          <line className="strat-grid" x1={PAD.left} x2={PAD.left + innerW} y1={y(t)} y2={y(t)} />
          <text className="strat-axis" x={PAD.left - 6} y={y(t) + 3} textAnchor="end">
            {formatTokensShort(t)}
          </text>
        </g>
      ))}
      <text className="strat-axis" x={PAD.left} y={CHART_HEIGHT_PX - 6} textAnchor="start">
        call 1
      </text>
      <text className="strat-axis" x={PAD.left + innerW} y={CHART_HEIGHT_PX - 6} textAnchor="end">
        {n > 0 ? `call ${formatCount(n)}` : ''}
      </text>
      <text className="strat-axis" x={PAD.left + innerW / 2} y={CHART_HEIGHT_PX - 6} textAnchor="middle">
        main-thread API calls
      </text>
      {series.map((s, i) => {
        const { color } = seriesStyle(i);
        return bars[i]!.bars.map((bar) =>
          bar.tokens <= yMax ? (
            <line
              key={`${s.strategyId}-${bar.id}`}
              className="strat-threshold"
              data-testid="compare-threshold"
              data-strategy={s.strategyId}
              data-value={bar.tokens}
              x1={PAD.left}
              x2={PAD.left + innerW}
              y1={y(bar.tokens)}
              y2={y(bar.tokens)}
              style={{ stroke: color }}
            >
              <title>{`${s.label}: ${bar.label} ${formatCount(bar.tokens)}`}</title>
            </line>
          ) : null,
        );
      })}
      {series.map((s, i) => (
        <SeriesLine key={s.strategyId} s={s} i={i} x={x} y={y} innerW={innerW} />
      ))}
      {thresholdLabels.map((l) => (
        <g key={l.key}>
          {/* A backing so that other strategies' lines never run through the text (10px monospace ≈ 6.1px a character). */}
          <rect
            className="strat-label-back"
            x={PAD.left + innerW - 8 - l.text.length * MONO_CHAR_PX}
            y={l.y - LABEL_PX / 2 - 1}
            width={l.text.length * MONO_CHAR_PX + 8}
            height={LABEL_PX}
          />
          <text
            className="strat-threshold-label"
            x={PAD.left + innerW - 4}
            y={l.y + 3}
            textAnchor="end"
            style={{ fill: seriesStyle(l.i).color }}
          >
            {l.text}
          </text>
        </g>
      ))}
    </svg>
  );
}

/** One strategy's line (min/max per pixel column when the calls outnumber the pixels), its events. */
function SeriesLine({
  s,
  i,
  x,
  y,
  innerW,
}: {
  s: CompareSeries;
  i: number;
  x: (k: number) => number;
  y: (t: number) => number;
  innerW: number;
}) {
  const { color, dash } = seriesStyle(i);
  const values = s.simulatedTokens;
  const points = useMemo(() => {
    const n = values.length;
    const out: string[] = [];
    const columns = Math.max(1, Math.floor(innerW));
    if (n <= columns * 2) {
      for (let k = 0; k < n; k++) out.push(`${x(k).toFixed(1)},${y(values[k]!).toFixed(1)}`);
      return out.join(' ');
    }
    for (let c = 0; c < columns; c++) {
      const from = Math.floor((c / columns) * n);
      const to = Math.max(from + 1, Math.floor(((c + 1) / columns) * n));
      let lo = Number.POSITIVE_INFINITY;
      let hi = 0;
      for (let k = from; k < to && k < n; k++) {
        lo = Math.min(lo, values[k]!);
        hi = Math.max(hi, values[k]!);
      }
      out.push(`${x(from).toFixed(1)},${y(hi).toFixed(1)}`, `${x(from).toFixed(1)},${y(lo).toFixed(1)}`);
    }
    return out.join(' ');
  }, [values, x, y, innerW]);
  // One mark per kind and pixel column: thousands of clearings on a long session stay a few hundred nodes.
  const marks = useMemo(() => {
    const seen = new Set<string>();
    return s.events.flatMap((e, j) => {
      const key = `${e.kind}:${Math.round(x(e.afterCallPos) / 3)}`;
      if (seen.has(key)) return [];
      seen.add(key);
      return [{ e, j }];
    });
  }, [s.events, x]);
  const last = values.length - 1;
  return (
    <g data-testid="compare-series" data-strategy={s.strategyId} data-points={values.length}>
      <polyline
        className="strat-line"
        points={points}
        style={{ stroke: color, strokeDasharray: dash || undefined }}
      />
      {marks.map(({ e, j }) => (
        <text
          key={j}
          className="strat-event"
          data-testid="compare-event"
          data-kind={e.kind}
          x={x(e.afterCallPos)}
          y={y(e.preTokens) - 3}
          textAnchor="middle"
          style={{ fill: color }}
        >
          {EVENT_GLYPHS[e.kind]}
          <title>{`${s.label}: ${e.kind} after API call ${formatCount(e.afterApiCall + 1)} · ${formatCount(e.preTokens)} → ${formatCount(e.postTokens)} tokens`}</title>
        </text>
      ))}
      {last >= 0 && (
        <text
          className="strat-end-label"
          x={x(last) + 2}
          y={y(values[last]!) + 11 + i * 10}
          textAnchor="end"
          style={{ fill: color }}
        >
          {i + 1}
        </text>
      )}
    </g>
  );
}

/** Text columns, left-aligned; the figures are right-aligned. */
const LEFT_COLUMNS = new Set(['strategy', 'events']);

export function CompareTable({ result }: { result: ReplayCompare }) {
  return (
    <div className="strat-table-wrap">
      <table className="strat-table mono" data-testid="compare-table">
        <thead>
          <tr>
            <th className="left">line</th>
            {COMPARE_COLUMNS.map((c) => (
              <th key={c.key} data-col={c.key} className={LEFT_COLUMNS.has(c.key) ? 'left' : undefined}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {result.rows.map((row, i) => (
            <tr
              key={row.strategyId}
              data-testid="compare-row"
              data-strategy={row.strategyId}
              data-llm-calls={row.llmCalls}
              data-peak={row.peakContextTokens}
              data-cost={row.cost?.usd.toFixed(6)}
              data-real-cost={row.cost?.realUsd.toFixed(6)}
            >
              <td className="strat-cell left">
                <LineSwatch i={i} />
              </td>
              {COMPARE_COLUMNS.map((c) => (
                <td
                  key={c.key}
                  data-col={c.key}
                  className={LEFT_COLUMNS.has(c.key) ? 'strat-cell left' : 'strat-cell'}
                  title={c.key === 'strategy' ? row.label : undefined}
                >
                  {c.value(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The line's colour and dash beside its number: the legend of the chart. */
export function LineSwatch({ i }: { i: number }) {
  const { color, dash } = seriesStyle(i);
  return (
    <span className="strat-swatch">
      <svg width={26} height={8} aria-hidden="true">
        <line x1={1} x2={25} y1={4} y2={4} style={{ stroke: color, strokeDasharray: dash || undefined }} />
      </svg>
      <b style={{ color }}>{i + 1}</b>
    </span>
  );
}

export function CompareStrategiesPanel({
  sessionId,
  strategies,
  onClose,
}: {
  sessionId: SessionId;
  /** The registry's list (replay-setup). */
  strategies: { id: string; label: string; description: string }[];
  onClose: () => void;
}) {
  const overview = useQuery(sessionOverviewQuery(sessionId)).data;
  const ownId = getDefaultStrategyId(overview?.format, overview?.meta.agent);
  const ids = strategies.map((s) => s.id);
  const [picked, setPicked] = useState<string[]>(() => getDefaultPicked(ids, ownId));
  const summaryModel = useReplayStore((s) => s.summaryModel);
  const overrides = useReplayStore((s) => (s.sessionId === sessionId ? s.overrides : undefined));
  const branchId = useBranchPath(sessionId);
  const queryClient = useQueryClient();
  const [params, setParams] = useState<ReplayCompareParams>();
  const [progress, setProgress] = useState<CompareProgress>();
  const [notice, setNotice] = useState<string>();
  useEscapeLayer(onClose);

  const query = useQuery({
    ...replayCompareQuery(params ?? NO_COMPARE, setProgress),
    enabled: params !== undefined,
  });
  const running = params !== undefined && query.isFetching;
  const result = params ? query.data : undefined;

  const run = (which: readonly string[] = picked) => {
    if (which.length === 0) return;
    const next: ReplayCompareParams = {
      sessionId,
      // The picked strategies in the list's order, each under the knobs the user set for it.
      entries: ids
        .filter((id) => which.includes(id))
        .map((strategyId) => ({ strategyId, overrides: { ...(overrides?.[strategyId] ?? NO_OVERRIDES) } })),
      summaryModel,
      branchId,
    };
    setNotice(undefined);
    setProgress({ done: 0, total: next.entries.length });
    void queryClient.resetQueries({ queryKey: replayCompareQuery(next).queryKey, exact: true });
    setParams(next);
  };
  // The default pick runs as the view opens.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    run();
  });
  const cancel = () => {
    if (!params) return;
    void queryClient.cancelQueries({ queryKey: replayCompareQuery(params).queryKey, exact: true });
    setNotice(progress ? `Cancelled after ${progress.done} of ${progress.total} strategies.` : 'Cancelled.');
    setParams(undefined);
  };
  const toggle = (id: string, on: boolean) =>
    setPicked((p) => (on ? [...p.filter((x) => x !== id), id] : p.filter((x) => x !== id)));
  const fraction = progress && progress.total > 0 ? progress.done / progress.total : undefined;
  const runningLabel = strategies.find((s) => s.id === progress?.strategyId)?.label;

  const wrapRef = useRef<HTMLDivElement>(null);
  const [widthPx, setWidthPx] = useState(800);
  useLayoutEffect(() => {
    const el = wrapRef.current;
    if (!el) return;
    setWidthPx(el.clientWidth);
    const observer = new ResizeObserver(() => setWidthPx(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  return (
    <section
      className="strat-panel"
      data-testid="compare-panel"
      data-running={running ? 'true' : 'false'}
      aria-label="Compare strategies"
    >
      <div className="strat-controls">
        <span className="strat-title">Compare strategies</span>
        <fieldset className="strat-picks" data-testid="compare-picks">
          <legend className="visually-hidden">Strategies to compare</legend>
          {strategies.map((s) => (
            <label key={s.id} className="knob" title={s.description}>
              <input
                type="checkbox"
                data-testid="compare-pick"
                data-strategy={s.id}
                checked={picked.includes(s.id)}
                disabled={running}
                onChange={(e) => toggle(s.id, e.currentTarget.checked)}
              />
              <span>
                {s.label}
                {s.id === ownId ? ' (the log’s)' : ''}
              </span>
            </label>
          ))}
        </fieldset>
        {running ? (
          <>
            <span
              className="sweep-progress"
              data-testid="compare-progress"
              data-done={progress?.done ?? 0}
              data-total={progress?.total ?? 0}
            >
              <ProgressBar fraction={fraction} />
              <span className="mono small muted">
                {progress ? `${progress.done}/${progress.total}` : '…'}
                {runningLabel ? ` ${runningLabel}` : ''}
              </span>
            </span>
            <button type="button" className="btn danger small" data-testid="compare-cancel" onClick={cancel}>
              Cancel
            </button>
          </>
        ) : (
          <button
            type="button"
            className="btn primary small"
            data-testid="compare-run"
            disabled={picked.length === 0}
            title={picked.length === 0 ? 'Pick at least one strategy' : 'Run the picked strategies'}
            onClick={() => run()}
          >
            Run
          </button>
        )}
        <button type="button" className="btn link small sweep-close" title="Close (Escape)" onClick={onClose}>
          close
        </button>
      </div>
      {notice && (
        <div className="small muted" data-testid="compare-notice">
          {notice}
        </div>
      )}
      {query.error && params && <div className="error small">Compare failed: {query.error.message}</div>}
      <div ref={wrapRef} className="strat-figure">
        {result && (
          <>
            <CompareChart result={result} widthPx={widthPx} />
            <div className="strat-legend small" data-testid="compare-legend">
              {result.series.map((s, i) => (
                <span key={s.strategyId} className="legend-item" title={s.label}>
                  <LineSwatch i={i} /> {s.label}
                </span>
              ))}
              <span className="muted">
                threshold lines dashed in each strategy’s colour · {EVENT_GLYPHS.compact} compaction{' '}
                {EVENT_GLYPHS.truncate} truncation {EVENT_GLYPHS.replace} replaced {EVENT_GLYPHS.microcompact}{' '}
                clearing {EVENT_GLYPHS.reset} reset {EVENT_GLYPHS.blocked} blocked ·{' '}
                {formatCount(Math.max(1, Math.round(result.computeMs)))} ms
              </span>
            </div>
            <CompareTable result={result} />
          </>
        )}
      </div>
    </section>
  );
}

/** A disabled query's key before the first run. */
const NO_COMPARE: ReplayCompareParams = { sessionId: -1, entries: [], summaryModel: 'recorded', branchId: 0 };
