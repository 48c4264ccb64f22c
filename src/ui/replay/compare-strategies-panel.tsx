import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { CompareProgress } from '../../engine/replay/compare-strategies';
import { COMPARE_COLUMNS, EVENT_KINDS } from '../../engine/replay/compare-table';
import { getDefaultStrategyId } from '../../engine/strategies/descriptors';
import { isCustomStrategyId } from '../custom/custom-registry';
import type { ReplayCompare, SessionId } from '../../worker/protocol';
import { formatCount, formatTokensShort } from '../common/format';
import { useEscapeLayer } from '../common/use-escape';
import { sessionOverviewQuery } from '../queries';
import { StepProgress } from '../top-bar/load-progress';
import { useBranchPath } from '../timeline/branch-store';
import { type ReplayCompareParams, replayCompareQuery } from './replay-queries';
import { NO_OVERRIDES, useReplayStore } from './replay-store';
import { EVENT_GLYPHS } from './replay-overlay';
import { CompareChart, LineSwatch } from './compare-chart';

/** Cost against compactions, loaded after a first compare (compare-cost-chart.tsx). */
const CompareCostChart = lazy(() => import('./compare-cost-chart'));

// The compare view: several strategies over the same transcript at once, in the worker (prepared
// once; progress and Cancel as the sweep has). One chart, one line per strategy told apart by
// colour, dash pattern and a numbered label (compare-chart.tsx); and below, the table `compactlab replay --strategy a,b,c` prints
// (engine/replay/compare-strategies.ts). Nothing here names a strategy: the list is the registry's.

/** How many strategies the view starts with: the log's own and the next ones in registry order. */
const DEFAULT_PICKED = 3;

/** The first `DEFAULT_PICKED` ids: the log's own strategy first, then the others in list order. */
/** The log's own strategy, then the first others; every custom strategy the user ran besides. */
function getDefaultPicked(ids: readonly string[], ownId: string): string[] {
  const custom = ids.filter(isCustomStrategyId);
  const others = ids.filter((id) => id !== ownId && !custom.includes(id));
  return [...[...(ids.includes(ownId) ? [ownId] : []), ...others].slice(0, DEFAULT_PICKED), ...custom];
}

/** Text columns, left-aligned; the figures are right-aligned. */
const LEFT_COLUMNS = new Set(['strategy', 'events']);

/**
 * Where a header may break, so 15 columns fit a 693 px drawer at 1280×720 (they took 1,441 px on
 * one line each): soft hyphens in the long words, a break after each slash. The words stay whole
 * for a screen reader and in the CLI's table.
 */
const HEADER_BREAKS: Record<string, string> = {
  replaced: 're\u00ADplaced',
  truncated: 'trun\u00ADcated',
  summarized: 'summa\u00ADrized',
  cleared: 'clear\u00ADed',
  reproduced: 're\u00ADpro\u00ADduced',
  uncached: 'un\u00ADcached',
};

function HeaderLabel({ label }: { label: string }) {
  const parts = label.split('/');
  return (
    <>
      {parts.map((part, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed label, never reordered
        <span key={i}>
          {part
            .split(' ')
            .map((w) => HEADER_BREAKS[w] ?? w)
            .join(' ')}
          {i < parts.length - 1 && (
            <>
              /<wbr />
            </>
          )}
        </span>
      ))}
    </>
  );
}

/**
 * A cell as the drawer shows it: token counts compact (29.2k) and events by the chart's glyphs
 * (◆1 μ133 ↺1), each with the CLI's words on hover; a slash-separated figure may break after a
 * slash. Every figure is there.
 */
function CellText({ c, row }: { c: (typeof COMPARE_COLUMNS)[number]; row: ReplayCompare['rows'][number] }) {
  if (c.tokens) return <>{formatTokensShort(c.tokens(row))}</>;
  if (c.key === 'events') {
    const kinds = EVENT_KINDS.filter((k) => row.events[k] > 0);
    if (kinds.length === 0) return <>none</>;
    return (
      <>
        {kinds.map((k, i) => (
          <span key={k} className="strat-event">
            {i > 0 ? ' ' : ''}
            {EVENT_GLYPHS[k]}
            {row.events[k]}
          </span>
        ))}
      </>
    );
  }
  const parts = c.value(row).split('/');
  return (
    <>
      {parts.map((part, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one figure, never reordered
        <span key={i}>
          {part}
          {i < parts.length - 1 && (
            <>
              /<wbr />
            </>
          )}
        </span>
      ))}
    </>
  );
}

export function CompareTable({ result, windowTokens }: { result: ReplayCompare; windowTokens?: number }) {
  const over = (row: ReplayCompare['rows'][number]) =>
    windowTokens !== undefined && row.peakContextTokens > windowTokens;
  return (
    <div className="strat-table-wrap">
      <table className="strat-table mono" data-testid="compare-table">
        <thead>
          <tr>
            {COMPARE_COLUMNS.map((c) => (
              <th
                key={c.key}
                data-col={c.key}
                className={`${LEFT_COLUMNS.has(c.key) ? 'left' : ''}${c.key === 'strategy' ? ' strat-sticky' : ''}`}
                aria-label={c.label}
              >
                {c.key === 'strategy' ? `line · ${c.label}` : <HeaderLabel label={c.label} />}
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
              {COMPARE_COLUMNS.map((c) => (
                <td
                  key={c.key}
                  data-col={c.key}
                  className={`${LEFT_COLUMNS.has(c.key) ? 'strat-cell left' : 'strat-cell'}${c.key === 'strategy' ? ' strat-sticky' : ''}${c.key === 'peak' && over(row) ? ' over-window' : ''}`}
                  data-over-window={c.key === 'peak' && over(row) ? 'true' : undefined}
                  title={
                    c.key === 'strategy'
                      ? row.label
                      : c.key === 'peak' && over(row)
                        ? `${c.value(row)} tokens: above the model's ${formatCount(windowTokens ?? 0)}-token window, such a request would be refused`
                        : c.tokens
                          ? `${c.value(row)} tokens ${c.label}`
                          : c.key === 'events'
                            ? c.value(row)
                            : undefined
                  }
                >
                  {c.key === 'strategy' && <LineSwatch i={i} />}
                  {c.key === 'peak' && over(row) ? '▲ ' : ''}
                  <CellText c={c} row={row} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
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
      tabIndex={-1}
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
        {running && <StepProgress progress={progress} testId="compare-progress" label={runningLabel} />}
        {/* One button that turns from Run into Cancel and back (the focus stays on it). */}
        <button
          type="button"
          className={`btn small ${running ? 'danger' : 'primary'}`}
          data-testid={running ? 'compare-cancel' : 'compare-run'}
          disabled={!running && picked.length === 0}
          title={
            running
              ? undefined
              : picked.length === 0
                ? 'Pick at least one strategy'
                : 'Run the picked strategies'
          }
          onClick={running ? cancel : () => run()}
        >
          {running ? 'Cancel' : 'Run'}
        </button>
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
            <CompareChart result={result} widthPx={widthPx} windowTokens={overview?.window.windowTokens} />
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
            <CompareTable result={result} windowTokens={overview?.window.windowTokens} />
            <Suspense fallback={null}>
              <CompareCostChart result={result} />
            </Suspense>
          </>
        )}
      </div>
    </section>
  );
}

/** A disabled query's key before the first run. */
const NO_COMPARE: ReplayCompareParams = { sessionId: -1, entries: [], summaryModel: 'recorded', branchId: 0 };
