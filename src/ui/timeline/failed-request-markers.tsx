import type { TimelineSeries } from '../../worker/protocol';
import { useUiStore } from '../store';
import type { ChartGeometry } from './geometry';
import { xToPx } from './geometry';

// Failed requests (no answer, no usage: not API calls, issue 18 item 5) as a row of small marks
// along the bottom of the plot, between the calls they fell between; a click shows the request's
// row in the transcript. They have no context, so they are no point of the line.

/** Height of a mark (px); the row sits on the plot's bottom edge. */
const MARK_PX = 11;

function failedRequestTitle(f: TimelineSeries['failed'][number]): string {
  const reason = f.reason.replace(/_/g, ' ');
  const after = f.x < 0 ? 'before the first API call' : `after API call ${Math.floor(f.x) + 1}`;
  return `Failed request (${reason}) ${after}: no answer, no usage — not an API call${f.detail ? ` · ${f.detail}` : ''}`;
}

export function FailedRequestMarkers({
  series,
  geometry,
}: {
  series: TimelineSeries;
  geometry: ChartGeometry;
}) {
  const selectEntry = useUiStore((s) => s.selectEntry);
  return (
    <>
      {series.failed.map((f) => {
        const px = xToPx(geometry, f.x);
        if (px < geometry.leftPx - 1 || px > geometry.rightPx + 1) return null;
        const title = failedRequestTitle(f);
        return (
          <button
            type="button"
            key={f.entryIndex}
            className="failed-request-marker"
            data-testid="failed-request-marker"
            data-reason={f.reason}
            title={title}
            aria-label={title}
            style={{ left: px, top: geometry.bottomPx - MARK_PX - 1 }}
            onMouseMove={(e) => e.stopPropagation()}
            onClick={() => selectEntry(f.entryIndex, true)}
          >
            ×
          </button>
        );
      })}
    </>
  );
}
