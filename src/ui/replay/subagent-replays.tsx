import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { getSubagentOverrides } from '../../engine/replay/subagent-knobs';
import { getPageStrategyDescriptor } from '../custom/custom-registry';
import type { SubagentReplay } from '../../engine/replay/types';
import type { SessionId } from '../../worker/protocol';
import { formatCount } from '../common/format';
import { VisibleText } from '../common/visible-text';
import { useUiStore } from '../store';
import { describeReplayEvent, EVENT_GLYPHS } from './replay-overlay';
import { replaySubagentsQuery } from './replay-queries';
import { useKnobOverrides } from './use-knobs';
import { REPLAY_DEBOUNCE_MS } from './use-replay';

// One row per subagent of the session: its own replay (engine/replay/subagent-replays.ts), under
// the sub-agent rules and the user's knob edits, never part of the session's series above. Folded
// by default. Each event chip goes to the subagent entry the event follows.

/** The user's edits a subagent's replay takes, once they have been still for REPLAY_DEBOUNCE_MS. */
function useSubagentOverrides(sessionId: SessionId, strategyId: string): Record<string, unknown> {
  const overrides = useKnobOverrides(sessionId, strategyId);
  const key = JSON.stringify(
    getSubagentOverrides(overrides, getPageStrategyDescriptor(strategyId).knobSpecs),
  );
  const [settled, setSettled] = useState(key);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(key), REPLAY_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [key]);
  return useMemo(() => JSON.parse(settled) as Record<string, unknown>, [settled]);
}

function SubagentRow({ s }: { s: SubagentReplay }) {
  const selectEntry = useUiStore((st) => st.selectEntry);
  const selectedEntry = useUiStore((st) => st.selectedEntry);
  const c = s.result.comparison;
  const name = s.agentId ?? s.fileName;
  const events = s.result.events.flatMap((e, i) =>
    e.kind === 'blocked' ? [] : [{ e, entryIndex: s.eventEntryIndices[i] ?? -1 }],
  );
  return (
    <li className="replay-subagent" data-testid="replay-subagent" data-agent-id={s.agentId}>
      <span className="mono">
        <VisibleText text={name} />
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
      {events.map(({ e, entryIndex }, i) => {
        // Agent ids and names are the log's text: only ever a string in an attribute, never markup.
        const label = `${describeReplayEvent(e)} of subagent ${name}'s own calls: go to its entry`;
        return (
          <button
            type="button"
            // biome-ignore lint/suspicious/noArrayIndexKey: events are positional within one run.
            key={i}
            className={`replay-chip kind-${e.kind} ${entryIndex >= 0 && entryIndex === selectedEntry ? 'open' : ''}`}
            data-testid="replay-subagent-chip"
            data-kind={e.kind}
            data-after-call={e.afterApiCall}
            data-entry-index={entryIndex}
            title={label}
            aria-label={label}
            disabled={entryIndex < 0}
            onClick={() => selectEntry(entryIndex, true)}
          >
            {EVENT_GLYPHS[e.kind]} {e.afterApiCall + 1}
          </button>
        );
      })}
      {events.length === 0 && <span className="muted small">no event</span>}
    </li>
  );
}

export function SubagentReplays({ sessionId, strategyId }: { sessionId: SessionId; strategyId: string }) {
  const overrides = useSubagentOverrides(sessionId, strategyId);
  const { data, error, isFetching, isPlaceholderData } = useQuery({
    ...replaySubagentsQuery(sessionId, strategyId, overrides),
    // The previous rows stay while an edit re-runs them.
    placeholderData: keepPreviousData,
  });
  if (error) return <div className="panel-message error small">Subagent replays failed: {error.message}</div>;
  if (!data || data.length === 0) return null;
  const compactions = data.reduce(
    (n, s) => n + s.result.events.filter((e) => e.kind === 'compact').length,
    0,
  );
  return (
    <details
      className="replay-subagents"
      data-testid="replay-subagents"
      data-busy={isFetching || isPlaceholderData}
      data-overrides={JSON.stringify(overrides)}
    >
      <summary
        className="small"
        title="Each subagent replayed alone under the sub-agent rules and your knob edits; their calls are not in the session's context"
      >
        Subagents ({data.length}) · {compactions} compaction{compactions === 1 ? '' : 's'}
      </summary>
      <p className="muted small">
        Each replayed alone under the sub-agent rules (before its next turn, Prompt 3) with your knob edits;
        their calls are not in the session’s context. A chip selects the entry its event follows.
      </p>
      <ul className="replay-subagent-list">
        {data.map((s) => (
          <SubagentRow key={s.fileIndex} s={s} />
        ))}
      </ul>
    </details>
  );
}
