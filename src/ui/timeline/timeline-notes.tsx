import { useQuery } from '@tanstack/react-query';
import type { WindowSource } from '../../engine/parse/context-window';
import type { SessionId } from '../../worker/protocol';
import { formatCount, formatTokensShort } from '../common/format';
import { markHiddenChars, VisibleText } from '../common/visible-text';
import { sessionOverviewQuery } from '../queries';
import { useReplayStore } from '../replay/replay-store';
import { getStrategyDescriptor } from '../../engine/strategies/descriptors';
import { CONTEXT_WINDOW_KEY, useKnobOverrides, useShownKnobs } from '../replay/use-knobs';
import { BranchPicker } from './branch-picker';
import { ESTIMATED_COLOR } from './draw-estimated';

// What the chart's figures rest on, next to the threshold bars: the window inferred from the log
// (and why; the Window knob overrides it), the calls whose context is an estimate (legend), and
// the branches of the uuid tree.

const SOURCE_LABELS: Record<WindowSource, string> = {
  stated: 'stated by the log',
  'model-id': 'from the model id',
  observed: 'from the observed context',
  default: 'the default window',
  // The page said nothing of a 200k that no fact about the model backs (a real OpenClaw session
  // on ollama/minimax-m2.7:cloud): the Claude default is shown as the guess it is.
  assumed: 'assumed: no window known for the model',
};

export function TimelineNotes({ sessionId }: { sessionId: SessionId }) {
  const overview = useQuery(sessionOverviewQuery(sessionId)).data;
  const strategyId = useReplayStore((s) => s.strategyId);
  const shown = useShownKnobs(sessionId, strategyId)[CONTEXT_WINDOW_KEY];
  const userWindow = useKnobOverrides(sessionId, strategyId)[CONTEXT_WINDOW_KEY];
  // The selected strategy's window knob, when it has one (else the log's window stands).
  const knobWindow = typeof shown === 'number' ? shown : undefined;
  if (!overview) return null;
  const { window, usage, branches } = overview;
  // Overridden only when the user set the window (issue 24 item 4): a strategy that works within
  // less of the model's window by its own rule (Codex's 95%) says so, and the window stays.
  const overridden = typeof userWindow === 'number' && userWindow !== window.windowTokens;
  const ownRule = !overridden && knobWindow !== undefined && knobWindow !== window.windowTokens;
  // The default window needs no line of its own (its reason is the Window knob's
  // tooltip); an inferred, stated or overridden one does. No line at all keeps the transcript's rows.
  const showWindow = window.windowSource !== 'default' || overridden || ownRule;
  if (!showWindow && usage.zeroUsageCalls === 0 && !branches) return null;
  const reasons = markHiddenChars(window.reasons.join('\n'));
  return (
    <div className="timeline-notes">
      {showWindow && (
        <span
          className="window-note"
          data-testid="window-note"
          data-window={window.windowTokens}
          data-source={window.windowSource}
          title={reasons}
        >
          Window {formatTokensShort(window.windowTokens)}{' '}
          <span className="muted">({SOURCE_LABELS[window.windowSource]})</span>
          {overridden && <span className="muted"> · overridden: {formatTokensShort(userWindow)}</span>}
          {ownRule && (
            <span className="muted" data-testid="window-own-rule">
              {' '}
              · {getStrategyDescriptor(strategyId).label} works within {formatTokensShort(knobWindow ?? 0)} of
              it, by its own rule (Knobs)
            </span>
          )}
          <details className="window-why">
            <summary>why</summary>
            <div className="window-why-text small">
              <VisibleText text={window.reasons.join(' ')} />
            </div>
          </details>
        </span>
      )}
      {usage.zeroUsageCalls > 0 && (
        <span className="estimated-legend" data-testid="estimated-legend">
          <svg width="26" height="10" aria-hidden="true">
            <line x1="1" y1="5" x2="19" y2="5" stroke={ESTIMATED_COLOR} strokeDasharray="4 3" />
            <circle cx="21" cy="5" r="3" fill="none" stroke={ESTIMATED_COLOR} />
          </svg>
          estimated context: {formatCount(usage.zeroUsageCalls)} of {formatCount(usage.mainCalls)} calls
          recorded no usage
          {!usage.baseMeasured && ' (messages only: system prompt and tools not counted)'}
        </span>
      )}
      {branches && <BranchPicker sessionId={sessionId} forks={branches.forks} branches={branches.branches} />}
    </div>
  );
}
