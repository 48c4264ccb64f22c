import { describeRealKinds } from '../../engine/replay/compare-words';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { SweepPoint, SweepProgress, SweepResult } from '../../engine/replay/sweep';
import {
  DEFAULT_SWEEP_STEPS,
  getBestSweepPoint,
  getSweepScore,
  MAX_SWEEP_STEPS,
} from '../../engine/replay/sweep-score';
import { formatUsd, formatUsdDelta, isUnpriced } from '../../engine/replay/compare-table';
import type { KnobSpec, KnobValue } from '../../engine/strategies/types';
import type { SessionId } from '../../worker/protocol';
import { formatCount, formatTokensShort } from '../common/format';
import { useEscapeLayer } from '../common/use-escape';
import { StepProgress } from '../top-bar/load-progress';
import { replaySweepQuery } from './replay-queries';
import { type ReplaySweepParams, useReplayStore } from './replay-store';
import { useReplayKnobs, useReplayOverrides } from './use-replay';
import { formatPointCost, formatValue, formatValueLong, getFiredWords, SweepChart } from './sweep-chart';
import { useSuppliedSummaryTokens } from '../summaries/summary-sizes';
import { useBranchPath } from '../timeline/branch-store';

// The knob sweep: the replay re-run in the worker for each value of one numeric knob, shown as a
// line chart (compactions fired, real ones matched) and a table scored by precision and recall
// (matched, extra, missed, F1; the best value marked). A value's button sets the knob, so the
// main replay shows it. Run freezes the other knobs; Cancel aborts the worker's loop.

/** The axis title: the knob's label, and its unit when the ticks do not show it. */
function getAxisTitle(spec: KnobSpec | undefined, knob: string): string {
  const label = spec?.label ?? knob;
  return spec?.unit === 'tokens' ? `${label} (tokens)` : label;
}

const formatF1 = (f1: number) => f1.toFixed(2);

/** Index of the cheapest point (the first on ties); undefined when the points carry no cost. */
function getCheapestPoint(points: SweepPoint[]): number | undefined {
  let best: number | undefined;
  for (const [i, p] of points.entries())
    if (p.cost && p.cost.usd > 0 && (best === undefined || p.cost.usd < points[best]!.cost!.usd)) best = i;
  return best;
}

