import { useQuery } from '@tanstack/react-query';
import type { SubagentReplay } from '../../engine/replay/types';
import type { SessionId } from '../../worker/protocol';
import { formatCount } from '../common/format';
import { VisibleText } from '../common/visible-text';
import { describeReplayEvent, EVENT_GLYPHS } from './replay-overlay';
import { replaySubagentsQuery } from './replay-queries';

// One row per subagent of the session: its own replay (engine/replay/subagent-replays.ts), under
// the sub-agent rules, never part of the session's series above. Folded by default.

function SubagentRow({ s }: { s: SubagentReplay }) {
  const c = s.result.comparison;
  const events = s.result.events.filter((e) => e.kind !== 'blocked');
  return (
    <li className="replay-subagent" data-testid="replay-subagent" data-agent-id={s.agentId}>
      <span className="mono">
        <VisibleText text={s.agentId ?? s.fileName} />
      </span>
      {s.agentType && (
        <span className="chip small">
          <VisibleText text={s.agentType} />
        </span>
      )}
      <span className="muted small">
        {formatCount(s.apiCalls)} calls · peak {formatCount(s.peakRecordedTokens)} tok
        {c.expected > 0 && ` · ${c.reproduced}/${c.expected} of its compactions reproduced`}
      </span>
      {events.map((e, i) => (
        <span
          // biome-ignore lint/suspicious/noArrayIndexKey: events are positional within one run.
          key={i}
          className={`replay-chip static kind-${e.kind}`}
          title={`${describeReplayEvent(e)} (of this subagent's own calls)`}
        >
          {EVENT_GLYPHS[e.kind]} {e.afterApiCall + 1}
        </span>
      ))}
      {events.length === 0 && <span className="muted small">no event</span>}
    </li>
  );
}

export function SubagentReplays({ sessionId, strategyId }: { sessionId: SessionId; strategyId: string }) {
  const { data, error } = useQuery(replaySubagentsQuery(sessionId, strategyId));
  if (error) return <div className="panel-message error small">Subagent replays failed: {error.message}</div>;
  if (!data || data.length === 0) return null;
  const compactions = data.reduce(
    (n, s) => n + s.result.events.filter((e) => e.kind === 'compact').length,
    0,
  );
  return (
    <details className="replay-subagents" data-testid="replay-subagents">
      <summary
        className="small"
        title="Each subagent replayed alone under the sub-agent rules; their calls are not in the session's context"
      >
        Subagents ({data.length}) · {compactions} compaction{compactions === 1 ? '' : 's'}
      </summary>
      <p className="muted small">
        Each replayed alone under the sub-agent rules (before its next turn, Prompt 3); their calls are not in
        the session’s context.
      </p>
      <ul className="replay-subagent-list">
        {data.map((s) => (
          <SubagentRow key={s.fileIndex} s={s} />
        ))}
      </ul>
    </details>
  );
}
