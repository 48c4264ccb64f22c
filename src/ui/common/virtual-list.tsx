import { type KeyboardEvent, type ReactNode, useEffect, useLayoutEffect, useRef, useState } from 'react';

// A fixed-row-height virtual list: only the visible rows (plus a little overscan) are in the DOM,
// so 100,000 rows cost the same as 50.

interface VirtualListProps {
  count: number;
  rowHeightPx: number;
  renderRow: (index: number) => ReactNode;
  /** Visible row range [start, end) after every scroll or resize. */
  onRangeChange?: (start: number, end: number) => void;
  /** When this changes, the row at `scrollToIndex` is scrolled into view. */
  scrollRequest?: { index: number; nonce: number };
  /** When this changes, the row at `index` is scrolled to the top (the timeline's visible range). */
  alignTopRequest?: { index: number; nonce: number };
  onKeyDown?: (event: KeyboardEvent<HTMLDivElement>) => void;
  /** The list's horizontal scroll (a table whose header scrolls with it). */
  onScrollLeft?: (scrollLeftPx: number) => void;
  className?: string;
  testId?: string;
  /** Its name for a screen reader: required, a listbox without one was read as "listbox" (the Issues and Tokens tabs' lists). */
  ariaLabel: string;
  /** The id of the row the keyboard is on (`aria-activedescendant`: the list keeps the focus). */
  activeDescendant?: string;
}

const OVERSCAN_ROWS = 8;

export function VirtualList(props: VirtualListProps) {
  const { count, rowHeightPx, renderRow, onRangeChange, scrollRequest, alignTopRequest } = props;
  const ref = useRef<HTMLDivElement>(null);
  const [scrollTopPx, setScrollTopPx] = useState(0);
  const [heightPx, setHeightPx] = useState(600);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setHeightPx(el.clientHeight);
    const observer = new ResizeObserver(() => setHeightPx(el.clientHeight));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const el = ref.current;
    if (!el || !scrollRequest || scrollRequest.index < 0) return;
    const topPx = scrollRequest.index * rowHeightPx;
    if (topPx < el.scrollTop || topPx + rowHeightPx > el.scrollTop + el.clientHeight) {
      el.scrollTop = Math.max(0, topPx - el.clientHeight / 3);
    }
  }, [scrollRequest, rowHeightPx]);

  useEffect(() => {
    const el = ref.current;
    if (!el || !alignTopRequest || alignTopRequest.index < 0) return;
    el.scrollTop = alignTopRequest.index * rowHeightPx;
  }, [alignTopRequest, rowHeightPx]);

  const first = Math.max(0, Math.floor(scrollTopPx / rowHeightPx) - OVERSCAN_ROWS);
  const last = Math.min(count, Math.ceil((scrollTopPx + heightPx) / rowHeightPx) + OVERSCAN_ROWS);
  const visibleStart = Math.min(count, Math.floor(scrollTopPx / rowHeightPx));
  const visibleEnd = Math.min(count, Math.ceil((scrollTopPx + heightPx) / rowHeightPx));

  useEffect(() => {
    onRangeChange?.(visibleStart, visibleEnd);
  }, [onRangeChange, visibleStart, visibleEnd]);

  const rows: ReactNode[] = [];
  for (let i = first; i < last; i++) {
    rows.push(
      <div key={i} className="vl-row" style={{ top: i * rowHeightPx, height: rowHeightPx }}>
        {renderRow(i)}
      </div>,
    );
  }

  return (
    <div
      ref={ref}
      className={`vl ${props.className ?? ''}`}
      data-testid={props.testId}
      aria-label={props.ariaLabel}
      aria-activedescendant={props.activeDescendant}
      role="listbox"
      tabIndex={0}
      onKeyDown={props.onKeyDown}
      onScroll={(e) => {
        setScrollTopPx(e.currentTarget.scrollTop);
        props.onScrollLeft?.(e.currentTarget.scrollLeft);
      }}
    >
      <div className="vl-spacer" style={{ height: count * rowHeightPx }}>
        {rows}
      </div>
    </div>
  );
}
