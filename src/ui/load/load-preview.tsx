import { formatBytes, formatTokensShort } from '../common/format';
import { useUiStore } from '../store';
import { getLoadFraction, ProgressBar } from '../top-bar/load-progress';
import { cancelLoad, stopLoad } from './load-session';

const WIDTH = 1000;
const HEIGHT = 220;

/**
 * The timeline of what is read so far, drawn while the rest of the file streams in (issue 20
 * item 2): each main-thread call's context, from the parse's progress reports. Cancel stops the read
 * and keeps what was read. The session's own timeline replaces it once the read ends.
 */
export function LoadPreview() {
  const loading = useUiStore((s) => s.loading);
  const contexts = loading?.contexts ?? [];
  if (!loading || contexts.length === 0) return null;
  const peak = Math.max(1, ...contexts);
  const top = peak * 1.1;
  // Wide enough for the calls still to come: the read's fraction says how far along the file is.
  const fraction = getLoadFraction(loading) ?? 1;
  const span = Math.max(contexts.length, Math.ceil(contexts.length / Math.max(0.01, fraction)));
  const x = (i: number) => (span <= 1 ? 0 : (i / (span - 1)) * WIDTH);
  const y = (tokens: number) => HEIGHT - (tokens / top) * HEIGHT;
  // One point per pixel column at most: the line stays light on a million calls.
  const step = Math.max(1, Math.floor(contexts.length / WIDTH));
  let points = '';
  for (let i = 0; i < contexts.length; i += step)
    points += `${x(i).toFixed(1)},${y(contexts[i]!).toFixed(1)} `;
  const { progress } = loading;
  return (
    <main className="load-preview" data-testid="load-preview" aria-busy="true">
      <h1>
        Reading {loading.label}…{' '}
        <span className="muted">{contexts.length.toLocaleString('en-US')} API calls so far</span>
      </h1>
      <svg
        className="load-preview-chart"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={`Context of the ${contexts.length} calls read so far, peak ${formatTokensShort(peak)} tokens`}
        data-calls={contexts.length}
      >
        <line x1={0} x2={WIDTH} y1={y(peak)} y2={y(peak)} className="load-preview-peak" />
        <polyline points={points} className="load-preview-line" vectorEffect="non-scaling-stroke" />
      </svg>
      <p className="muted small">
        Peak so far {formatTokensShort(peak)} tokens. The timeline grows as the file is read. Stop here opens
        what is read, said to be partial; Cancel drops the load.
      </p>
      <div className="load-preview-bar">
        <ProgressBar fraction={getLoadFraction(loading)} />
        <span className="mono small">
          {progress ? `${formatBytes(progress.bytesRead)} of ${formatBytes(progress.totalBytes)}` : ''}
        </span>
        <button
          type="button"
          className="btn"
          data-testid="load-preview-stop"
          disabled={loading.cancelling}
          onClick={stopLoad}
        >
          {loading.cancelling ? 'Stopping…' : 'Stop here (keep what is read)'}
        </button>
        <button
          type="button"
          className="btn danger"
          data-testid="load-preview-cancel"
          disabled={loading.cancelling}
          onClick={cancelLoad}
        >
          Cancel
        </button>
      </div>
    </main>
  );
}
