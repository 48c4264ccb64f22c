import { useQuery } from '@tanstack/react-query';
import type { ApiMessage } from '../../engine/compact/types';
import { formatTokenProvenance } from '../../engine/replay/provenance';
import type { ReplayEvent, ReplayEventFields } from '../../engine/replay/types';
import type { SessionId } from '../../worker/protocol';
import { formatCount } from '../common/format';
import { useEscapeLayer } from '../common/use-escape';
import { useUiStore } from '../store';
import { useSuppliedSummarySizes } from '../summaries/summary-sizes';
import { BoundaryScores } from './boundary-scores';
import { describeReplayEvent } from './replay-overlay';
import { replayRequestQuery } from './replay-queries';
import { SESSION_MEMORY_PREVIEW_LINES } from './replay-knobs';
import { useReplayStore } from './replay-store';
import { useSessionMemory } from './use-replay';
import { markHiddenChars, VisibleText } from '../common/visible-text';
import { formatOrdinal, formatPlural } from '../../engine/query/numbering';
import { getPromptElisions } from '../../engine/prompts/claude-code';
import { getBoundaryScores } from '../../engine/strategies/boundary-scoring/detail';
import { getPiDetail } from '../../engine/strategies/pi/detail';

// One replay event: before and after, what it cleared or summarized, what a compaction would
// send to the summarizer (built in the worker from the full records) and what comes back after it.

const MESSAGE_PREVIEW_CHARS = 600;

function messagePreview(m: ApiMessage): string {
  if (typeof m.content === 'string') return m.content.slice(0, MESSAGE_PREVIEW_CHARS);
  const parts = m.content.map((b) => {
    switch (b.type) {
      case 'text':
        return (b as { text: string }).text;
      case 'tool_use':
        return `[tool_use ${(b as { name: string }).name} ${JSON.stringify((b as { input: unknown }).input).slice(0, 160)}]`;
      case 'tool_result': {
        const c = (b as { content: unknown }).content;
        const text = typeof c === 'string' ? c : JSON.stringify(c);
        return `[tool_result ${text.slice(0, 200)}]`;
      }
      case 'thinking':
        return `[thinking ${(b as { thinking: string }).thinking.length} chars]`;
      default:
        return `[${b.type}]`;
    }
  });
  const text = parts.join('\n');
  return text.length > MESSAGE_PREVIEW_CHARS ? `${text.slice(0, MESSAGE_PREVIEW_CHARS)}…` : text;
}

function SummarizerRequest({ sessionId, event }: { sessionId: SessionId; event: ReplayEventFields }) {
  const spec = event.request!;
  const { data, error, isPending } = useQuery(replayRequestQuery(sessionId, spec));
  if (error) return <div className="panel-message error">Request failed: {error.message}</div>;
  if (isPending || !data) return <div className="panel-message muted">Building the request…</div>;
  const r = data;
  return (
    <div className="replay-request" data-testid="replay-request" data-tokens={r.estimatedTokens}>
      <p className="muted small">
        {formatPlural(r.messages.length, 'message')} from entries {r.fromEntryIndex}–{r.uptoEntryIndex} (
        {r.dropped.length} dropped by the filter), prompt “{r.presetId ?? r.variant}”
        {r.followUps?.length ? `, request 1 of ${r.followUps.length + 1}` : ''}:{' '}
        <b className="mono">~{formatCount(r.estimatedTokens)} tokens</b> by Claude Code’s estimate.
      </p>
      <details>
        <summary>System</summary>
        <pre className="text-block">{r.system}</pre>
      </details>
      <details>
        <summary>Messages ({r.messages.length})</summary>
        <ol className="replay-messages">
          {r.messages.map((m, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: messages are positional.
            <li key={i}>
              <span className={`role role-${m.role}`}>{m.role}</span>
              <pre className="text-block">
                <VisibleText text={messagePreview(m)} />
              </pre>
            </li>
          ))}
        </ol>
      </details>
      <details>
        <summary>Prompt</summary>
        <pre className="text-block" data-testid="replay-request-prompt">
          {r.prompt}
        </pre>
        {getPromptElisions(r.variant).length > 0 && (
          <p className="muted small" data-testid="replay-request-elisions">
            The reference elides {getPromptElisions(r.variant).length} passages of this prompt (after{' '}
            {getPromptElisions(r.variant)
              .map((e) => `“${e.after}”`)
              .join(' and ')}
            ): Claude Code sends text there that no public source gives; this request goes on without it
            rather than sending the reference’s marks.
          </p>
        )}
      </details>
      {r.followUps?.map((f, i) => (
        <div key={f.label} data-testid="replay-request-followup">
          <p className="muted small">
            Request {i + 2} of {r.followUps!.length + 1}, {f.label}: the same{' '}
            {formatPlural(r.messages.length, 'message')}, the previous answer as the model’s message, then the
            prompt below: <b className="mono">~{formatCount(f.estimatedTokens)} tokens</b> with the answer at
            its cap.
          </p>
          <details>
            <summary>Prompt {i + 2}</summary>
            <pre className="text-block">{f.prompt}</pre>
          </details>
        </div>
      ))}
    </div>
  );
}