function SweepTable({
  result,
  label,
  current,
  onPick,
}: {
  result: SweepResult;
  label: string;
  current: KnobValue;
  onPick: (value: number) => void;
}) {
  const best = getBestSweepPoint(result.points, typeof current === 'number' ? current : undefined);
  const cheapest = getCheapestPoint(result.points);
  // The log's own automatic events in the strip's and the CLI's words: a Cline log's truncations
  // are no auto-compactions.
  const kinds = describeRealKinds(result.realKinds, 2);
  // Truncations in a column of their own where a replay truncated, as the CLI's sweep says them.
  const truncates = result.points.some((p) => p.events.truncate > 0);
  return (
    <div className="sweep-table-wrap">
      <table className="sweep-table mono">
        <thead>
          <tr>
            <th>{result.unit === 'tokens' ? 'value (tokens)' : 'value'}</th>
            <th title="Simulated compactions (summaries)">compactions</th>
            <th title="Tool-result clearings (microcompact)">clearings</th>
            {truncates && <th title="Simulated truncations (a range dropped, no summary)">truncations</th>}
            <th title={`Real ${kinds} reproduced within the comparison's tolerance`}>matched</th>
            <th title={`Simulated ${getFiredWords(result.points).many} with no real one near them`}>extra</th>
            <th title={`Real ${kinds} the replay did not reproduce`}>missed</th>
            <th title="F1 = 2·matched / (2·matched + extra + missed): 1 is every real one and nothing else">
              F1
            </th>
            <th title="What the session would have cost at this value, at list prices through the prompt cache (docs/cost.md); the log's real cost in the tooltip">
              cost
            </th>
            <th title="Peak simulated context">peak</th>
            <th title="Tokens summarized, all compactions">summarized</th>
            <th title="Summary tokens produced">summaries</th>
            <th title="The first API call a compaction follows">first call</th>
          </tr>
        </thead>
        <tbody>
          {result.points.map((p, i) => {
            const score = getSweepScore(p);
            return (
              <tr
                key={p.value}
                data-testid="sweep-row"
                data-value={p.value}
                data-compactions={p.events.compact}
                data-f1={score.f1}
                data-best={i === best ? 'true' : undefined}
                data-cost={p.cost?.usd.toFixed(6)}
                data-cheapest={i === cheapest ? 'true' : undefined}
                className={
                  [current === p.value ? 'current' : '', i === best ? 'best' : ''].join(' ').trim() ||
                  undefined
                }
              >
                <td>
                  <button
                    type="button"
                    className="btn link small"
                    title={`Set ${label} to ${formatValueLong(p.value, result.unit)}`}
                    onClick={() => onPick(p.value)}
                  >
                    {formatValue(p.value, result.unit)}
                  </button>
                </td>
                <td>{p.events.compact}</td>
                <td>{p.events.microcompact}</td>
                {truncates && <td>{p.events.truncate}</td>}
                <td>
                  {p.matchedReal} of {p.expectedReal}
                </td>
                <td>{score.extra}</td>
                <td>{score.missed}</td>
                <td title={i === best ? 'Best F1 of the sweep' : undefined}>
                  {formatF1(score.f1)}
                  {i === best ? ' ★' : ''}
                </td>
                <td
                  title={
                    !p.cost
                      ? undefined
                      : isUnpriced(p.cost)
                        ? `No list price for the log's ${formatCount(p.cost.unpricedCalls)} calls`
                        : `Real cost ${formatUsd(p.cost.realUsd)} (${formatUsdDelta(p.cost.usd - p.cost.realUsd)}); ${p.cost.summaryCalls} summary calls ${formatUsd(p.cost.summaryUsd)}${p.cost.unpricedCalls > 0 ? `; ${formatCount(p.cost.unpricedCalls)} calls without a list price in neither` : ''}${i === cheapest ? '; the cheapest value of the sweep' : ''}`
                  }
                >
                  {p.cost ? formatPointCost(p.cost) : '–'}
                  {i === cheapest ? ' $' : ''}
                </td>
                <td>{formatTokensShort(p.peakContextTokens)}</td>
                <td>{formatTokensShort(p.summarizedTokens)}</td>
                <td>{formatTokensShort(p.summaryTokens)}</td>
                <td>{p.firstCompactApiCall === undefined ? '–' : formatCount(p.firstCompactApiCall + 1)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function NumberField({
  label,
  value,
  onChange,
  testId,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  testId: string;
}) {
  const ok = value.trim() !== '' && Number.isFinite(Number(value));
  return (
    <label className="knob">
      <span>{label}</span>
      <input
        className={ok ? 'mono' : 'mono invalid'}
        data-testid={testId}
        inputMode="decimal"
        size={8}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
      />
    </label>
  );
}

export function SweepPanel({ sessionId, specs }: { sessionId: SessionId; specs: KnobSpec[] }) {
  const numeric = specs.filter((s) => s.kind === 'number');
  const knobs = useReplayKnobs(sessionId);
  const overrides = useReplayOverrides(sessionId);
  const strategyId = useReplayStore((s) => s.strategyId);
  const summaryModel = useReplayStore((s) => s.summaryModel);
  const manual = useReplayStore((s) => s.manual);
  const sweep = useReplayStore((s) => s.sweep);
  const setSweep = useReplayStore((s) => s.setSweep);
  const setSweepOpen = useReplayStore((s) => s.setSweepOpen);
  const setKnob = useReplayStore((s) => s.setKnob);
  const supplied = useSuppliedSummaryTokens(sessionId);
  const branchId = useBranchPath(sessionId);
  const queryClient = useQueryClient();
  useEscapeLayer(() => setSweepOpen(false));

  const initial =
    sweep?.range.knob ?? numeric.find((s) => s.key === 'autocompactPctOverride')?.key ?? numeric[0]?.key;
  const [knob, setKnobKey] = useState(initial);
  const spec = numeric.find((s) => s.key === knob);
  const [from, setFrom] = useState(String(sweep?.range.from ?? spec?.min ?? 0));
  const [to, setTo] = useState(String(sweep?.range.to ?? spec?.max ?? 100));
  const [steps, setSteps] = useState(String(sweep?.range.steps ?? DEFAULT_SWEEP_STEPS));
  const [progress, setProgress] = useState<SweepProgress>();
  const [notice, setNotice] = useState<string>();

  const active = sweep?.sessionId === sessionId && sweep.strategyId === strategyId ? sweep : undefined;
  const query = useQuery({
    ...replaySweepQuery(active ?? NO_SWEEP, setProgress),
    enabled: active !== undefined,
  });
  const running = active !== undefined && query.isFetching;
  const result = active ? query.data : undefined;

  const range = {
    from: Number(from),
    to: Number(to),
    steps: Number(steps),
  };
  const valid =
    spec !== undefined &&
    Number.isFinite(range.from) &&
    Number.isFinite(range.to) &&
    Number.isInteger(range.steps) &&
    range.steps >= 1 &&
    range.steps <= MAX_SWEEP_STEPS &&
    from.trim() !== '' &&
    to.trim() !== '';

  const pickKnob = (key: string) => {
    const next = numeric.find((s) => s.key === key);
    setKnobKey(key);
    setFrom(String(next?.min ?? 0));
    setTo(String(next?.max ?? 100));
  };
  const run = () => {
    if (!valid || !knobs || !spec) return;
    const params: ReplaySweepParams = {
      sessionId,
      strategyId,
      overrides,
      range: { knob: spec.key, ...range },
      summaryModel,
      manual,
      suppliedSummaryTokens: { ...supplied },
      branchId,
    };
    setNotice(undefined);
    setProgress({ done: 0, total: range.steps });
    // Same parameters again: run again (a cancelled or failed run left nothing to show).
    void queryClient.resetQueries({ queryKey: replaySweepQuery(params).queryKey, exact: true });
    setSweep(params);
  };
  const cancel = () => {
    if (!active) return;
    void queryClient.cancelQueries({ queryKey: replaySweepQuery(active).queryKey, exact: true });
    setNotice(progress ? `Cancelled after ${progress.done} of ${progress.total} values.` : 'Cancelled.');
    setSweep(undefined);
  };
  const current = result ? knobs?.[result.knob] : undefined;
  const resultSpec = result ? numeric.find((s) => s.key === result.knob) : undefined;
  const bestIndex = result
    ? getBestSweepPoint(result.points, typeof current === 'number' ? current : undefined)
    : undefined;
  const bestPoint = bestIndex === undefined ? undefined : result?.points[bestIndex];
  const cheapestIndex = result ? getCheapestPoint(result.points) : undefined;
  const cheapestPoint = cheapestIndex === undefined ? undefined : result?.points[cheapestIndex];

  return (
    <section
      className="sweep-panel"
      data-testid="sweep-panel"
      data-running={running ? 'true' : 'false'}
      aria-label="Knob sweep"
      tabIndex={-1}
    >
      <div className="sweep-controls">
        <span className="sweep-title">Knob sweep</span>
        <label className="knob" title={spec?.help ?? spec?.source}>
          <span>Knob</span>
          <select
            data-testid="sweep-knob"
            value={knob}
            disabled={running}
            onChange={(e) => pickKnob(e.currentTarget.value)}
          >
            {numeric.map((s) => (
              <option key={s.key} value={s.key}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <NumberField label="From" value={from} onChange={setFrom} testId="sweep-from" />
        <NumberField label="To" value={to} onChange={setTo} testId="sweep-to" />
        <NumberField label="Steps" value={steps} onChange={setSteps} testId="sweep-steps" />
        {running && <StepProgress progress={progress} testId="sweep-progress" />}
        {/* One button that turns from Run into Cancel and back: two swapped buttons dropped the
            focus of a keyboard user to <body> on each press. */}
        <button
          type="button"
          className={`btn small ${running ? 'danger' : 'primary'}`}
          data-testid={running ? 'sweep-cancel' : 'sweep-run'}
          disabled={!running && (!valid || !knobs)}
          onClick={running ? cancel : run}
        >
          {running ? 'Cancel' : 'Run'}
        </button>
        <button
          type="button"
          className="btn link small sweep-close"
          title="Close the sweep"
          onClick={() => setSweepOpen(false)}
        >
          close
        </button>
      </div>
      {notice && (
        <div className="small muted" data-testid="sweep-notice">
          {notice}
        </div>
      )}
      {query.error && active && <div className="error small">Sweep failed: {query.error.message}</div>}
      {result && result.points.length > 0 && (
        <div className="sweep-result">
          <div className="sweep-figure">
            <SweepChart
              result={result}
              axisTitle={getAxisTitle(resultSpec, result.knob)}
              current={current}
              onPick={(v) => setKnob(result.knob, v)}
            />
            <div className="sweep-legend small">
              <span className="fired">— {getFiredWords(result.points).many} fired</span>
              <span className="matched">— real ones matched (of {result.points[0]!.expectedReal})</span>
              {cheapestPoint?.cost && (
                <span className="cost" data-testid="sweep-cheapest">
                  ··· cost: lowest {formatUsd(cheapestPoint.cost.usd)} at{' '}
                  {formatValueLong(cheapestPoint.value, result.unit)} (real{' '}
                  {formatUsd(cheapestPoint.cost.realUsd)})
                </span>
              )}
              {bestPoint && (
                <span data-testid="sweep-best">
                  best F1 {formatF1(getSweepScore(bestPoint).f1)} at{' '}
                  {formatValueLong(bestPoint.value, result.unit)}
                </span>
              )}
              <span className="muted">
                {result.points.length} runs · {formatCount(Math.max(1, result.computeMs))} ms
              </span>
            </div>
          </div>
          <SweepTable
            result={result}
            label={resultSpec?.label ?? result.knob}
            current={current}
            onPick={(v) => setKnob(result.knob, v)}
          />
        </div>
      )}
    </section>
  );
}

/** A disabled query's key before the first sweep. */
const NO_SWEEP: ReplaySweepParams = {
  sessionId: -1,
  strategyId: '',
  overrides: {},
  range: { knob: '', from: 0, to: 0, steps: 1 },
  summaryModel: 'recorded',
  manual: [],
  suppliedSummaryTokens: {},
};
