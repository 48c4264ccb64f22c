import { useQuery } from '@tanstack/react-query';
import type { SessionId } from '../../worker/protocol';
import { formatClock, formatCount, formatDuration } from '../common/format';
import { compactionDetailQuery } from '../queries';
import { useUiStore } from '../store';
import { markerColor } from './timeline';

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
  const c = data?.compaction;
  const title = c
    ? c.kind === 'microcompact'
      ? `Microcompact · ${c.trigger}`
      : `Compaction · ${c.trigger}`
    : 'Compaction';

  return (
    <aside className="compaction-card" data-testid="compaction-card" data-kind={c?.kind} aria-label={title}>
      <header>
        <span className="card-title" style={c ? { color: markerColor(c) } : undefined}>
          {title}
        </span>
        {c && (
          <span className="muted mono small card-where" title={`${data.fileName}:${c.line}`}>
            {data.fileName.split('/').pop()}:{c.line} {formatClock(c.timestampMs)}
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
            {c.kind === 'compact' ? (
              <>
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
                {c.summaryTokens !== undefined && (
                  <>
                    <dt>summary</dt>
                    <dd>{formatCount(c.summaryTokens)} tok</dd>
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
                    </dd>
                  </>
                )}
              </>
            ) : (
              <>
                <dt>before</dt>
                <dd>{formatCount(c.preTokens)} tok</dd>
                <dt>saved</dt>
                <dd data-testid="compaction-saved">{formatCount(c.tokensSaved)} tok</dd>
                <dt>next call</dt>
                <dd title="Context of the first API call after the boundary">
                  {c.postEstimated ? '~' : ''}
                  {formatCount(c.postTokens)} tok{c.postEstimated ? ' (estimated)' : ''}
                </dd>
                <dt>cleared</dt>
                <dd>{formatCount(data.clearedTools.length)} tool results</dd>
              </>
            )}
          </dl>
          {c.customInstructions && (
            <section>
              <h4>/compact instructions</h4>
              <pre className="text-block">{c.customInstructions}</pre>
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
                <div className="muted">No summary message follows this boundary.</div>
              ) : (
                <pre className="text-block summary" data-testid="compaction-summary">
                  {data.summaryText}
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
                      L{row.line} {row.text}
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
