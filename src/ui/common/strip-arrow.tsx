/**
 * The ‹ or › at an end of a sideways-scrolling strip (use-scroll-strip.ts) that hides items: it
 * says more follow and scrolls there. Both strips' items are reached by Tab themselves (a focused
 * one scrolls into view), so the arrow is for the pointer only: as a Tab stop it held the focus
 * until a press scrolled the strip to its end, where it went away and the focus fell to <body>.
 */
export function StripArrow({
  side,
  label,
  testId,
  onScroll,
}: {
  side: 'before' | 'after';
  label: string;
  testId: string;
  onScroll: (direction: -1 | 1) => void;
}) {
  return (
    <button
      type="button"
      className={`tabs-scroll ${side}`}
      data-testid={testId}
      aria-label={label}
      title={label}
      tabIndex={-1}
      onClick={() => onScroll(side === 'before' ? -1 : 1)}
    >
      {side === 'before' ? '‹' : '›'}
    </button>
  );
}
