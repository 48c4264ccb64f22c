import { describeModels, describePromptLog } from '../engine/parse/meta-words';
import type { StatedTotals } from '../engine/types';
import type { SessionOverview } from '../worker/protocol';
import { formatCount, formatDateTime, formatDuration, formatTokensShort } from './common/format';
import { OtherSessions } from './other-sessions';
import { useLiveStore } from './library/live';
import { useUiStore } from './store';
import { markHiddenChars, VisibleText } from './common/visible-text';

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
    <span
      className="stat"
      title={title === undefined ? undefined : markHiddenChars(title)}
      data-testid={testId}
    >
      <span className="stat-value">{value}</span> <span className="stat-label">{label}</span>
    </span>
  );
}

/** What the log states about itself (Claude Code's stream-json `result` records), for a tooltip. */
function statedTitle(t: StatedTotals): string {
  const u = t.usage;
  const input = u.inputTokens + u.cacheCreationInputTokens + u.cacheReadInputTokens;
  return [
    `Stated by the log's ${formatCount(t.runs)} result ${t.runs === 1 ? 'record' : 'records'} (one per run), summed:`,
    `the agent's own cost estimate, every model and subagent included`,
    `${formatCount(t.turns)} turns · main-thread input ${formatCount(input)} · output ${formatCount(u.outputTokens)} tokens`,
    ...(t.errors > 0
      ? [`${formatCount(t.errors)} ${t.errors === 1 ? 'run' : 'runs'} ended in an error`]
      : []),
  ].join('\n');
}

