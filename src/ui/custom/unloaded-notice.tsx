import { useLearnStore } from '../learn/learn-store';
import { useReplayStore } from '../replay/replay-store';

// What the page says when a link names a strategy it does not hold: a custom strategy's code is
// in no link (docs/custom-strategies.md, "Where it runs"), and a reload forgets the strategies
// that were run. It names the strategy, says what is shown instead, and opens the editor, where a
// strategy saved in this browser or imported as a .ts file runs when the user presses Run.

export function UnloadedStrategyNotice({
  strategyId,
  shownLabel,
  onDismiss,
}: {
  strategyId: string;
  shownLabel: string;
  onDismiss: () => void;
}) {
  const openEditor = () => {
    useLearnStore.getState().close();
    const replay = useReplayStore.getState();
    replay.setEnabled(true);
    replay.setCustomOpen(true);
  };
  return (
    <div className="link-notice" role="status" data-testid="unloaded-strategy">
      <span>
        This link names the custom strategy <strong>{strategyId}</strong>, which is not loaded in this page: a
        link never carries a strategy’s code, and a reload forgets the strategies that were run. Showing{' '}
        {shownLabel}, the log’s own, instead. To see {strategyId}, open its .ts file (or the copy saved in
        this browser) in the Custom strategy editor and press Run.
      </span>{' '}
      <button type="button" className="btn small" data-testid="unloaded-open-editor" onClick={openEditor}>
        Open the editor
      </button>
      <button type="button" className="btn link" onClick={onDismiss} aria-label="Dismiss">
        ×
      </button>
    </div>
  );
}
