import { formatBytes } from '../common/format';
import type { LoadState } from '../store';

/** Fraction of bytes read, or undefined before the first progress report. */
export function getLoadFraction(load: LoadState): number | undefined {
  const { progress } = load;
  return progress && progress.totalBytes > 0
    ? Math.min(1, progress.bytesRead / progress.totalBytes)
    : undefined;
}

export function ProgressBar({ fraction }: { fraction: number | undefined }) {
  return (
    <span
      className={`progress-bar ${fraction === undefined ? 'indeterminate' : ''}`}
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={fraction === undefined ? undefined : Math.round(fraction * 100)}
    >
      <span className="progress-fill" style={{ width: `${((fraction ?? 0.3) * 100).toFixed(1)}%` }} />
    </span>
  );
}

/** A run's progress in steps (Sweep's values, Compare's strategies): its bar and "done/total". */
export function StepProgress({
  progress,
  testId,
  label,
}: {
  progress: { done: number; total: number } | undefined;
  testId: string;
  /** What is running now, after the count. */
  label?: string;
}) {
  const fraction = progress && progress.total > 0 ? progress.done / progress.total : undefined;
  return (
    <span
      className="sweep-progress"
      data-testid={testId}
      data-done={progress?.done ?? 0}
      data-total={progress?.total ?? 0}
    >
      <ProgressBar fraction={fraction} />
      <span className="mono small muted">
        {progress ? `${progress.done}/${progress.total}` : '…'}
        {label ? ` ${label}` : ''}
      </span>
    </span>
  );
}

export function LoadProgress({ load, onCancel }: { load: LoadState; onCancel: () => void }) {
  const { progress } = load;
  return (
    <div className="load-progress" data-testid="load-progress" data-phase={load.phase}>
      <span className="load-label">
        {load.cancelling ? 'Cancelling' : load.phase === 'fetching' ? 'Fetching' : 'Reading'} {load.label}
      </span>
      <ProgressBar fraction={getLoadFraction(load)} />
      <span className="load-bytes mono" data-testid="load-bytes">
        {progress ? `${formatBytes(progress.bytesRead)} / ${formatBytes(progress.totalBytes)}` : '…'}
      </span>
      <button
        type="button"
        className="btn danger"
        data-testid="cancel-load"
        disabled={load.cancelling}
        onClick={onCancel}
      >
        Cancel
      </button>
    </div>
  );
}