export function SessionHeader({ overview }: { overview: SessionOverview }) {
  const setPanel = useUiStore((s) => s.setPanel);
  // Live mode cannot read the file (gone, HTTP 404; the server away): the figures are the last
  // read's, marked so here as in the live bar (library/live-bar.tsx) — they read as current once.
  const liveError = useLiveStore((s) => s.error);
  const liveGone = useLiveStore((s) => s.gone);
  const { meta } = overview;
  const stated = meta.statedTotals;
  const models = describeModels(meta) ?? '';
  const tools = Object.entries(overview.toolCalls).sort((a, b) => b[1] - a[1]);
  const toolTotal = tools.reduce((sum, [, n]) => sum + n, 0);
  const toolsTitle = markHiddenChars(tools.map(([name, n]) => `${name}: ${n}`).join('\n'));
  // The main thread's, as the list, `stats` and the timeline's markers count them; a subagent's
  // compactions are of its own context, said apart (engine parse/main-thread.ts).
  const { auto, manual, micro, truncated: truncations, inSubagents } = overview.compactionCounts;
  const compactions = auto + manual + micro + truncations;
  const issues = overview.issueCounts.error + overview.issueCounts.warning + overview.issueCounts.info;
  const subagentLogs = overview.files.filter(
    (f) =>
      f.role !== 'main' &&
      f.role !== 'session-memory' &&
      f.role !== 'subagent-meta' &&
      f.role !== 'content' &&
      f.role !== 'other-session',
  );
  const subagentFiles = subagentLogs.length;
  // What the other logs are, in the words the replay strip uses ("Subagents (1)").
  const roleCounts = new Map<string, number>();
  for (const f of subagentLogs) roleCounts.set(f.role, (roleCounts.get(f.role) ?? 0) + 1);
  const logsLabel = describeOtherLogs(roleCounts);
  const folded = overview.files.reduce((n, f) => n + (f.foldedCopies ?? 0), 0);
  // The file the session is named by: an empty file named first is not it (getShownMainFile).
  const mainFile =
    overview.shownFileIndex === undefined ? undefined : overview.files[overview.shownFileIndex];
  // A sub-agent's own log opened without its session: read as the main thread, and said so.
  const isSubagentLog =
    mainFile !== undefined && (mainFile.openedAlone === true || mainFile.agentId !== undefined);
  // Files of other sessions opened with this one: listed, not read (engine parse/other-sessions.ts).
  const otherSessionFiles = overview.files.filter((f) => f.role === 'other-session');
  const duration =
    meta.startMs !== undefined && meta.endMs !== undefined ? meta.endMs - meta.startMs : undefined;

  return (
    <section className="session-header" data-testid="session-header">
      <div className="session-title">
        <span className="agent">
          {meta.agent || 'Unknown agent'}
          {meta.versions.length > 0 && (
            <>
              {' '}
              <span className="muted clip" title={markHiddenChars(meta.versions.join(', '))}>
                <VisibleText text={meta.versions.join(', ')} />
              </span>
            </>
          )}
        </span>
        {meta.promptLog && (
          <span
            className="header-title ellipsis"
            title="A prompt log: the prompts typed in this project over its sessions, with no model calls (each session's chat is its own file)"
            data-testid="header-prompt-log"
          >
            {describePromptLog(meta.promptLog)}
          </span>
        )}
        {meta.title && (
          <span
            className="header-title ellipsis clip"
            title={`${markHiddenChars(meta.title.text)}\nThe session's name as ${meta.agent || 'its agent'} lists it: its ${meta.title.source} record, line ${formatCount(meta.title.line)}`}
            data-testid="header-title"
          >
            <VisibleText text={meta.title.text} />
          </span>
        )}
        {isSubagentLog && (
          <span
            className="chip"
            data-testid="subagent-transcript"
            title={`${mainFile.name}: a sub-agent's transcript opened without its parent session`}
          >
            sub-agent transcript{mainFile.agentType ? ` · ${mainFile.agentType}` : ''}
          </span>
        )}
        {otherSessionFiles.length > 0 && (
          <button
            type="button"
            className="chip chip-button"
            data-testid="other-sessions"
            title={`Opened with this session but of others, so not read (the issues say which session each states):\n${markHiddenChars(otherSessionFiles.map((f) => f.name).join('\n'))}`}
            onClick={() => setPanel('issues')}
          >
            {otherSessionFiles.length === 1 ? '1 file' : `${formatCount(otherSessionFiles.length)} files`} of
            other sessions left out
          </button>
        )}
        {otherSessionFiles.length > 0 && <OtherSessions files={otherSessionFiles} />}
        {models && (
          <span className="chip mono clip" title={markHiddenChars(models)} data-testid="header-models">
            <VisibleText text={models} />
          </span>
        )}
        {meta.cwd && (
          <span
            className="mono muted ellipsis clip"
            title={markHiddenChars(meta.cwd)}
            data-testid="header-cwd"
          >
            <VisibleText text={meta.cwd} />
          </span>
        )}
        {meta.gitBranch && (
          <span
            className="chip mono clip"
            title={markHiddenChars(meta.gitBranch)}
            data-testid="header-branch"
          >
            ⎇ <VisibleText text={meta.gitBranch} />
          </span>
        )}
        <span className="muted" data-testid="header-span">
          {formatDateTime(meta.startMs)} → {formatDateTime(meta.endMs)} ({formatDuration(duration)})
        </span>
      </div>
      <div className="session-stats" data-last-known={liveError ? 'true' : undefined}>
        {liveError && (
          <span className="notice error small" data-testid="header-last-known" title={liveError}>
            {liveGone ? 'File gone' : 'File unreadable'}: last known
          </span>
        )}
        <Stat label="entries" value={formatCount(overview.entries)} testId="stat-entries" />
        {folded > 0 && (
          <span
            className="muted small"
            data-testid="stat-folded"
            title="Copies of records counted once: main-thread records that side-question and compaction-call logs copy (same uuid), or earlier copies of a record the log wrote again (same message id)"
          >
            ({formatCount(folded)} {folded === 1 ? 'copy' : 'copies'} folded)
          </span>
        )}
        <Stat
          label={overview.userTurns === 1 ? 'user turn' : 'user turns'}
          value={formatCount(overview.userTurns)}
          testId="stat-user-turns"
        />
        <Stat
          label={overview.apiCalls === 1 ? 'API call' : 'API calls'}
          value={formatCount(overview.apiCalls)}
          title={`${formatCount(overview.mainApiCalls)} in the main conversation`}
          testId="stat-api-calls"
        />
        <Stat
          label={toolTotal === 1 ? 'tool call' : 'tool calls'}
          value={formatCount(toolTotal)}
          title={toolsTitle}
          testId="stat-tool-calls"
        />
        {/* Cut at its end where the line is short (1280 px): the list itself names every tool too. */}
        <span className="tool-list mono" title={toolsTitle} data-testid="tool-list">
          {tools.slice(0, TOP_TOOLS).map(([name, n]) => (
            <span key={name} className="tool-count clip" title={markHiddenChars(name)}>
              <VisibleText text={name} /> {formatCount(n)}
            </span>
          ))}
          {tools.length > TOP_TOOLS && <span className="muted">+{tools.length - TOP_TOOLS}</span>}
        </span>
        <Stat
          label={compactions === 1 ? 'compaction' : 'compactions'}
          value={formatCount(compactions)}
          title={`The main thread's: ${auto} auto, ${manual} manual, ${micro} microcompact${truncations ? `, ${truncations} truncation` : ''}`}
          testId="stat-compactions"
        />
        <span className="muted small" data-testid="stat-compaction-kinds">
          ({auto} auto · {manual} manual · {micro} μ{truncations > 0 && ` · ${truncations} T`})
        </span>
        {inSubagents > 0 && (
          <span
            className="muted small"
            data-testid="stat-subagent-compactions"
            title="Compactions of the subagents' own contexts, in their logs: not the main thread's (the replay strip's Subagents rows list them)"
          >
            · {formatCount(inSubagents)} in subagents
          </span>
        )}
        <Stat label="peak context" value={formatTokensShort(overview.peakContextTokens)} />
        {overview.usage.zeroUsageCalls > 0 && (
          <span className="usage-warning" data-testid="usage-warning">
            zero usage on {formatCount(overview.usage.zeroUsageCalls)} of{' '}
            {formatCount(overview.usage.mainCalls)} calls: context estimated
          </span>
        )}
        {stated?.costUsd !== undefined && (
          <Stat
            label="cost stated by the log"
            value={`$${stated.costUsd.toFixed(2)}`}
            title={statedTitle(stated)}
            testId="stat-stated-cost"
          />
        )}
        {meta.statedCost && stated?.costUsd === undefined && (
          <Stat
            label="cost stated by the log"
            value={`$${meta.statedCost.usd.toFixed(meta.statedCost.usd < 1 ? 3 : 2)}`}
            title={`${meta.agent || 'The agent'}'s own figure: the cost it wrote on ${formatCount(meta.statedCost.records)} of its records, summed as it sums them (compare the replay's cost, priced here)`}
            testId="stat-stated-cost"
          />
        )}
        {subagentFiles > 0 && (
          <Stat
            label={logsLabel.label}
            value={formatCount(subagentFiles)}
            title={[
              logsLabel.parts,
              ...subagentLogs.map(
                (f) => `${f.agentType ?? f.role}${f.agentDescription ? `: ${f.agentDescription}` : ''}`,
              ),
            ].join('\n')}
            testId="stat-subagents"
          />
        )}
        <button
          type="button"
          className={`stat stat-button ${overview.issueCounts.error > 0 ? 'has-errors' : ''}`}
          data-testid="stat-issues"
          onClick={() => setPanel('issues')}
          title={describeIssueCounts(overview.issueCounts, overview.unread)}
        >
          <span className="stat-value">{formatCount(issues)}</span>{' '}
          <span className="stat-label">{issues === 1 ? 'parse issue' : 'parse issues'}</span>
        </button>
      </div>
    </section>
  );
}

