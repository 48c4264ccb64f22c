import { useQuery } from '@tanstack/react-query';
import { useUiStore } from '../store';
import { useFollowedBranch } from '../timeline/branch-store';
import { replayRunQuery } from './replay-queries';
import { NO_RUN_PARAMS, useReplayStore } from './replay-store';

// A badge on transcript rows the replay changed: tool results it cleared, entries it summarized.
// Reads the run the timeline shows from the query cache (never starts one).

type Mark = { kind: 'cleared'; event: number } | { kind: 'summarized' } | undefined;

export function ReplayRowMark({ entryIndex }: { entryIndex: number }) {
  const params = useReplayStore((s) => s.runParams);
  const branchId = useFollowedBranch(params?.sessionId ?? -1);
  const enabled = useReplayStore((s) => s.enabled);
  const sessionId = useUiStore((s) => s.currentSessionId);
  const active = enabled && params !== undefined && params.sessionId === sessionId;
  const { data: mark } = useQuery({
    ...replayRunQuery(params ?? NO_RUN_PARAMS, branchId),
    enabled: false,
    select: (d): Mark => {
      const event = d.clearedEntries[entryIndex];
      if (event !== undefined) return { kind: 'cleared', event };
      for (const [from, to] of d.result.summarizedRanges)
        if (entryIndex >= from && entryIndex <= to) return { kind: 'summarized' };
      return undefined;
    },
  });
  if (!active || !mark) return null;
  return mark.kind === 'cleared' ? (
    <span
      className="replay-row-mark cleared"
      data-testid="replay-row-cleared"
      title={`The replay clears this tool result (event #${mark.event})`}
    >
      sim cleared
    </span>
  ) : (
    <span className="replay-row-mark summarized" title="The replay summarizes this entry away">
      sim summarized
    </span>
  );
}