/** Where the summary's size came from: a Summaries run, the size model, the log, session memory. */
function SummarySizeSource({ sessionId, event }: { sessionId: SessionId; event: ReplayEventFields }) {
  const supplied = useSuppliedSummarySizes(sessionId)[event.afterApiCall];
  switch (event.summarySource) {
    case 'supplied':
      return supplied ? (
        <span title={`Run ${supplied.runId} (${supplied.source === 'api' ? 'API count' : 'chars / 4'})`}>
          from run “{supplied.runName}”
        </span>
      ) : (
        <span>from a summarizer run</span>
      );
    case 'recorded':
      return <span>the log’s own</span>;
    case 'session-memory':
      return <span>session memory (chars / 4)</span>;
    default:
      return <span>size model</span>;
  }
}

/** The session memory the event compacted with: its first lines and its size. */
function SessionMemoryPreview({ sessionId }: { sessionId: SessionId }) {
  const memory = useSessionMemory(sessionId);
  const lines = memory.text.split('\n');
  const shown = lines.slice(0, SESSION_MEMORY_PREVIEW_LINES).join('\n');
  return (
    <div data-testid="replay-session-memory">
      <h4>
        Session memory{' '}
        <span className="muted small">
          ≈{formatCount(memory.tokens)} tok · {formatCount(memory.text.length)} chars
          {memory.fileName ? ` · ${memory.fileName}` : ''}
        </span>
      </h4>
      <pre className="text-block">
        {shown}
        {lines.length > SESSION_MEMORY_PREVIEW_LINES ? '\n…' : ''}
      </pre>
    </div>
  );
}

