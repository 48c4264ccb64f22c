import type { TimelineSeries } from '../../worker/protocol';
import { formatClock, formatCount, formatDelta } from '../common/format';
import { xToPx, yToPx } from './geometry';
import { ReplayPointLine } from '../replay/replay-overlay';
import { formatOrdinalTitle } from '../../engine/query/numbering';
import { getFirstTrigger, type ThresholdBar, type ThresholdBars } from './threshold-bars';

import type { ChartGeometry as Geometry } from './geometry';

// The chart's tooltip: the hovered call's context, its change and whether it is over the first trigger.

/** The hovered call's figures, beside it. */
export function CallTooltip({
  series,
  x,
  geometry,
  heightPx,
  thresholds,
}: {
  series: TimelineSeries;
  x: number;
  geometry: Geometry;
  heightPx: number;
  thresholds?: ThresholdBars;
}) {
  const hoverX = x;
  const hover = describeCall(series, x, getFirstTrigger(thresholds?.bars ?? [], x));
  return (
    <div
      className="timeline-tooltip mono"
      data-testid="timeline-tooltip"
      style={{
        left: Math.min(xToPx(geometry, hoverX) + 10, geometry.widthPx - 210),
        top: Math.max(4, Math.min(heightPx - 80, yToPx(geometry, series.contextTokens[hoverX]!) - 60)),
      }}
    >
      {hover}
      <ReplayPointLine series={series} x={hoverX} />
    </div>
  );
}

function describeCall(series: TimelineSeries, x: number, trigger: ThresholdBar | undefined) {
  const tokens = series.contextTokens[x]!;
  const previous = x > 0 ? series.contextTokens[x - 1] : undefined;
  const time = formatClock(series.timestampMs[x]);
  return (
    <>
      <div>
        {formatOrdinalTitle('api-call', series.callIndex[x] ?? x)}{' '}
        {time && <span className="muted">{time}</span>}
      </div>
      <div>
        context <b>{series.estimated[x] ? `~${formatCount(tokens)}` : formatCount(tokens)}</b> tok
        {series.estimated[x] === 1 && <span className="muted"> (estimated: no usage)</span>}
      </div>
      <div className="muted">
        Δ {formatDelta(previous === undefined ? undefined : tokens - previous)} · out{' '}
        {formatCount(series.outputTokens[x])}
      </div>
      {trigger && tokens >= trigger.tokens && <div className="over">over {trigger.label}</div>}
    </>
  );
}
