import { useEffect, useRef } from 'react';
import { create } from 'zustand';
import { useEscapeLayer } from '../common/use-escape';
import { isTypingTarget, SHORTCUT_GROUPS } from './shortcuts';

// The `?` overlay: every shortcut of the page (shortcuts.ts), opened by `?` anywhere but in a
// field, or by the top bar's ? button; Escape, the Close button or a click outside closes it.

interface ShortcutsState {
  open: boolean;
  setOpen(open: boolean): void;
}

export const useShortcutsStore = create<ShortcutsState>()((set) => ({
  open: false,
  setOpen: (open) => set({ open }),
}));

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
  return <ShortcutsDialog />;
}

function ShortcutsDialog() {
  const setOpen = useShortcutsStore((s) => s.setOpen);
  const close = () => setOpen(false);
  useEscapeLayer(close);
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => closeRef.current?.focus(), []);
  return (
    <div
      className="shortcuts-backdrop"
      onClick={(e) => {
        if (e.target === e.currentTarget) close();
      }}
    >
      <div
        className="shortcuts-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="shortcuts-title"
        data-testid="shortcuts-overlay"
      >
        <div className="shortcuts-head">
          <h2 id="shortcuts-title">Keyboard shortcuts</h2>
          <button ref={closeRef} type="button" className="btn" data-testid="shortcuts-close" onClick={close}>
            Close
          </button>
        </div>
        <div className="shortcuts-groups">
          {SHORTCUT_GROUPS.map((g) => (
            <section key={g.where}>
              <h3>{g.where}</h3>
              <dl>
                {g.shortcuts.map((s) => (
                  <div key={s.what} className="shortcut-row" data-testid="shortcut-row">
                    <dt>
                      {s.keys.map((k, i) => (
                        <span key={k}>
                          {i > 0 && ' '}
                          <kbd>{k}</kbd>
                        </span>
                      ))}
                    </dt>
                    <dd>{s.what}</dd>
                  </div>
                ))}
              </dl>
            </section>
          ))}
        </div>
        <p className="muted small">Esc closes this list.</p>
      </div>
    </div>
  );
}