export function ReplayEventCard({
  sessionId,
  event: replayEvent,
  index,
}: {
  sessionId: SessionId;
  event: ReplayEvent;
  index: number;
}) {
  // The card shows whatever figures the event has.
  const event: ReplayEventFields = replayEvent;
  const close = useReplayStore((s) => s.openEventCard);
  const selectEntry = useUiStore((s) => s.selectEntry);
  const restored = event.restored;
  const boundaryScores = getBoundaryScores(event);
  const trackedFiles = getPiDetail(event)?.trackedFiles;
  useEscapeLayer(() => close(undefined));
  return (
    <aside
      className="replay-card"
      data-testid="replay-event-card"
      data-kind={event.kind}
      data-event-index={index}
    >
      <header>
        <span className="card-title">
          {describeReplayEvent(replayEvent)}{' '}
          <span className="muted small">{formatOrdinal('replay-event', index)}</span>
        </span>
        <button
          type="button"
          className="btn link card-close"
          aria-label="Close"
          data-testid="replay-card-close"
          onClick={() => close(undefined)}
        >
          ×
        </button>
      </header>
      <div className="card-body">
        <dl className="kv mono">
          <dt>trigger count</dt>
          <dd>
            {formatCount(event.checkTokens)}{' '}
            {event.trigger === 'auto' && event.thresholdTokens > 0
              ? `≥ ${formatCount(event.thresholdTokens)}`
              : '(by hand)'}
          </dd>
          <dt>before</dt>
          <dd data-testid="replay-pre">
            {formatCount(event.preTokens)} tok ·{' '}
            <span className="muted" data-testid="replay-pre-source" data-kind={event.preSource.kind}>
              {formatTokenProvenance(event.preSource)}
            </span>
          </dd>
          <dt>after</dt>
          <dd data-testid="replay-post">
            {formatCount(event.postTokens)} tok ·{' '}
            <span className="muted" data-testid="replay-post-source" data-kind={event.postSource.kind}>
              {formatTokenProvenance(event.postSource)}
            </span>
          </dd>
          {event.summaryTokens !== undefined && (
            <>
              <dt>summary</dt>
              <dd data-testid="replay-summary" data-source={event.summarySource}>
                {formatCount(event.summaryTokens)} tok ·{' '}
                <SummarySizeSource sessionId={sessionId} event={event} />
                {event.continuationTokens
                  ? ` (+ ${formatCount(event.continuationTokens)} continuation text)`
                  : ''}
              </dd>
            </>
          )}
          {event.kind === 'compact' && (
            <>
              <dt>LLM calls</dt>
              <dd data-testid="replay-llm-calls">
                {event.llmCalls ?? 1}
                {(event.llmCalls ?? 1) > 1 ? ' (the summary, then a verification probe)' : ''}
              </dd>
            </>
          )}
          {event.spanTokens !== undefined && (
            <>
              <dt>summarized</dt>
              <dd>{formatCount(event.spanTokens)} tok</dd>
            </>
          )}
          {event.keptTokens !== undefined && (
            <>
              <dt>kept verbatim</dt>
              <dd>{formatCount(event.keptTokens)} tok</dd>
            </>
          )}
          {event.savedTokens !== undefined && (
            <>
              <dt>cleared</dt>
              <dd>
                {formatPlural(event.clearedToolIds?.length ?? 0, 'result')}, −{formatCount(event.savedTokens)}{' '}
                tok
                {event.estimatedSavedTokens !== undefined
                  ? ` (Claude Code’s estimate ${formatCount(event.estimatedSavedTokens)})`
                  : ''}
              </dd>
            </>
          )}
          {event.droppedTokens !== undefined && (
            <>
              <dt>dropped</dt>
              <dd data-testid="replay-dropped">
                entries {event.droppedFromEntryIndex}–{event.droppedToEntryIndex}, −
                {formatCount(event.droppedTokens)} tok
              </dd>
            </>
          )}
          {event.hidden && (
            <>
              <dt>a rewind restores</dt>
              <dd data-testid="replay-hidden" data-tag={event.hidden.tag}>
                entries {event.hidden.fromEntryIndex}–{event.hidden.toEntryIndex} (
                {formatPlural(event.hidden.entries, 'log entry', 'log entries')}),{' '}
                {formatCount(event.hidden.tokens)} tok · tagged{' '}
                {event.hidden.tag === 'condense' ? 'condenseParent' : 'truncationParent'}, not deleted{' '}
                <button
                  type="button"
                  className="btn link small"
                  onClick={() => selectEntry(event.hidden!.fromEntryIndex, true)}
                >
                  show
                </button>
              </dd>
            </>
          )}
          {event.noticeTokens ? (
            <>
              <dt>notice</dt>
              <dd>+{formatCount(event.noticeTokens)} tok</dd>
            </>
          ) : null}
          {event.realCompactionIndex !== undefined && (
            <>
              <dt>in the log</dt>
              <dd>{formatOrdinal('compaction', event.realCompactionIndex)}</dd>
            </>
          )}
        </dl>
        {event.mechanism === 'session-memory' && <SessionMemoryPreview sessionId={sessionId} />}
        {event.note && <p className="replay-note">{event.note}</p>}
        {boundaryScores && <BoundaryScores candidates={boundaryScores} />}
        <button type="button" className="btn small" onClick={() => selectEntry(event.afterEntryIndex, true)}>
          Show where it happens
        </button>
        {restored && (
          <>
            <h4>
              Restored after it{' '}
              <span className="muted small">
                {formatCount(event.reattachedTokens ?? restored.totalTokens)} tok
                {event.reattachedSource === 'recorded' ? ' (the log’s own re-attachments)' : ''}
              </span>
            </h4>
            <ul className="link-list mono small" data-testid="replay-restored">
              {restored.files.map((f) => (
                <li key={f.path} title={markHiddenChars(f.path)}>
                  {f.referenceOnly ? 'path only · ' : f.truncated ? 'truncated · ' : ''}
                  {formatCount(f.tokens)} tok · <VisibleText text={f.path} />
                </li>
              ))}
              {restored.overBudget.map((f) => (
                <li key={`over-${f.path}`} className="muted" title={markHiddenChars(f.path)}>
                  over budget · <VisibleText text={f.path} />
                </li>
              ))}
              {restored.todo && <li>todo list · {formatCount(restored.todo.tokens)} tok</li>}
              {restored.plan && <li>plan · {formatCount(restored.plan.tokens)} tok</li>}
              {!restored.files.length && !restored.todo && !restored.plan && (
                <li className="muted">nothing</li>
              )}
            </ul>
          </>
        )}
        {trackedFiles && (
          <>
            <h4>
              Files the summary lists{' '}
              <span className="muted small">read and modified so far, across compactions</span>
            </h4>
            <ul className="link-list mono small" data-testid="replay-tracked-files">
              {trackedFiles.modifiedFiles.map((f) => (
                <li key={`m-${f}`} title={markHiddenChars(f)}>
                  modified · <VisibleText text={f} />
                </li>
              ))}
              {trackedFiles.readFiles.map((f) => (
                <li key={`r-${f}`} title={markHiddenChars(f)}>
                  read · <VisibleText text={f} />
                </li>
              ))}
              {!trackedFiles.modifiedFiles.length && !trackedFiles.readFiles.length && (
                <li className="muted">none</li>
              )}
            </ul>
          </>
        )}
        {event.request && (
          <>
            <h4>Request to the summarizer</h4>
            <SummarizerRequest sessionId={sessionId} event={event} />
          </>
        )}
      </div>
    </aside>
  );
}
