// Focus kept on the page when what holds it goes away. A control that removes its own part of the
// page (a notice's ×) left the focus on <body>: the focus ring gone, and a screen reader back at
// the page's start. The focus moves on to what Tab would reach next instead.

const FOCUSABLE = 'a[href], button, input, select, textarea, summary, [tabindex]';

/** Whether Tab stops at an element: focusable, not disabled, not inert, laid out. */
function isTabbable(el: HTMLElement): boolean {
  if (el.tabIndex < 0) return false;
  if ((el as HTMLButtonElement).disabled) return false;
  if (el.closest('[inert]')) return false;
  return el.getClientRects().length > 0;
}

/**
 * Focuses the first Tab stop after `part` that is not inside it (the first before it where none
 * follows); `part` is about to leave the page.
 */
export function focusNextOutside(part: Element): void {
  const all = [...document.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (el) => !part.contains(el) && isTabbable(el),
  );
  const next =
    all.find((el) => part.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) ?? all.at(-1);
  next?.focus();
}
