import { useQuery } from '@tanstack/react-query';
import { BASH_SUMMARY_SHAPE, SPEW_RULES } from '../../engine/query/bash-summaries';
import type { SessionId } from '../../worker/protocol';
import { formatCount } from '../common/format';
import { markHiddenChars, VisibleText } from '../common/visible-text';
import { bashSummariesQuery } from '../queries';
import { useUiStore } from '../store';

// The shell results Claude Code's bash-output summarization would catch
// (docs/sources.md#csa-bash-summaries): a list with entry links, and the total saved.

export function BashSummariesPanel({ sessionId }: { sessionId: SessionId }) {
  const { data, error } = useQuery(bashSummariesQuery(sessionId));
  const selectEntry = useUiStore((s) => s.selectEntry);
  if (error) return <div className="panel-message error">{error.message}</div>;
  if (!data) return <div className="panel-message muted">Loading…</div>;
  return (
    <div className="bash-panel" data-testid="bash-summaries-panel">
      <div className="panel-note">
        <b data-testid="bash-summaries-count">{formatCount(data.rows.length)}</b> of{' '}
        {formatCount(data.shellResults)} shell results ({data.shellTools.join(', ')}) over{' '}
        {formatCount(data.thresholdChars)} characters (§4); {formatCount(data.spewCount)} look like log spew.
        Summarizing those would save{' '}
        <b data-testid="bash-summaries-total">{formatCount(data.totalSavedTokens)}</b> of{' '}
        {formatCount(data.totalResultTokens)} tokens.
        <details>
          <summary>How this is judged</summary>
          <p className="small">
            §4 asks a smaller model whether an output is log spew (build logs, test output, repetitive debug
            logs); ours is a heuristic on the output’s first 2,000 characters:{' '}
            {SPEW_RULES.map((r) => `${r.label} ≥ ${r.minShare * 100}%`).join('; ')}. A summary has:{' '}
            {BASH_SUMMARY_SHAPE.join(', ')}; the raw output is saved to disk. Tokens are chars / 4; a
            summary’s size is our estimate (1,200 characters of prose, the error lines, 3 snippets).
          </p>
        </details>
      </div>
      <ul className="bash-list mono small" data-testid="bash-summaries-list">
        {data.rows.map((row) => (
          <li
            key={row.toolUseId}
            data-testid="bash-summary-row"
            data-judgement={row.judgement}
            data-saved={row.savedTokens}
          >
            <button type="button" className="btn link" onClick={() => selectEntry(row.entryIndex, true)}>
              entry {row.entryIndex}
            </button>{' '}
            {row.toolName} · {formatCount(row.chars)} chars · {formatCount(row.resultTokens)} tok ·{' '}
            <span className={row.judgement === 'log-spew' ? 'bash-spew' : 'muted'}>
              {row.judgement}
              {row.reasons.length ? ` (${row.reasons.join(', ')})` : ''}
            </span>
            {row.savedTokens > 0 && <> · −{formatCount(row.savedTokens)} tok</>}
            {row.command !== undefined && (
              <div className="bash-command muted" title={markHiddenChars(row.command)}>
                $ <VisibleText text={row.command.split('\n')[0]!.slice(0, 160)} />
              </div>
            )}
          </li>
        ))}
      </ul>
      {data.rows.length === 0 && (
        <div className="panel-message muted">No shell output over the threshold.</div>
      )}
    </div>
  );
}
