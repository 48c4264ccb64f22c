/**
 * The ‹ or › at an end of a sideways-scrolling strip (use-scroll-strip.ts) that hides items: it
 * says more follow and scrolls there. Where the items are reached by Tab themselves (the replay's
 * event chips) the arrow is for the pointer only (`pointerOnly`).
 */
export function StripArrow({
  side,
  label,
  testId,
  pointerOnly = false,
  onScroll,
}: {
  side: 'before' | 'after';
  label: string;
  testId: string;
  pointerOnly?: boolean;
  onScroll: (direction: -1 | 1) => void;
}) {
  return (
    <button
      type="button"
      className={`tabs-scroll ${side}`}
      data-testid={testId}
      aria-label={label}
      title={label}
      tabIndex={pointerOnly ? -1 : undefined}
      onClick={() => onScroll(side === 'before' ? -1 : 1)}
    >
      {side === 'before' ? '‹' : '›'}
    </button>
  );
}
