import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getEngineClient } from '../../worker/engine-client';
import type { SessionId, TimelineSeries } from '../../worker/protocol';
import { formatCount, formatTokensShort } from '../common/format';
import { useUiStore } from '../store';

// Totals for the range the chart shows once zoomed (a shift-drag selects a range and zooms to it):
// the calls in it (main, and subagents' placed in it), their tokens by kind and their cost at list
// prices, summed in the worker (engine/cost/range-totals.ts). The range's ends are the legend's.

/** The main calls `first..last` (1-based, the legend's) and the subagent calls placed in it. */
function getRangeCalls(series: TimelineSeries, first: number, last: number) {
  const main = Array.from(series.callIndex.subarray(first - 1, last));
  const side: number[] = [];
  const { x, callIndex } = series.side;
  for (let k = 0; k < x.length; k++) {
    const at = x[k]!;
    if (at >= first - 1.5 && at <= last - 0.5) side.push(callIndex[k]!);
  }
  return { main, side };
}

export function RangeTotals({
  series,
  first,
  last,
}: {
  series: TimelineSeries;
  first: number;
  last: number;
}) {
  const sessionId = useUiStore((s) => s.currentSessionId);
  if (sessionId === undefined || last < first) return null;
  return <RangeTotalsFor sessionId={sessionId} series={series} first={first} last={last} />;
}

function RangeTotalsFor(props: {
  sessionId: SessionId;
  series: TimelineSeries;
  first: number;
  last: number;
}) {
  const { sessionId, series, first, last } = props;
  const { data } = useQuery({
    queryKey: ['session', sessionId, 'range-totals', series.callIndex.length, first, last],
    queryFn: ({ signal }) => {
      const { main, side } = getRangeCalls(series, first, last);
      return getEngineClient().request(
        { kind: 'range-totals', sessionId, callIndices: main, subagentIndices: side },
        { signal },
      );
    },
    placeholderData: keepPreviousData,
  });
  if (!data) return null;
  const cost = data.costUsd.toLocaleString('en-US', { style: 'currency', currency: 'USD' });
  const inTokens = data.inputTokens + data.cacheCreationInputTokens + data.cacheReadInputTokens;
  const detail = `Calls ${first}–${last} shown: ${data.calls} calls (${data.subagentCalls} subagents'), input ${data.inputTokens} + cache writes ${data.cacheCreationInputTokens} + cache reads ${data.cacheReadInputTokens}, output ${data.outputTokens}; ${cost} at list prices, ${data.unpricedCalls} calls unpriced`;
  return (
    <span className="range-totals mono" data-testid="range-totals" data-calls={data.calls} title={detail}>
      Σ <span data-testid="range-calls">{formatCount(data.calls)}</span> calls ·{' '}
      {formatTokensShort(inTokens + data.outputTokens)} tokens · <span data-testid="range-cost">{cost}</span>
      {data.unpricedCalls > 0 && '+'}
    </span>
  );
}
