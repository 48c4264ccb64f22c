import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
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
  // The issue whose whole message is shown below the list (a row holds one line of it).
  const [open, setOpen] = useState<number>();
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
            ariaLabel="Parse issues"
            renderRow={(i) => (
              <IssueRow
                issue={data.issues[i]!}
                fileName={data.fileNames[data.issues[i]!.fileIndex]}
                open={open === i}
                onOpen={() => setOpen(open === i ? undefined : i)}
              />
            )}
          />
          {open !== undefined && data.issues[open] && (
            <IssueDetail issue={data.issues[open]} fileName={data.fileNames[data.issues[open].fileIndex]} />
          )}
        </>
      )}
    </div>
  );
}

function describeIssue(issue: ParseIssue, fileName?: string): string {
  return `${fileName ?? ''}:${issue.line} ${issue.severity} ${issue.code}: ${issue.message}${issue.path ? ` (at ${issue.path})` : ''}`;
}

/** The whole of one issue, wrapped: a row cuts its message at the panel's width. */
function IssueDetail({ issue, fileName }: { issue: ParseIssue; fileName?: string }) {
  return (
    <div className="issue-detail mono" data-testid="issue-detail" aria-live="polite">
      <VisibleText text={describeIssue(issue, fileName)} />
    </div>
  );
}

function IssueRow({
  issue,
  fileName,
  open,
  onOpen,
}: {
  issue: ParseIssue;
  fileName?: string;
  open: boolean;
  onOpen: () => void;
}) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a row of a virtual list (a grid of spans), made a toggle.
    <div
      className={`issue-row mono sev-${issue.severity}${open ? ' open' : ''}`}
      data-testid="issue-row"
      data-line={issue.line}
      data-code={issue.code}
      data-severity={issue.severity}
      title={markHiddenChars(describeIssue(issue, fileName))}
      role="button"
      tabIndex={0}
      aria-pressed={open}
      onClick={onOpen}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          onOpen();
        }
      }}
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
