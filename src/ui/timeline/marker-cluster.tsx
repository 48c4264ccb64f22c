import { type CSSProperties, useEffect, useRef, useState } from 'react';
import { useEscapeLayer } from '../common/use-escape';

// One box standing for several markers that would overlap: its glyph (when all members share
// one) and their count; clicking it lists the members, each opening its own card. The list is an
// Escape layer: Escape closes it from the box or from a member, and the focus goes back to the box
// (a member chosen from the keyboard left it on <body>, and Escape inside the list did nothing).

interface ClusterItem {
  key: string;
  glyph: string;
  color: string;
  title: string;
  onOpen: () => void;
}

/**
 * Ours: a member's line ('after call 225: Compaction (auto) · 170,115 → 52,490 tokens') fits on one
 * line at 11 px; a longer one (a replay event's) wraps, never cut: at 300 px the list cut the
 * tokens after (175,199 → 16…), the figure a user opens the list for.
 */
const LIST_WIDTH_PX = 380;

export function MarkerClusterButton(props: {
  items: ClusterItem[];
  leftPx: number;
  topPx: number;
  /** Where the member list opens (CSS px from the chart's top) and how tall it may grow. */
  listTopPx: number;
  listMaxHeightPx: number;
  chartWidthPx: number;
  className: string;
  testId: string;
  onZoom: () => void;
  /** Its place in the lane's one Tab stop (use-roving-focus.ts). */
  roving?: { tabIndex: number; 'data-roving-index': number; onFocus: () => void };
}) {
  const { items } = props;
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (e: PointerEvent) => {
      if (!ref.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', close);
    return () => document.removeEventListener('pointerdown', close);
  }, [open]);
  useEscapeLayer(() => setOpen(false), open);
  const glyphs = new Set(items.map((i) => i.glyph));
  const glyph = glyphs.size === 1 ? items[0]!.glyph : '';
  const colors = new Set(items.map((i) => i.color));
  const color = colors.size === 1 ? items[0]!.color : 'var(--text)';
  const label = `${items.length} markers: ${items.map((i) => i.title).join('; ')}`;
  const listWidthPx = Math.min(LIST_WIDTH_PX, props.chartWidthPx);
  return (
    <div ref={ref} onPointerDown={(e) => e.stopPropagation()} onMouseMove={(e) => e.stopPropagation()}>
      <button
        type="button"
        className={`${props.className} cluster`}
        data-testid={props.testId}
        data-count={items.length}
        aria-label={label}
        aria-expanded={open}
        title={`${items.length} markers here: click to list them`}
        style={{ left: props.leftPx, top: props.topPx, '--mc': color } as CSSProperties}
        onClick={() => setOpen(!open)}
        {...props.roving}
      >
        {glyph}
        <span className="cluster-count">{items.length}</span>
      </button>
      {open && (
        <div
          className="marker-cluster-list"
          data-testid="marker-cluster-list"
          style={{
            left: Math.max(0, Math.min(props.chartWidthPx - listWidthPx, props.leftPx - listWidthPx / 2)),
            top: props.listTopPx,
            width: listWidthPx,
            maxHeight: props.listMaxHeightPx,
          }}
        >
          <button
            type="button"
            className="btn link small"
            data-testid="marker-cluster-zoom"
            onClick={() => {
              // The box goes away once its members spread: the chart, whose keys zoom and pan on,
              // takes the focus rather than <body>.
              const chart = ref.current?.closest<HTMLElement>('[data-testid="timeline"]');
              setOpen(false);
              props.onZoom();
              chart?.focus({ preventScroll: true });
            }}
          >
            zoom to these {items.length}
          </button>
          <ul>
            {items.map((item) => (
              <li key={item.key}>
                <button
                  type="button"
                  className="cluster-item"
                  onClick={() => {
                    setOpen(false);
                    item.onOpen();
                  }}
                >
                  <b className="ink" style={{ '--c': item.color } as CSSProperties}>
                    {item.glyph}
                  </b>{' '}
                  {item.title}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
