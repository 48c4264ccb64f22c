import { type KeyboardEvent, useEffect, useState } from 'react';

/**
 * One Tab stop for a row of many buttons (WAI-ARIA's toolbar pattern): the current item has
 * tabIndex 0, the others -1; ← → (↑ ↓) move the focus along, Home and End to the ends. A dense
 * replay's 160 event chips, and a dense session's 72 marker boxes, were as many Tab stops between
 * the chart and the transcript. `preferred`
 * (the open item) becomes the current one whenever it changes.
 */
export function useRovingFocus(count: number, preferred?: number) {
  const [current, setCurrent] = useState(0);
  useEffect(() => {
    if (preferred !== undefined) setCurrent(preferred);
  }, [preferred]);
  const active = Math.max(0, Math.min(count - 1, current));
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    const step: Record<string, number> = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 };
    const by = step[e.key];
    const next =
      e.key === 'Home' ? 0 : e.key === 'End' ? count - 1 : by === undefined ? undefined : active + by;
    // Only on the items themselves: a marker cluster's open list under one has arrows of its own.
    if (!(e.target as HTMLElement).hasAttribute('data-roving-index')) return;
    if (next === undefined || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    const index = Math.max(0, Math.min(count - 1, next));
    setCurrent(index);
    e.currentTarget.querySelector<HTMLElement>(`[data-roving-index="${index}"]`)?.focus();
  };
  /** Spread on item `i` (a button). */
  const itemProps = (i: number) => ({
    tabIndex: i === active ? 0 : -1,
    'data-roving-index': i,
    onFocus: () => setCurrent(i),
  });
  return { onKeyDown, itemProps };
}
