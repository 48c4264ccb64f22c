import { useEffect, useRef } from 'react';
import { useEscapeLayer } from '../common/use-escape';
import { SHORTCUT_GROUPS } from './shortcuts';
import { useShortcutsStore } from './shortcuts-store';

// The `?` overlay's dialog (shown by shortcuts-overlay.tsx): every shortcut of
// shortcuts.ts by where it works; Escape, Close or a click outside closes it.

export function ShortcutsDialog() {
  const setOpen = useShortcutsStore((s) => s.setOpen);
  const close = () => setOpen(false);
  useEscapeLayer(close);
  const closeRef = useRef<HTMLButtonElement>(null);
  const ref = useRef<HTMLDialogElement>(null);
  // A modal <dialog>: the page under it is inert, so Tab stays in the list (a div marked
  // aria-modal let Tab walk on into the page behind the backdrop).
  useEffect(() => {
    ref.current?.showModal();
    closeRef.current?.focus();
  }, []);
  return (
    <dialog
      ref={ref}
      className="shortcuts-dialog"
      aria-labelledby="shortcuts-title"
      data-testid="shortcuts-overlay"
      onClose={close}
      onCancel={(e) => {
        // Escape goes through the stack (use-escape.ts), as the paste dialog's does.
        e.preventDefault();
      }}
      onClick={(e) => {
        // A click on the backdrop lands on the dialog itself; its content fills the box.
        if (e.target === e.currentTarget) close();
      }}
    >
      <div className="shortcuts-body">
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
    </dialog>
  );
}
