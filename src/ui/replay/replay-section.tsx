import { getPageStrategyDescriptor, useStrategyChoices } from '../custom/custom-registry';
import { useEscapeLayer } from '../common/use-escape';
import { useLayoutEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { formatMillions, formatUsd, formatUsdDelta } from '../../engine/replay/compare-table';
import { describeExpectedReal } from '../../engine/replay/compare-words';
import type {
  RealOutcome,
  ReplayComparison,
  ReplayCostFigures,
  ReplayEvent,
} from '../../engine/replay/types';
import type { SessionId, TimelineSeries } from '../../worker/protocol';
import { formatCount } from '../common/format';
import { getDefaultStrategyId } from '../../engine/strategies/descriptors';
import { sessionOverviewQuery, timelineQuery } from '../queries';
import { useUiStore } from '../store';
import { ReplayEventCard } from './event-card';
import { ReplayEventChips } from './replay-event-chips';
import { useReplayStore } from './replay-store';
import { SubagentReplays } from './subagent-replays';
import { useDebouncedRunParams, useReplayRun, useReplaySetup } from './use-replay';
import './replay.css';
import { formatOrdinal } from '../../engine/query/numbering';

// The replay strip under the timeline: on/off, how the replay compares with the log, the knobs
// beyond the thresholds, the knob sweep, and the open event card.

function outcomeText(o: RealOutcome): string {
  const where =
    o.afterApiCall === undefined
      ? 'before the first call'
      : `after ${formatOrdinal('api-call', o.afterApiCall)}`;
  switch (o.status) {
    case 'matched':
      return `${where}: reproduced at the same call`;
    case 'early':
    case 'late':
      return `${where}: replay ${Math.abs(o.delta ?? 0)} call${Math.abs(o.delta ?? 0) === 1 ? '' : 's'} ${o.status}`;
    case 'missing':
      return `${where}: not reproduced`;
    case 'manual':
      return `${where}: manual — the replay continues from it`;
  }
}

function CompareSummary({
  comparison,
  otherAgent,
}: {
  comparison: ReplayComparison;
  /** The log's agent, when the strategy replayed is not its own: a match is not expected. */
  otherAgent?: string;
}) {
  // The "where it differs" disclosure is a layer while open: Escape folds it.
  const [differsOpen, setDiffersOpen] = useState(false);
  useEscapeLayer(() => setDiffersOpen(false), differsOpen);
  const openEventCard = useReplayStore((s) => s.openEventCard);
  const listRef = useRef<HTMLUListElement>(null);
  // The popover stays inside the viewport: moved left by what would run past the right edge.
  useLayoutEffect(() => {
    const ul = listRef.current;
    if (!differsOpen || !ul) return;
    ul.style.left = '0px';
    const box = ul.getBoundingClientRect();
    const overflow = box.right - (document.documentElement.clientWidth - 8);
    if (overflow > 0) ul.style.left = `${-Math.min(overflow, box.left - 8)}px`;
  }, [differsOpen]);
  const c = comparison;
  const compactions = c.outcomes.filter((o) => o.kind === 'compact' || o.kind === 'truncate');
  return (
    <div
      className="replay-compare"
      data-testid="replay-compare"
      data-reproduced={c.reproduced}
      data-expected={c.expected}
    >
      <span>
        {c.expected > 0 ? (
          <>
            <b>
              {c.reproduced}/{c.expected}
            </b>{' '}
            {describeExpectedReal(c)} reproduced (±{c.toleranceCalls} call)
            {/* "0/1 reproduced" read as a miss of the replay on a Codex log under Claude Code's
                rules; the engine's note saying a match is not expected lay at the knobs' end. */}
            {otherAgent !== undefined && (
              <span className="muted" data-testid="replay-other-agent">
                {' '}
                · {otherAgent}’s log under other rules: not expected to match
              </span>
            )}
          </>
        ) : (
          'no real auto-compaction to compare with'
        )}
        {c.counts.extra > 0 && ` · ${c.counts.extra} extra`}
        {c.counts.manual > 0 && ` · ${c.counts.manual} manual in the log`}
        {/* The log's compactions on a branch not followed: not compared, said (replay/off-branch.ts). */}
        {c.leftOut.length > 0 &&
          ` · ${c.leftOut.length} on a branch not followed (${c.leftOut.map((l) => `${formatOrdinal('compaction', l.compactionIndex)}, line ${l.line}`).join('; ')})`}
      </span>
      {compactions.length > 0 && (
        <details open={differsOpen} onToggle={(e) => setDiffersOpen(e.currentTarget.open)}>
          <summary>where it differs</summary>
          <ul ref={listRef} className="mono small" data-testid="replay-differs">
            {c.outcomes.map((o) => (
              <li key={o.compactionIndex} className={`outcome-${o.status}`}>
                {formatOrdinal('compaction', o.compactionIndex)} {o.kind} ({o.trigger}) {outcomeText(o)}
                {o.eventIndex !== undefined && (
                  <button
                    type="button"
                    className="btn link small"
                    onClick={() => openEventCard(o.eventIndex)}
                  >
                    event
                  </button>
                )}
                {o.note && <span className="muted"> — {o.note}</span>}
              </li>
            ))}
            {c.extraEventIndices.map((i) => (
              <li key={`extra-${i}`} className="outcome-extra">
                {formatOrdinal('replay-event', i)} has no real counterpart{' '}
                <button type="button" className="btn link small" onClick={() => openEventCard(i)}>
                  event
                </button>
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

/** The replay's cost beside the log's real cost, both at list prices (engine/cost/, docs/cost.md). */
function CostSummary({ cost }: { cost: ReplayCostFigures }) {
  const details = [
    `Cache read / written / uncached input: ${[cost.cacheReadTokens, cost.cacheWriteTokens, cost.uncachedTokens].map(formatMillions).join(' / ')} tokens`,
    `${cost.summaryCalls} summary call${cost.summaryCalls === 1 ? '' : 's'}: ${formatUsd(cost.summaryUsd)}`,
    cost.realSummariesEstimated > 0
      ? `The real cost estimates ${cost.realSummariesEstimated} of the log's summary calls (not in the log)`
      : '',
    cost.unpricedCalls > 0
      ? `${cost.unpricedCalls} calls of a model without a list price are not counted`
      : '',
    `List prices as of ${cost.pricesSeen}`,
  ].filter(Boolean);
  return (
    <span
      className="mono small replay-cost"
      data-testid="replay-cost"
      data-usd={cost.usd.toFixed(6)}
      data-real-usd={cost.realUsd.toFixed(6)}
      title={[
        `Replayed ${formatUsd(cost.usd)}, the log's real usage ${formatUsd(cost.realUsd)} at the same prices (${formatUsdDelta(cost.usd - cost.realUsd)})`,
        ...details,
      ].join('\n')}
    >
      {/* A pi or OpenCode session on a model with no list price read "cost $0.000 · real $0.000". */}
      {cost.unpricedCalls === 0
        ? `cost ${formatUsd(cost.usd)} · real ${formatUsd(cost.realUsd)}`
        : cost.usd === 0 && cost.realUsd === 0
          ? `cost: no list price for the log's ${cost.unpricedCalls === 1 ? 'call' : `${cost.unpricedCalls} calls`}`
          : `cost ${formatUsd(cost.usd)} · real ${formatUsd(cost.realUsd)} (+${cost.unpricedCalls} unpriced)`}
    </span>
  );
}

/** Index in `session.apiCalls` of the last main call starting at or before an entry. */
function getCallAtOrBefore(series: TimelineSeries, entryIndex: number): number | undefined {
  let found: number | undefined;
  for (let x = 0; x < series.firstEntryIndex.length && series.firstEntryIndex[x]! <= entryIndex; x++)
    found = series.callIndex[x];
  return found;
}

/**
 * `/compact` at the selected message's call, or a partial /compact around the selected message
 * (Prompt 2): "up to" summarizes what precedes it and keeps it and what follows, "from" keeps
 * what precedes it and summarizes it onward; at the API call the field names (the last by default).
 */
/** The first main call at or after an entry: the call that sends it (or, for a response, its own). */
function getCallAtOrAfter(series: TimelineSeries, entryIndex: number): number | undefined {
  for (let x = 0; x < series.firstEntryIndex.length; x++)
    if (series.firstEntryIndex[x]! >= entryIndex) return series.callIndex[x];
  return undefined;
}

function ManualControls({ sessionId, events }: { sessionId: SessionId; events?: readonly ReplayEvent[] }) {
  const selectedEntry = useUiStore((s) => s.selectedEntry);
  const { data: series } = useQuery(timelineQuery(sessionId));
  const manual = useReplayStore((s) => s.manual);
  const addManual = useReplayStore((s) => s.addManual);
  const clearManual = useReplayStore((s) => s.clearManual);
  const [atText, setAtText] = useState('');
  const call = series && selectedEntry !== undefined ? getCallAtOrBefore(series, selectedEntry) : undefined;
  const mainCalls = series?.callIndex;
  const lastCall = mainCalls?.[mainCalls.length - 1];
  // The field takes the API call number people read (1-based); empty, the call that sends the
  // selected message (issue 24 item 5: a partial acts at the selected message), else the last.
  const carrying =
    series && selectedEntry !== undefined ? getCallAtOrAfter(series, selectedEntry) : undefined;
  const defaultCall = carrying ?? lastCall;
  const typed = Number.parseInt(atText, 10);
  const atCall =
    Number.isFinite(typed) && mainCalls?.includes(typed - 1)
      ? typed - 1
      : atText.trim() === ''
        ? defaultCall
        : undefined;
  // A compaction of the replay between the message and the call has already summarized it: a
  // partial there would keep nothing on one side (the strategy then compacts in full). Said here,
  // before acting.
  const boundary =
    atCall === undefined || selectedEntry === undefined
      ? undefined
      : [...(events ?? [])]
          .reverse()
          .find((e) => e.kind === 'compact' && e.afterApiCall < atCall && e.afterEntryIndex >= selectedEntry);
  const why =
    selectedEntry === undefined
      ? 'select a message for a partial'
      : atCall === undefined
        ? 'that is not a main API call'
        : call !== undefined && call > atCall
          ? `the message comes after ${formatOrdinal('api-call', atCall)}`
          : boundary
            ? `by ${formatOrdinal('api-call', atCall)} the message is summarized (compaction after ${formatOrdinal('api-call', boundary.afterApiCall)}): pick an earlier call`
            : undefined;
  const pivotOk = why === undefined && call !== undefined;
  const partial = (direction: 'up-to' | 'from') =>
    pivotOk &&
    addManual({ afterApiCall: atCall!, mechanism: 'partial', pivotEntryIndex: selectedEntry, direction });
  const where = atCall === undefined ? 'a main API call' : formatOrdinal('api-call', atCall);
  return (
    <span className="replay-manual">
      <button
        type="button"
        className="btn small"
        data-testid="replay-compact-here"
        disabled={call === undefined}
        title="Run a manual /compact after the API call of the selected message"
        onClick={() => call !== undefined && addManual({ afterApiCall: call, mechanism: 'full' })}
      >
        /compact here
      </button>
      <fieldset className="replay-partial" aria-label="Partial /compact around the selected message">
        <span className="muted small">partial at</span>
        <input
          className="replay-partial-at mono"
          data-testid="replay-partial-at"
          inputMode="numeric"
          placeholder={defaultCall === undefined ? '' : String(defaultCall + 1)}
          aria-label="API call of the partial /compact (empty: the call that sends the selected message)"
          // Red only for a number typed that names no main call: empty, the field takes its default.
          aria-invalid={atText.trim() !== '' && atCall === undefined}
          disabled={!mainCalls || mainCalls.length === 0}
          value={atText}
          onChange={(e) => setAtText(e.currentTarget.value)}
        />
        <button
          type="button"
          className="btn small"
          data-testid="replay-partial-here"
          disabled={!pivotOk}
          title={`After ${where}, summarize what precedes the selected message and keep it and what follows verbatim`}
          onClick={() => partial('up-to')}
        >
          up to here
        </button>
        <button
          type="button"
          className="btn small"
          data-testid="replay-partial-from"
          disabled={!pivotOk}
          title={`After ${where}, keep what precedes the selected message verbatim and summarize it and what follows (Prompt 2, "RECENT portion")`}
          onClick={() => partial('from')}
        >
          from here
        </button>
        {why !== undefined && selectedEntry !== undefined && (
          <span className="muted small replay-partial-why" data-testid="replay-partial-why">
            {why}
          </span>
        )}
      </fieldset>
      {manual.length > 0 && (
        <button type="button" className="btn link small" onClick={clearManual}>
          clear {manual.length} manual
        </button>
      )}
    </span>
  );
}

export function ReplaySection({ sessionId }: { sessionId: SessionId }) {
  const setup = useReplaySetup(sessionId);
  const overview = useQuery(sessionOverviewQuery(sessionId)).data;
  const unpublished = useDebouncedRunParams(sessionId);
  const enabled = useReplayStore((s) => s.enabled);
  const setEnabled = useReplayStore((s) => s.setEnabled);
  const strategyId = useReplayStore((s) => s.strategyId);
  const setStrategy = useReplayStore((s) => s.setStrategy);
  const knobsOpen = useReplayStore((s) => s.knobsOpen);
  const setKnobsOpen = useReplayStore((s) => s.setKnobsOpen);
  // The knobs panel is a layer while open: Escape closes it.
  useEscapeLayer(() => setKnobsOpen(false), knobsOpen);
  const summaryModel = useReplayStore((s) => s.summaryModel);
  const setSummaryModel = useReplayStore((s) => s.setSummaryModel);
  const params = useReplayStore((s) => s.runParams);
  const openEvent = useReplayStore((s) => s.openEvent);
  const sweepOpen = useReplayStore((s) => s.sweepOpen);
  const setSweepOpen = useReplayStore((s) => s.setSweepOpen);
  const compareOpen = useReplayStore((s) => s.compareOpen);
  const setCompareOpen = useReplayStore((s) => s.setCompareOpen);
  const customOpen = useReplayStore((s) => s.customOpen);
  const setCustomOpen = useReplayStore((s) => s.setCustomOpen);
  const run = useReplayRun();
  const current = params?.sessionId === sessionId ? run.data : undefined;
  const result = current?.result;
  const event = openEvent === undefined ? undefined : result?.events[openEvent];
  // The built-ins (the setup's list) and the custom strategies the user ran on this session.
  const strategies = useStrategyChoices(sessionId, setup.data?.strategies);
  // Busy until this session's run under the page's knobs is shown: before the first run starts
  // too, so the bar's rows (events, comparison) never appear after `data-busy` said "false".
  const busy =
    enabled && (unpublished || run.isFetching || run.isPlaceholderData || (!current && !run.isError));

  return (
    <section
      className="replay-section"
      data-testid="replay-section"
      data-busy={busy ? 'true' : 'false'}
      data-strategy={params?.strategyId}
    >
      <div className="replay-bar">
        <label
          className="knob"
          title={`Re-run ${getPageStrategyDescriptor(strategyId).label}'s compaction over this transcript under the knobs`}
        >
          <input
            type="checkbox"
            data-testid="replay-toggle"
            checked={enabled}
            onChange={(e) => setEnabled(e.currentTarget.checked)}
          />
          <span className="replay-title">Replay</span>
        </label>
        {setup.error && <span className="error small">Replay setup failed: {setup.error.message}</span>}
        {enabled && strategies && strategies.length > 1 && (
          <label className="knob" title={strategies.find((x) => x.id === strategyId)?.description}>
            <span>Strategy</span>
            <select
              data-testid="replay-strategy"
              // The whole name on hover: a long custom label may be cut to the strip's width.
              title={strategies.find((x) => x.id === strategyId)?.label}
              value={strategyId}
              onChange={(e) => setStrategy(e.currentTarget.value)}
            >
              {strategies.map((x) => (
                <option key={x.id} value={x.id}>
                  {x.label}
                </option>
              ))}
            </select>
          </label>
        )}
        {enabled && result && (
          <>
            <span
              className="mono small muted"
              data-testid="replay-event-count"
              data-count={result.events.length}
              title={`Replayed in ${formatCount(result.computeMs < 1 ? 1 : Math.round(result.computeMs))} ms`}
            >
              {[
                plural(result.events.filter((e) => e.kind === 'compact').length, 'compaction'),
                plural(result.events.filter((e) => e.kind === 'microcompact').length, 'clearing'),
                ...(result.events.some((e) => e.kind === 'truncate')
                  ? [plural(result.events.filter((e) => e.kind === 'truncate').length, 'truncation')]
                  : []),
              ].join(' · ')}
            </span>
            {current?.cost && <CostSummary cost={current.cost} />}
            <CompareSummary
              comparison={result.comparison}
              otherAgent={
                overview?.meta.agent !== undefined &&
                params?.strategyId !== getDefaultStrategyId(overview.format, overview.meta.agent)
                  ? overview.meta.agent
                  : undefined
              }
            />
          </>
        )}
        {enabled && (
          <>
            <label
              className="knob"
              title="How many tokens a simulated summary takes: the log’s own summary where the replay compacts where the log did, else the size model (built from the corpus)"
            >
              <span>Summary</span>
              <select
                data-testid="replay-summary-model"
                value={summaryModel}
                onChange={(e) => setSummaryModel(e.currentTarget.value as typeof summaryModel)}
              >
                <option value="recorded">the log’s</option>
                <option value="ratio">size model</option>
              </select>
            </label>
            <button
              type="button"
              className="btn small"
              data-testid="replay-knobs-toggle"
              aria-expanded={knobsOpen}
              onClick={() => setKnobsOpen(!knobsOpen)}
            >
              {knobsOpen ? 'Hide knobs' : 'Knobs'}
            </button>
            <button
              type="button"
              className="btn small"
              data-testid="sweep-open"
              aria-expanded={sweepOpen}
              title="Re-run the replay for a range of one knob's values"
              onClick={() => setSweepOpen(!sweepOpen)}
            >
              Sweep…
            </button>
            {strategies && strategies.length > 1 && (
              <button
                type="button"
                className="btn small"
                data-testid="compare-open"
                aria-expanded={compareOpen}
                title="Several strategies on this transcript at once: their context lines together and a table"
                onClick={() => setCompareOpen(!compareOpen)}
              >
                Compare…
              </button>
            )}
            <button
              type="button"
              className="btn small"
              data-testid="custom-open"
              aria-expanded={customOpen}
              title="Custom strategy: write your own in TypeScript and run it beside the built-ins"
              onClick={() => setCustomOpen(!customOpen)}
            >
              Custom…
            </button>
            <ManualControls sessionId={sessionId} events={result?.events} />
            {setup.data && <SubagentReplays sessionId={sessionId} strategyId={setup.data.strategyId} />}
          </>
        )}
      </div>
      {enabled && result && result.events.length > 0 && <ReplayEventChips events={result.events} />}
      {enabled && event && openEvent !== undefined && (
        <ReplayEventCard sessionId={sessionId} event={event} index={openEvent} />
      )}
    </section>
  );
}

/** "1 compaction", "3 compactions". */
function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
