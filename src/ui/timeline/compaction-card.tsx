import { useQuery } from '@tanstack/react-query';
import type { CSSProperties } from 'react';
import type { SessionId } from '../../worker/protocol';
import { formatClock, formatCount, formatDuration } from '../common/format';
import { useEscapeLayer } from '../common/use-escape';
import { compactionDetailQuery } from '../queries';
import type { RealTriggerCount } from '../../engine/replay/real-trigger';
import { useUiStore } from '../store';
import { markerColor } from './timeline-markers';
import { markHiddenChars, VisibleText } from '../common/visible-text';
import { formatOrdinal, formatOrdinalTitle, formatPlural } from '../../engine/query/numbering';

export function CompactionCard({
  sessionId,
  compactionIndex,
}: {
  sessionId: SessionId;
  compactionIndex: number;
}) {
  const { data, error, isPending } = useQuery(compactionDetailQuery(sessionId, compactionIndex));
  const close = useUiStore((s) => s.openCompactionCard);
  const selectEntry = useUiStore((s) => s.selectEntry);
  useEscapeLayer(() => close(undefined));
  const c = data?.compaction;
  // Numbered in its own thread, as the header counts: a subagent's among its log's, named so.
  const thread = data?.thread;
  const ordinal = !thread
    ? 'Compaction'
    : thread.subagent === undefined
      ? formatOrdinalTitle('compaction', thread.index, thread.total)
      : `Subagent ${thread.subagent}: ${formatOrdinal('compaction', thread.index, thread.total)}`;
  const title = c
    ? `${ordinal} · ${c.kind === 'microcompact' ? 'microcompact' : c.kind === 'truncate' ? 'truncation' : 'full'} · ${c.trigger}`
    : ordinal;

  return (
    <aside className="compaction-card" data-testid="compaction-card" data-kind={c?.kind} aria-label={title}>
      <header>
        <span className="card-title" style={c ? ({ '--mc': markerColor(c) } as CSSProperties) : undefined}>
          {title}
        </span>
        {c && (
          <span className="muted mono small card-where" title={markHiddenChars(`${data.fileName}:${c.line}`)}>
            <VisibleText text={data.fileName.split('/').pop() ?? ''} />:{c.line} {formatClock(c.timestampMs)}
          </span>
        )}
        <button
          type="button"
          className="btn link card-close"
          onClick={() => close(undefined)}
          data-testid="compaction-card-close"
          aria-label="Close"
        >
          ×
        </button>
      </header>
      {error && <div className="panel-message error">{error.message}</div>}
      {isPending && <div className="panel-message muted">Loading…</div>}
      {c && data && (
        <div className="card-body">
          <dl className="kv mono">
            {c.kind !== 'microcompact' ? (
              <>
                {c.deletedRange && (
                  <>
                    <dt>dropped</dt>
                    <dd
                      data-testid="compaction-range"
                      title="Messages of the model-facing history no longer sent"
                    >
                      history {c.deletedRange[0]}–{c.deletedRange[1]}
                    </dd>
                  </>
                )}
                <dt>before</dt>
                <dd data-testid="compaction-pre">{formatCount(c.preTokens)} tok</dd>
                <dt>after</dt>
                <dd
                  data-testid="compaction-post"
                  title={
                    c.postEstimated
                      ? 'Estimated context of the first API call after the boundary: it recorded no usage'
                      : 'Context of the first API call after the boundary'
                  }
                >
                  {c.postEstimated ? '~' : ''}
                  {formatCount(c.postTokens)} tok{c.postEstimated ? ' (estimated)' : ''}
                </dd>
                <FreedRow pre={c.preTokens} post={c.postTokens} estimated={c.postEstimated === true} />
                {c.summaryTokens !== undefined && (
                  <>
                    <dt>{c.summaryScope === 'history' ? 'compacted' : 'summary'}</dt>
                    <dd
                      data-testid="compaction-summary-tokens"
                      title={
                        c.summaryScope === 'history'
                          ? "The agent's own count of the history it sent on: the summary and the messages it kept"
                          : 'The summary alone, as the log states it'
                      }
                    >
                      {formatCount(c.summaryTokens)} tok
                      {c.summaryScope === 'history' ? ' (summary and kept messages)' : ''}
                    </dd>
                  </>
                )}
                {c.durationMs !== undefined && (
                  <>
                    <dt>took</dt>
                    <dd>{formatDuration(c.durationMs)}</dd>
                  </>
                )}
                {c.callUsage && (
                  <>
                    <dt>cost</dt>
                    <dd
                      data-testid="compaction-cost"
                      title="From the compaction call's own log (agent-acompact-*.jsonl): what the compaction cost, not part of the session's context"
                    >
                      {formatCount(
                        c.callUsage.inputTokens +
                          c.callUsage.cacheCreationInputTokens +
                          c.callUsage.cacheReadInputTokens,
                      )}{' '}
                      in · {formatCount(c.callUsage.outputTokens)} out
                      {c.callCost?.calls[c.callCost.summaryCall]?.partial && <PartialMark />}
                    </dd>
                  </>
                )}
              </>
            ) : (
              <>
                {data.callBeforeTokens !== undefined && (
                  <>
                    <dt>last call</dt>
                    <dd
                      data-testid="compaction-call-before"
                      title="Context of the API call before the boundary, as the API counted it (the chart's point)"
                    >
                      {formatCount(data.callBeforeTokens)} tok
                    </dd>
                  </>
                )}
                <dt>saved</dt>
                <dd data-testid="compaction-saved">{formatCount(c.tokensSaved)} tok</dd>
                <dt>next call</dt>
                <dd title="Context of the first API call after the boundary">
                  {c.postEstimated ? '~' : ''}
                  {formatCount(c.postTokens)} tok{c.postEstimated ? ' (estimated)' : ''}
                </dd>
                <dt>cleared</dt>
                <dd>{formatPlural(data.clearedTools.length, 'tool result')}</dd>
                {/* The boundary's preTokens is the agent's own count, not the API's: shown as
                    "before" it read as a context smaller than the next call's. */}
                {c.preTokens !== undefined && (
                  <>
                    <dt>log's count</dt>
                    <dd
                      data-testid="compaction-log-pre"
                      title="The boundary's preTokens: the agent's own count before clearing, not the API's count the chart draws"
                    >
                      {formatCount(c.preTokens)} tok <span className="muted">(the boundary's preTokens)</span>
                    </dd>
                  </>
                )}
              </>
            )}
          </dl>
          {data.triggerCount && (
            <TriggerCount count={data.triggerCount} chartTokens={data.callBeforeTokens} />
          )}
          {c.callCost && c.callCost.calls.length > 1 && (
            <section>
              <h4>Calls in the compaction log ({c.callCost.calls.length})</h4>
              <ul className="link-list mono small" data-testid="compaction-calls">
                {c.callCost.calls.map((call, i) => (
                  <li key={call.entryIndex} data-summary={i === c.callCost!.summaryCall || undefined}>
                    L{call.line} · {formatCount(call.contextTokens)} in ·{' '}
                    {formatCount(call.usage.outputTokens)} out
                    {i === c.callCost!.summaryCall && (
                      <>
                        {' '}
                        <span className="chip small">summary</span>
                      </>
                    )}
                    {call.partial && <PartialMark />}
                  </li>
                ))}
              </ul>
            </section>
          )}
          {c.customInstructions && (
            <section>
              <h4>/compact instructions</h4>
              <pre className="text-block">
                <VisibleText text={c.customInstructions} />
              </pre>
            </section>
          )}
          {c.kind === 'compact' && (
            <section>
              <h4>
                Summary{' '}
                {data.summaryChars !== undefined && (
                  <span className="muted small">{formatCount(data.summaryChars)} chars</span>
                )}
                {c.summaryEntryIndex !== undefined && (
                  <button
                    type="button"
                    className="btn link small"
                    onClick={() => selectEntry(c.summaryEntryIndex, true)}
                  >
                    show in transcript
                  </button>
                )}
              </h4>
              {data.summaryText === undefined ? (
                <div className="muted" data-testid="compaction-summary-note">
                  {data.summaryNote ?? 'No summary message follows this boundary.'}
                </div>
              ) : (
                <pre className="text-block summary" data-testid="compaction-summary">
                  <VisibleText text={data.summaryText} />
                </pre>
              )}
            </section>
          )}
          {data.reattached.length > 0 && (
            <section>
              <h4>Re-attached ({data.reattached.length})</h4>
              <ul className="link-list">
                {data.reattached.map((row) => (
                  <li key={row.entryIndex}>
                    <button
                      type="button"
                      className="btn link mono"
                      onClick={() => selectEntry(row.entryIndex, true)}
                    >
                      L{row.line} <VisibleText text={row.text} />
                    </button>
                  </li>
                ))}
              </ul>
            </section>
          )}
          {data.clearedTools.length > 0 && (
            <section>
              <h4>Cleared tool results ({data.clearedTools.length})</h4>
              <ul className="link-list" data-testid="cleared-tools">
                {data.clearedTools.map((tool) => (
                  <li key={tool.toolUseId}>
                    <button
                      type="button"
                      className="btn link mono"
                      disabled={tool.resultEntryIndex === undefined}
                      onClick={() => selectEntry(tool.resultEntryIndex, true)}
                    >
                      {tool.toolUseId} <span className="muted">{tool.toolName ?? ''}</span>
                    </button>
                  </li>
                ))}
              </ul>
            </section>
          )}
        </div>
      )}
    </aside>
  );
}

/** A recorded output far below its text's chars/4: a snapshot taken while the answer streamed. */
function PartialMark() {
  return (
    <>
      {' '}
      <span
        className="chip small"
        data-testid="compaction-cost-partial"
        title="Streamed partial: the log recorded the output tokens before the answer was written (far below its text's chars/4)"
      >
        partial
      </span>
    </>
  );
}

/**
 * What the compaction freed: the context before it less the first call's after it. A real
 * session whose first call already carried 171k (its system prompt, tools and memory files) came
 * back at 192k after each of five compactions: compaction cannot remove what every request
 * carries, and the card says so rather than leaving "before 171,501 · after 192,536" to puzzle.
 */
function FreedRow({ pre, post, estimated }: { pre?: number; post?: number; estimated: boolean }) {
  if (pre === undefined || post === undefined || pre <= 0) return null;
  const freed = pre - post;
  const mark = estimated ? '~' : '';
  return (
    <>
      <dt>freed</dt>
      {freed >= 0 ? (
        <dd data-testid="compaction-freed">
          {mark}
          {formatCount(freed)} tok ({Math.round((100 * freed) / pre)}%)
        </dd>
      ) : (
        <dd
          data-testid="compaction-freed"
          className="warn-text"
          title="The first call after the compaction carried more than the last one before it: what every request carries (system prompt, tools, memory files), the summary, the files re-attached after it and the new turn outweighed what was dropped"
        >
          none: {mark}
          {formatCount(-freed)} tok more after it
        </dd>
      )}
    </>
  );
}

/**
 * What the log's own agent counted when it fired, where it counts beyond the chart's point: a real
 * Codex rollout compacted at 194,859 tokens under its bar at 244,800, because Codex adds its
 * estimate of the encrypted reasoning it sent back (50,142). Each part names where its rule comes
 * from, so a reader can check it.
 */
function TriggerCount({ count, chartTokens }: { count: RealTriggerCount; chartTokens?: number }) {
  return (
    <section data-testid="compaction-trigger-count">
      <h4>What {count.strategyLabel} counted</h4>
      <p className="small trigger-sum">
        <span className="mono">
          {formatCount(count.countTokens)} tok ≥ {formatCount(count.thresholdTokens)}
        </span>{' '}
        its threshold
        {chartTokens !== undefined && chartTokens < count.thresholdTokens && (
          <>
            : it fired though the chart's point, <span className="mono">{formatCount(chartTokens)}</span>, is
            under the bar
          </>
        )}
      </p>
      <ul className="trigger-parts small">
        {count.parts.map((part, i) => (
          <li key={part.label}>
            <span className="mono">
              {i > 0 ? '+ ' : ''}
              {formatCount(part.tokens)}
            </span>{' '}
            {part.label}
            {part.source && <span className="muted mono trigger-source">{part.source}</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}
