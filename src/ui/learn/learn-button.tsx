import { useQuery } from '@tanstack/react-query';
import { getDefaultStrategyId } from '../../engine/strategies/descriptors';
import { sessionOverviewQuery } from '../queries';
import { useUiStore } from '../store';
import { useLearnStore } from './learn-store';

// The top bar's Learn entry: opens the walk of the loaded log's own strategy (Claude Code for the
// sample), or leaves learn mode when it is open.

export function LearnButton() {
  const sessionId = useUiStore((s) => s.currentSessionId);
  const { data: summary } = useQuery({
    ...sessionOverviewQuery(sessionId ?? -1),
    enabled: sessionId !== undefined,
  });
  const openId = useLearnStore((s) => s.strategyId);
  const usable = sessionId !== undefined && summary !== undefined && !summary.notTranscript;
  return (
    <button
      type="button"
      className={`btn${openId ? ' active' : ''}`}
      data-testid="learn-button"
      aria-pressed={openId !== undefined}
      disabled={!usable}
      title="Learn mode: how one compaction works on this transcript, step by step"
      onClick={() => {
        const { open, close } = useLearnStore.getState();
        if (openId !== undefined) close();
        else if (summary) open(getDefaultStrategyId(summary.format, summary.meta.agent));
      }}
    >
      Learn
    </button>
  );
}
