import { useShallow } from 'zustand/react/shallow';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { PromptSettings } from '../../engine/summarize/prepare';
import type { SummariesInfo } from '../../engine/summarize/session-ops';
import type { CompactionPoint } from '../../engine/summarize/span';
import type { SessionId } from '../../worker/protocol';
import { formatCount } from '../common/format';
import { formatRunDuration } from './compare-view';
import { useKeyStore } from './key-store';
import { RetentionView } from './retention-view';
import { cancelRun, startRun, useActiveRun } from './run-controller';
import { summaryRunsQuery } from './summaries-queries';
import { useSummariesStore } from './summaries-store';

// The Summaries workbench's output column: the request as sent, the run and its answer.

/** Seconds without a new piece of the answer after which the line says so (ours: past a model's usual pauses). */
const STALL_NOTICE_S = 5;

/**
 * The running line, counting the seconds since the request went out: a server that hangs (before
 * its first token or mid-answer) showed "Summarizing… 0 characters" with nothing moving, for as
 * long as it held the connection (no timeout: a local server may take minutes over a long prompt).
 */
function RunningStatus({
  sentAt,
  textAt,
  chars,
  builtin,
}: {
  sentAt?: number;
  textAt?: number;
  chars: number;
  builtin: boolean;
}) {
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(performance.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const since = (t: number | undefined) => (t === undefined ? 0 : Math.max(0, Math.floor((now - t) / 1000)));
  const waited = since(sentAt);
  if (builtin || waited < 1) return <>Summarizing… {formatCount(chars)} characters</>;
  if (chars === 0) return <>Waiting for the server's first token · {waited} s (Cancel stops it)</>;
  const quiet = since(textAt);
  return (
    <>
      Summarizing… {formatCount(chars)} characters · {waited} s
      {quiet >= STALL_NOTICE_S ? ` · nothing new for ${quiet} s (Cancel stops it)` : ''}
    </>
  );
}

export function OutputColumn(props: {
  sessionId: SessionId;
  info: SummariesInfo;
  point: CompactionPoint;
  pointLabel: string;
  settings: PromptSettings;
  /** The provider's count of this very request, when the user asked for it. */
  requestExactTokens?: number;
  recordedAvailable: boolean;
}) {
  const queryClient = useQueryClient();
  const s = useSummariesStore(
    useShallow((st) => ({
      anthropicBaseUrl: st.anthropicBaseUrl,
      openaiBaseUrl: st.openaiBaseUrl,
      summarizer: st.summarizer,
    })),
  );
  const active = useActiveRun();
  const runs = useQuery(summaryRunsQuery());
  const run = active.runId ? runs.data?.find((r) => r.id === active.runId) : undefined;
  const busy = active.status === 'preparing' || active.status === 'running';
  const hasAnthropicKey = useKeyStore((k) => k.anthropicKey !== '');
  const cannotRun =
    (s.summarizer === 'anthropic' && !hasAnthropicKey) ||
    (s.summarizer === 'recorded' && !props.recordedAvailable);
  return (
    <section className="summaries-output">
      <div className="output-actions">
        <button
          type="button"
          className="btn primary"
          data-testid="run-summary"
          disabled={cannotRun}
          // Not `disabled` while a run is on: a disabled button drops the focus to <body>.
          aria-disabled={busy}
          title={
            cannotRun
              ? s.summarizer === 'recorded'
                ? 'Pick a real compaction'
                : 'Enter an API key'
              : undefined
          }
          onClick={() => {
            if (busy) return;
            const keys = useKeyStore.getState();
            void startRun(queryClient, {
              sessionId: props.sessionId,
              info: props.info,
              point: props.point,
              pointLabel: props.pointLabel,
              settings: props.settings,
              choice: s.summarizer,
              apiKey:
                s.summarizer === 'anthropic'
                  ? keys.anthropicKey
                  : s.summarizer === 'openai'
                    ? keys.openaiKey
                    : undefined,
              baseUrl:
                s.summarizer === 'anthropic'
                  ? s.anthropicBaseUrl
                  : s.summarizer === 'openai'
                    ? s.openaiBaseUrl
                    : undefined,
              requestExactTokens: props.requestExactTokens,
            });
          }}
        >
          Run
        </button>
        <button
          type="button"
          className="btn"
          data-testid="cancel-summary"
          aria-disabled={!busy}
          onClick={() => {
            if (busy) cancelRun();
          }}
        >
          Cancel
        </button>
        <span className={`run-status ${active.status}`} data-testid="run-status">
          {active.status === 'idle' && 'Ready.'}
          {active.status === 'preparing' && 'Building the request…'}
          {active.status === 'running' && (
            <RunningStatus
              sentAt={active.sentAt}
              textAt={active.textAt}
              chars={active.text.length}
              builtin={active.summarizer === 'builtin' || active.summarizer === 'recorded'}
            />
          )}
          {active.status === 'done' && 'Done — saved as a run.'}
          {active.status === 'cancelled' && 'Cancelled.'}
          {active.status === 'error' && 'Failed.'}
        </span>
      </div>
      {active.error && (
        <div className="error-text small" data-testid="run-error" role="alert">
          {active.error}
        </div>
      )}
      <pre className="summary-stream" data-testid="summary-output">
        {active.text || (active.status === 'idle' ? 'The summary streams here.' : '')}
      </pre>
      {run && (
        <div className="run-figures small" data-testid="run-figures">
          <span>
            in <b>{formatCount(run.tokensIn)}</b> · out <b>{formatCount(run.tokensOut)}</b> tokens
          </span>
          <span>
            summary <b>{formatCount(run.summaryTokens)}</b> tokens (
            {run.summaryTokensSource === 'api' ? 'API count' : 'chars / 4'})
          </span>
          <span>{formatRunDuration(run.durationMs)}</span>
          <span>{run.costUsd === undefined ? 'cost —' : `$${run.costUsd.toFixed(4)}`}</span>
        </div>
      )}
      {run && <RetentionView retention={run.retention} />}
    </section>
  );
}
