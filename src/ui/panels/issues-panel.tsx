import { useQuery } from '@tanstack/react-query';
import type { ParseIssue } from '../../engine/types';
import type { SessionId } from '../../worker/protocol';
import { formatCount } from '../common/format';
import { VirtualList } from '../common/virtual-list';
import { issuesQuery } from '../queries';
import { markHiddenChars, VisibleText } from '../common/visible-text';

/** Two lines: where and what, then the message. */
const ROW_HEIGHT_PX = 36;

export function IssuesPanel({ sessionId }: { sessionId: SessionId }) {
  const { data, error } = useQuery(issuesQuery(sessionId));
  if (error) return <div className="panel-message error">{error.message}</div>;
  if (!data) return <div className="panel-message muted">Loading…</div>;
  const unknown = Object.entries(data.unknownTypes).sort((a, b) => b[1] - a[1]);
  return (
    <div className="issues-panel" data-testid="issues-panel">
      <div className="panel-note">
        {formatCount(data.issues.length)} parse issue{data.issues.length === 1 ? '' : 's'}.
        {unknown.length > 0 ? (
          <span data-testid="unknown-types">
            {' '}
            Unknown record types (kept, shown as “unknown”):{' '}
            {unknown.map(([type, n]) => (
              <span key={type} className="chip mono small">
                {type} × {formatCount(n)}
              </span>
            ))}
          </span>
        ) : (
          ' No unknown record types.'
        )}
      </div>
      {data.issues.length > 0 && (
        <>
          <div className="issue-row issue-header mono">
            <span>line</span>
            <span>severity</span>
            <span>code</span>
            <span>file · path</span>
          </div>
          <VirtualList
            count={data.issues.length}
            rowHeightPx={ROW_HEIGHT_PX}
            className="issues-list"
            testId="issues-list"
            renderRow={(i) => (
              <IssueRow issue={data.issues[i]!} fileName={data.fileNames[data.issues[i]!.fileIndex]} />
            )}
          />
        </>
      )}
    </div>
  );
}

function IssueRow({ issue, fileName }: { issue: ParseIssue; fileName?: string }) {
  const full = `${fileName ?? ''}:${issue.line} ${issue.severity} ${issue.code}: ${issue.message}${issue.path ? ` (at ${issue.path})` : ''}`;
  return (
    <div
      className={`issue-row mono sev-${issue.severity}`}
      data-testid="issue-row"
      data-line={issue.line}
      data-code={issue.code}
      data-severity={issue.severity}
      title={markHiddenChars(full)}
    >
      <span>{issue.line > 0 ? `L${issue.line}` : '–'}</span>
      <span className={`sev sev-${issue.severity}`}>{issue.severity}</span>
      <span className="ellipsis">{issue.code}</span>
      <span className="issue-file">
        {fileName?.split('/').pop() ?? `file ${issue.fileIndex}`}
        {issue.path && ` · at ${issue.path}`}
      </span>
      <span className="issue-message">
        <VisibleText text={issue.message} />
      </span>
    </div>
  );
}
