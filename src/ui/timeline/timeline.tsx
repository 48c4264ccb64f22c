import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { getPageStrategyDescriptor, useCustomStrategies } from '../custom/custom-registry';
import type { SessionId } from '../../worker/protocol';
import { getDialectInfo } from '../../engine/parse/dialects/descriptors';
import { sessionOverviewQuery, timelineQuery } from '../queries';
import { CONTEXT_WINDOW_KEY, useEffectiveKnobs, useKnobOverrides } from '../replay/use-knobs';
import { useLayoutStore } from '../layout-store';
import { KnobsBar } from './knobs-bar';
import { useReplayStore } from '../replay/replay-store';
import { getSpanBars, getThresholdBars, getWindowSpans } from './threshold-bars';
import { useShownReplayResult } from '../replay/replay-overlay';
import { useBranchPath } from './branch-store';
import { TimelineNotes } from './timeline-notes';

import { TimelineChart } from './timeline-chart';

// The timeline section: the knobs bar and the readout, the notes, and the chart.

export function Timeline({ sessionId }: { sessionId: SessionId }) {
  const branchId = useBranchPath(sessionId);
  const { data: series, error } = useQuery({
    ...timelineQuery(sessionId, branchId),
    placeholderData: (d) => d,
  });
  const { data: overview } = useQuery(sessionOverviewQuery(sessionId));
  const dialect = getDialectInfo(overview?.format);
  // The bars are the lines the selected strategy gives for its knobs (threshold-bars.ts), whatever
  // the strategy; a dialect with no strategy of its own gets none.
  const strategyId = useReplayStore((s) => s.strategyId);
  const strategyKnobs = useEffectiveKnobs(sessionId, strategyId);
  const userWindow = useKnobOverrides(sessionId, strategyId)[CONTEXT_WINDOW_KEY];
  const logWindow = overview?.window.windowTokens;
  // A custom strategy's lines come with its runs (its code runs in its sandbox only).
  const customVersion = useCustomStrategies((s) => s.version);
  // A log that switches models, replayed by a strategy that checks each call against its model's
  // window (Cline, pi): the window of each stretch of calls, from the shown replay of this strategy.
  const replay = useShownReplayResult();
  const spans = useMemo(() => {
    if (!series || replay?.strategyId !== strategyId) return undefined;
    const xByCall = new Map<number, number>();
    series.callIndex.forEach((call, x) => {
      xByCall.set(call, x);
    });
    return getWindowSpans(replay.callWindows, (k) => xByCall.get(replay.callIndex[k]!));
  }, [series, replay, strategyId]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `customVersion`: a custom strategy's run brought new lines.
  const thresholds = useMemo(() => {
    if (!strategyKnobs) return undefined;
    const descriptor = getPageStrategyDescriptor(strategyId);
    const bars = getThresholdBars(descriptor.thresholds(strategyKnobs));
    // The frame is the model's window, as the log shows it; a strategy's own window (Codex's 95%
    // of it) does not move it, the user's Window knob does (issue 24 item 4).
    const windowTokens = typeof userWindow === 'number' ? userWindow : (logWindow ?? bars.windowTokens);
    if (spans)
      return {
        bars: getSpanBars(
          spans,
          (w) => descriptor.thresholds({ ...strategyKnobs, [CONTEXT_WINDOW_KEY]: w }),
          windowTokens,
        ),
        windowTokens,
      };
    return { ...bars, windowTokens };
  }, [strategyId, strategyKnobs, userWindow, logWindow, customVersion, spans]);
  const unmodelled = dialect !== undefined && dialect.defaultStrategyId === undefined ? dialect : undefined;
  const heightPx = useLayoutStore((s) => s.chartHeightPx);
  return (
    <section className="timeline-section">
      {unmodelled ? (
        <div className="knobs-bar muted" data-testid="thresholds-hidden">
          No compaction thresholds are modelled for {unmodelled.agent ?? unmodelled.label} yet: the bars are
          hidden.
        </div>
      ) : (
        <KnobsBar sessionId={sessionId} thresholds={thresholds} />
      )}
      <TimelineNotes sessionId={sessionId} />
      {error ? (
        <div className="panel-message error">Timeline failed: {error.message}</div>
      ) : series ? (
        <TimelineChart
          sessionId={sessionId}
          series={series}
          thresholds={unmodelled ? undefined : thresholds}
          heightPx={heightPx}
          format={dialect?.label}
        />
      ) : (
        <div className="timeline placeholder" style={{ height: heightPx }} />
      )}
    </section>
  );
}
