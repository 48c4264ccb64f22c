import type { SessionSummary } from '../worker/protocol';
import { formatCount, formatDateTime, formatDuration, formatTokensShort } from './common/format';
import { useUiStore } from './store';

const TOP_TOOLS = 6;

function Stat({
  label,
  value,
  title,
  testId,
}: {
  label: string;
  value: string;
  title?: string;
  testId?: string;
}) {
  return (
    <span className="stat" title={title} data-testid={testId}>
      <span className="stat-value">{value}</span> <span className="stat-label">{label}</span>
    </span>
  );
}

export function SessionHeader({ summary }: { summary: SessionSummary }) {
  const setPanel = useUiStore((s) => s.setPanel);
  const { meta } = summary;
  const tools = Object.entries(summary.toolCalls).sort((a, b) => b[1] - a[1]);
  const toolTotal = tools.reduce((sum, [, n]) => sum + n, 0);
  const compacts = summary.compactions.filter((c) => c.kind === 'compact');
  const auto = compacts.filter((c) => c.trigger === 'auto').length;
  const manual = compacts.filter((c) => c.trigger === 'manual').length;
  const micro = summary.compactions.length - compacts.length;
  const issues = summary.issueCounts.error + summary.issueCounts.warning + summary.issueCounts.info;
  const subagentFiles = summary.files.filter((f) => f.role !== 'main' && f.role !== 'session-memory').length;
  const duration =
    meta.startMs !== undefined && meta.endMs !== undefined ? meta.endMs - meta.startMs : undefined;

  return (
    <section className="session-header" data-testid="session-header">
      <div className="session-title">
        <span className="agent">
          {meta.agent || 'Unknown agent'}
          {meta.versions.length > 0 && <span className="muted"> {meta.versions.join(', ')}</span>}
        </span>
        {meta.models.length > 0 && <span className="chip mono">{meta.models.join(', ')}</span>}
        {meta.cwd && (
          <span className="mono muted ellipsis" title={meta.cwd}>
            {meta.cwd}
          </span>
        )}
        {meta.gitBranch && <span className="chip mono">⎇ {meta.gitBranch}</span>}
        <span className="muted">
          {formatDateTime(meta.startMs)} → {formatDateTime(meta.endMs)} ({formatDuration(duration)})
        </span>
      </div>
      <div className="session-stats">
        <Stat label="entries" value={formatCount(summary.entries)} testId="stat-entries" />
        <Stat label="user turns" value={formatCount(summary.userTurns)} testId="stat-user-turns" />
        <Stat
          label="API calls"
          value={formatCount(summary.apiCalls)}
          title={`${formatCount(summary.mainApiCalls)} in the main conversation`}
          testId="stat-api-calls"
        />
        <Stat
          label="tool calls"
          value={formatCount(toolTotal)}
          title={tools.map(([name, n]) => `${name}: ${n}`).join('\n')}
          testId="stat-tool-calls"
        />
        <span className="tool-list mono">
          {tools.slice(0, TOP_TOOLS).map(([name, n]) => (
            <span key={name} className="tool-count">
              {name} {formatCount(n)}
            </span>
          ))}
          {tools.length > TOP_TOOLS && <span className="muted">+{tools.length - TOP_TOOLS}</span>}
        </span>
        <Stat
          label="compactions"
          value={formatCount(summary.compactions.length)}
          title={`${auto} auto, ${manual} manual, ${micro} microcompact`}
          testId="stat-compactions"
        />
        <span className="muted small">
          ({auto} auto · {manual} manual · {micro} μ)
        </span>
        <Stat label="peak context" value={formatTokensShort(summary.peakContextTokens)} />
        {summary.usage.zeroUsageCalls > 0 && (
          <span className="usage-warning" data-testid="usage-warning">
            zero usage on {formatCount(summary.usage.zeroUsageCalls)} of{' '}
            {formatCount(summary.usage.mainCalls)} calls: context estimated
          </span>
        )}
        {subagentFiles > 0 && <Stat label="subagent files" value={formatCount(subagentFiles)} />}
        <button
          type="button"
          className={`stat stat-button ${summary.issueCounts.error > 0 ? 'has-errors' : ''}`}
          data-testid="stat-issues"
          onClick={() => setPanel('issues')}
        >
          <span className="stat-value">{formatCount(issues)}</span>{' '}
          <span className="stat-label">parse issues</span>
        </button>
      </div>
    </section>
  );
}
