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
import { getThresholdBars } from './threshold-bars';
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
  // biome-ignore lint/correctness/useExhaustiveDependencies: `customVersion`: a custom strategy's run brought new lines.
  const thresholds = useMemo(() => {
    if (!strategyKnobs) return undefined;
    const bars = getThresholdBars(getPageStrategyDescriptor(strategyId).thresholds(strategyKnobs));
    // The frame is the model's window, as the log shows it; a strategy's own window (Codex's 95%
    // of it) does not move it, the user's Window knob does (issue 24 item 4).
    const windowTokens = typeof userWindow === 'number' ? userWindow : (logWindow ?? bars.windowTokens);
    return { ...bars, windowTokens };
  }, [strategyId, strategyKnobs, userWindow, logWindow, customVersion]);
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
