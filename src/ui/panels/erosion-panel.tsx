import { queryOptions, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { ErosionChain } from '../../engine/erosion/erosion';
import { renderErosionSvg } from '../../engine/export/erosion-svg';
import { FACT_CATEGORIES, FACT_CATEGORY_LABELS } from '../../engine/retention/types';
import { getStrategyClient } from '../custom/custom-registry';
import type { ExportReplayFields, SessionId } from '../../worker/protocol';
import { formatCount } from '../common/format';
import { useColorScheme } from '../common/use-color-scheme';
import { VisibleText } from '../common/visible-text';
import { sessionKey } from '../queries';
import { useReplayStore } from '../replay/replay-store';
import { useEffectiveKnobs, useKnobOverrides } from '../replay/use-knobs';
import { useUiStore } from '../store';

// The Erosion tab: every summary of a chain scored against everything the session held since its
// start (engine/erosion/). The chart is the report's SVG (engine/export/erosion-svg.ts) in the
// page's palette, shown as an image; each step's lost facts link to where the transcript held them.

function erosionQuery(sessionId: SessionId, replay: ExportReplayFields | undefined) {
  return queryOptions({
    queryKey: [...sessionKey(sessionId), 'erosion', replay ?? 'log'],
    queryFn: ({ signal }) =>
      getStrategyClient(replay?.strategyId ?? '').request({ kind: 'erosion', sessionId, replay }, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
    structuralSharing: false,
  });
}

const pct = (ratio: number) => `${Math.round(ratio * 100)}%`;

function ErosionChart({ chain }: { chain: ErosionChain }) {
  const scheme = useColorScheme();
  const src = useMemo(
    () =>
      `data:image/svg+xml;charset=utf-8,${encodeURIComponent(renderErosionSvg(chain, { palette: scheme, widthPx: 368, heightPx: 200, legend: 'below' }))}`,
    [chain, scheme],
  );
  const last = chain.steps.at(-1);
  const alt = last
    ? `Retention after each of ${chain.steps.length} compactions; after the last, ${pct(last.ratio)} of all facts: ${FACT_CATEGORIES.filter(
        (c) => last.byCategory[c].total > 0,
      )
        .map((c) => `${FACT_CATEGORY_LABELS[c]} ${pct(last.byCategory[c].ratio)}`)
        .join(', ')}`
    : 'No summary to score';
  return <img className="erosion-chart" data-testid="erosion-chart" src={src} alt={alt} />;
}

export function ErosionPanel({ sessionId, hasCalls }: { sessionId: SessionId; hasCalls: boolean }) {
  const [source, setSource] = useState<'log' | 'replay'>('log');
  const strategyId = useReplayStore((s) => s.strategyId);
  const summaryModel = useReplayStore((s) => s.summaryModel);
  const manual = useReplayStore((s) => s.manual);
  // The setup is in (its knobs resolve); the worker resolves the user's edits over them.
  const ready = useEffectiveKnobs(sessionId, strategyId) !== undefined;
  const overrides = useKnobOverrides(sessionId, strategyId);
  const replay = source === 'replay' && ready ? { strategyId, overrides, summaryModel, manual } : undefined;
  const { data, error, isFetching } = useQuery({
    ...erosionQuery(sessionId, replay),
    enabled: source === 'log' || replay !== undefined,
  });
  const selectEntry = useUiStore((s) => s.selectEntry);
  return (
    <div className="erosion-panel" data-testid="erosion-panel">
      <div className="panel-note">
        Each summary of the chain against every fact the session held since its start.
        <fieldset className="erosion-source">
          <legend className="sr-only">Chain</legend>
          <label>
            <input
              type="radio"
              name="erosion-source"
              checked={source === 'log'}
              onChange={() => setSource('log')}
              data-testid="erosion-source-log"
            />{' '}
            The log’s summaries
          </label>{' '}
          <label>
            <input
              type="radio"
              name="erosion-source"
              checked={source === 'replay'}
              disabled={!hasCalls}
              onChange={() => setSource('replay')}
              data-testid="erosion-source-replay"
            />{' '}
            Replay with {strategyId} (built-in summaries)
          </label>
        </fieldset>
      </div>
      {error && <div className="panel-message error">{error.message}</div>}
      {!data && !error && <div className="panel-message muted">{isFetching ? 'Scoring the chain…' : ''}</div>}
      {data && (
        <>
          <ErosionChart chain={data} />
          {data.notes.map((note) => (
            <p key={note} className="muted small">
              {note}
            </p>
          ))}
          {data.steps.length > 0 && (
            <table className="erosion-table small" data-testid="erosion-table">
              <thead>
                <tr>
                  <th>#</th>
                  <th>kept of all held</th>
                  <th>first span</th>
                  <th>new</th>
                  <th>lost</th>
                </tr>
              </thead>
              <tbody>
                {data.steps.map((step) => (
                  <tr key={step.index} title={step.label}>
                    <td>{step.index + 1}</td>
                    <td className="num">
                      {formatCount(step.kept)}/{formatCount(step.total)} ({pct(step.ratio)})
                    </td>
                    <td className="num">
                      {formatCount(step.byOrigin[0]?.kept ?? 0)}/{formatCount(step.byOrigin[0]?.total ?? 0)}
                    </td>
                    <td className="num">{formatCount(step.newFacts)}</td>
                    <td className="num">{formatCount(step.lost.length)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {data.steps.map((step) => (
            <details
              key={step.index}
              className="erosion-step"
              data-testid="erosion-step"
              open={step.index === 0 && step.lost.length > 0 && step.lost.length <= 12}
            >
              <summary>
                {step.index + 1}. {step.label}: {formatCount(step.lost.length)} lost
                {step.regained.length > 0 ? `, ${formatCount(step.regained.length)} back` : ''}
              </summary>
              <ul className="erosion-lost">
                {step.lost.map((id) => {
                  const fact = data.facts[id];
                  if (!fact) return null;
                  return (
                    <li key={id} data-testid="erosion-lost-fact" data-category={fact.category}>
                      <button
                        type="button"
                        className="btn link"
                        onClick={() => selectEntry(fact.entryIndex, true)}
                        title="Show where the transcript held it"
                      >
                        line {fact.line}
                      </button>{' '}
                      <span className="muted">{FACT_CATEGORY_LABELS[fact.category]}:</span>{' '}
                      <VisibleText text={fact.text} />
                    </li>
                  );
                })}
              </ul>
            </details>
          ))}
        </>
      )}
    </div>
  );
}
