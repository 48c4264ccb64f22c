import type { CSSProperties, ReactNode } from 'react';
import { formatCount } from '../common/format';
import { EVENT_COLORS, EVENT_GLYPHS } from '../replay/replay-overlay';
import { markerColor, markerGlyph } from './timeline-markers';

// The line under the chart: which calls are shown, how to zoom, a reset, and what each marker
// glyph means (log markers along the top lane, replay events along the bottom).

const ITEMS: { glyph: string; color: string; text: string; title: string }[] = [
  {
    glyph: markerGlyph({ kind: 'compact', trigger: 'auto' }),
    color: markerColor({ kind: 'compact', trigger: 'auto' }),
    text: 'auto',
    title: 'The log: an automatic compaction (context reached the auto-compact threshold)',
  },
  {
    glyph: markerGlyph({ kind: 'compact', trigger: 'manual' }),
    color: markerColor({ kind: 'compact', trigger: 'manual' }),
    text: 'manual',
    title: 'The log: a manual /compact',
  },
  {
    glyph: markerGlyph({ kind: 'microcompact', trigger: 'auto' }),
    color: markerColor({ kind: 'microcompact', trigger: 'auto' }),
    text: 'microcompact',
    title: 'The log: a microcompact that cleared old tool results',
  },
  {
    glyph: markerGlyph({ kind: 'truncate', trigger: 'auto' }),
    color: markerColor({ kind: 'truncate', trigger: 'auto' }),
    text: 'truncation',
    title: "The log: a truncation (Cline's context manager dropped a range of messages, no summary)",
  },
  {
    glyph: EVENT_GLYPHS.compact,
    color: EVENT_COLORS.compact,
    text: 'replay compaction',
    title: 'The replay: a compaction it simulated (bottom lane)',
  },
  {
    glyph: EVENT_GLYPHS.microcompact,
    color: EVENT_COLORS.microcompact,
    text: 'replay clearing',
    title: 'The replay: a simulated microcompact (bottom lane)',
  },
  {
    glyph: EVENT_GLYPHS.reset,
    color: EVENT_COLORS.reset,
    text: 'reset',
    title: "The replay continues from the log's manual compaction here",
  },
  {
    glyph: EVENT_GLYPHS.blocked,
    color: EVENT_COLORS.blocked,
    text: 'blocked',
    title: 'The replay reaches the blocking limit here',
  },
  {
    glyph: EVENT_GLYPHS['compact-failed'],
    color: EVENT_COLORS['compact-failed'],
    text: 'compaction failed',
    title: 'A compaction was due and failed here (its request over the window): the history stays',
  },
];

const TIMELINE_HINT = 'wheel zoom · drag pan · shift-drag select · keys + − ← → 0';
export function TimelineLegend(props: {
  count: number;
  from: number;
  to: number;
  zoomed: boolean;
  onReset: () => void;
  /** The overview strip, drawn first. */
  overview?: ReactNode;
  /** Shown in place of the hint once zoomed: the range's totals. */
  totals?: ReactNode;
  /** The log has truncations: their T is named (only then: the line fits 1280 px without it). */
  truncations?: boolean;
  /** The log has failed requests: their boxed × along the plot's bottom is named (only then). */
  failedRequests?: boolean;
  /** Whether the height fits the context (undefined: not offered, the context fills the frame). */
  fitHeight?: boolean;
  onFitHeight?: (fit: boolean) => void;
}) {
  const first = Math.min(props.count, Math.max(1, Math.ceil(props.from + 0.5)));
  const last = Math.min(props.count, Math.max(first, Math.floor(props.to + 0.5)));
  return (
    <div className="timeline-legend small" data-testid="timeline-legend">
      {props.overview}
      <span className="mono" data-testid="timeline-range">
        {props.zoomed
          ? `calls ${formatCount(first)}–${formatCount(last)} of ${formatCount(props.count)}`
          : `all ${formatCount(props.count)} calls`}
      </span>
      <button
        type="button"
        className="btn link small"
        data-testid="timeline-reset-zoom"
        disabled={!props.zoomed}
        onClick={props.onReset}
      >
        reset zoom
      </button>
      {props.fitHeight !== undefined && (
        <button
          type="button"
          className="btn link small"
          data-testid="timeline-fit-height"
          aria-pressed={props.fitHeight}
          title={
            props.fitHeight
              ? 'The height is the context’s: the window and the lines above it are named in the readout. Show them.'
              : 'The context stays under half the window: fit the height to it'
          }
          onClick={() => props.onFitHeight?.(!props.fitHeight)}
        >
          {props.fitHeight ? 'show the window' : 'fit height'}
        </button>
      )}
      {props.zoomed && props.totals ? (
        props.totals
      ) : (
        // Cut to "wheel …" where the legend is full (a dense session at 1280 px with its fit-height
        // button): the whole hint on hover, and in the ? list.
        <span className="muted timeline-hint" data-testid="timeline-hint" title={TIMELINE_HINT}>
          {TIMELINE_HINT}
        </span>
      )}
      <span className="legend-items" data-testid="timeline-legend-items">
        {ITEMS.filter((item) => props.truncations || item.text !== 'truncation').map((item) => (
          <span key={item.text} className="legend-item" title={item.title}>
            <b className="ink" style={{ '--c': item.color } as CSSProperties}>
              {item.glyph}
            </b>{' '}
            {item.text}
          </span>
        ))}
        {props.failedRequests && (
          <span
            className="legend-item"
            data-testid="legend-failed-request"
            title="The log: a request that failed (no answer, no usage), between the calls it fell between; not an API call"
          >
            <b className="legend-failed">×</b> failed request
          </span>
        )}
        <span className="legend-item" title="Markers that would overlap: click for the list">
          <b className="legend-cluster">3</b> grouped
        </span>
      </span>
    </div>
  );
}
