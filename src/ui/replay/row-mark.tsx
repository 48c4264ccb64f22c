import { useQuery } from '@tanstack/react-query';
import { useUiStore } from '../store';
import { useBranchPath } from '../timeline/branch-store';
import { replayRunQuery } from './replay-queries';
import { NO_RUN_PARAMS, useReplayStore } from './replay-store';
import { formatOrdinal } from '../../engine/query/numbering';

// A quiet mark on transcript rows the replay changed (tool results or thinking it cleared, entries it
// summarized): a small glyph after the real text, its words shown on hover or selection, so the
// transcript reads as it was first. Reads the run the timeline shows from the query cache.

type Mark = { kind: 'cleared'; event: number } | { kind: 'summarized' } | undefined;

export function ReplayRowMark({ entryIndex }: { entryIndex: number }) {
  const params = useReplayStore((s) => s.runParams);
  const branchId = useBranchPath(params?.sessionId ?? -1);
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
      title={`The replay clears this tool result or thinking block (${formatOrdinal('replay-event', mark.event)})`}
    >
      <span aria-hidden>◆</span>
      <span className="mark-label"> sim cleared</span>
    </span>
  ) : (
    <span className="replay-row-mark summarized" title="The replay summarizes this entry away">
      <span aria-hidden>◇</span>
      <span className="mark-label"> sim summarized</span>
    </span>
  );
}
