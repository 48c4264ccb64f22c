import { useEffect, useLayoutEffect, useRef, useState } from 'react';

/**
 * A one-line strip that scrolls sideways (the side panel's tabs, the replay's event chips): which
 * of its ends hide more items, so a ‹ or › can say so and scroll there, and the active item
 * scrolled into view whenever it changes, a focused item whenever it takes the focus. `contentKey` changes when the items do (a new replay's
 * chips change the strip's scroll width without resizing it).
 */
export function useScrollStrip(activeKey?: string, contentKey?: string | number) {
  const ref = useRef<HTMLDivElement>(null);
  const [edges, setEdges] = useState({ before: false, after: false });
  // biome-ignore lint/correctness/useExhaustiveDependencies: contentKey is what re-measures it.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () =>
      setEdges({
        before: el.scrollLeft > 1,
        after: el.scrollLeft + el.clientWidth < el.scrollWidth - 1,
      });
    measure();
    // A focused item is shown whole: the browser's own focus scroll leaves one alone when part of
    // it shows (the side panel's last tab at 1280 px sat half under the ›).
    const reveal = (e: FocusEvent) => {
      const item = (e.target as Element).closest('[data-strip-key]');
      if (item && el.contains(item)) item.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    };
    el.addEventListener('focusin', reveal);
    el.addEventListener('scroll', measure, { passive: true });
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => {
      el.removeEventListener('focusin', reveal);
      el.removeEventListener('scroll', measure);
      observer.disconnect();
    };
  }, [contentKey]);
  useEffect(() => {
    if (activeKey === undefined) return;
    const active = ref.current?.querySelector<HTMLElement>(`[data-strip-key="${activeKey}"]`);
    active?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [activeKey]);
  return {
    ref,
    before: edges.before,
    after: edges.after,
    overflow: edges.before || edges.after ? 'true' : 'false',
    scrollBy: (direction: 1 | -1) => {
      const el = ref.current;
      if (el) el.scrollBy({ left: direction * Math.max(60, el.clientWidth * 0.6) });
    },
  };
}