/** The count's parts, so it reads beside the session list's Unread column (which counts only those). */
function describeIssueCounts(counts: Record<'error' | 'warning' | 'info', number>, unread: number): string {
  const part = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;
  return `${part(counts.error, 'error', 'errors')}, ${part(counts.warning, 'warning', 'warnings')}, ${part(counts.info, 'note', 'notes')}; of them ${formatCount(unread)} unread (lines not JSON or cut off, files that are no transcript): the session list's Unread column`;
}

const ROLE_NOUNS: Record<string, [string, string]> = {
  subagent: ['subagent', 'subagents'],
  'side-question': ['side question', 'side questions'],
  'compaction-call': ['compaction call', 'compaction calls'],
};

/**
 * The other logs of a session by what they are: "subagent logs" when all are subagents, else
 * "other logs" (short: the header's line fits 1280 px), with "1 subagent, 2 compaction calls" for
 * the tooltip's first line.
 */
function describeOtherLogs(roleCounts: ReadonlyMap<string, number>): { label: string; parts: string } {
  const total = [...roleCounts.values()].reduce((a, b) => a + b, 0);
  const log = total === 1 ? 'log' : 'logs';
  const order = Object.keys(ROLE_NOUNS);
  const rank = (role: string) => (order.includes(role) ? order.indexOf(role) : order.length);
  const parts = [...roleCounts]
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([role, n]) => {
      const [one, many] = ROLE_NOUNS[role] ?? [role, role];
      return `${n} ${n === 1 ? one : many}`;
    });
  const onlySubagents = roleCounts.size === 1 && roleCounts.has('subagent');
  return { label: onlySubagents ? `subagent ${log}` : `other ${log}`, parts: parts.join(', ') };
}
