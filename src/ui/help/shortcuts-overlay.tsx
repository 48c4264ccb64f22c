import { lazy, Suspense, useEffect } from 'react';
import { useShortcutsStore } from './shortcuts-store';

// The `?` overlay: every shortcut of the page (shortcuts.ts), opened by `?` anywhere but in a
// field, or by the top bar's ? button; Escape, the Close button or a click outside closes it.

/** Whether a key event is typing in a field (where `?` is a character, not a shortcut). */
function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement ||
    (target instanceof HTMLInputElement && !['button', 'checkbox', 'radio'].includes(target.type))
  );
}

/** Listens for `?` on the page; mounted once (app.tsx). */
export function useShortcutsKey(): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== '?' || event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented)
        return;
      if (isTypingTarget(event.target)) return;
      event.preventDefault();
      useShortcutsStore.getState().setOpen(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

export function ShortcutsButton() {
  const setOpen = useShortcutsStore((s) => s.setOpen);
  return (
    <button
      type="button"
      className="btn"
      data-testid="shortcuts-button"
      aria-label="Keyboard shortcuts (?)"
      title="Keyboard shortcuts (?)"
      onClick={() => setOpen(true)}
    >
      ?
    </button>
  );
}

export function ShortcutsOverlay() {
  const open = useShortcutsStore((s) => s.open);
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <ShortcutsDialog />
    </Suspense>
  );
}

/** The list, loaded the first time it opens: not part of the page's first load. */
const ShortcutsDialog = lazy(() =>
  import('./shortcuts-dialog').then((m) => ({ default: m.ShortcutsDialog })),
);
