import { useLayoutEffect, useRef } from 'react';

// One stack for everything that Escape closes (cards, popovers, the sweep panel, dialogs): a
// layer registers while it is open, Escape closes only the topmost, and focus goes back to the
// element that had it when the layer opened.

interface Layer {
  close(): void;
}

const layers: Layer[] = [];
let listening = false;

/**
 * Writing in a multi-line box (the prompt editor, a textarea) is not a request to close a card
 * elsewhere; a dialog's own box is. One-line fields (search, the sweep's range) let Escape through.
 */
function isWritingOutsideDialog(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  const writing = target.isContentEditable || target instanceof HTMLTextAreaElement;
  return writing && target.closest('dialog') === null;
}

function onKeyDown(event: KeyboardEvent): void {
  // A widget that handles Escape itself (Monaco's suggest box, an inline rename box) says so.
  if (event.key !== 'Escape' || event.defaultPrevented || event.isComposing) return;
  if (isWritingOutsideDialog(event.target)) return;
  const top = layers[layers.length - 1];
  if (!top) return;
  event.preventDefault();
  top.close();
}

/**
 * Registers an open layer: Escape calls `close` when it is the topmost one. When the layer goes
 * away, focus returns to where it was when the layer opened (if focus was left on nothing).
 */
export function useEscapeLayer(close: () => void, open = true): void {
  const closeRef = useRef(close);
  closeRef.current = close;
  // A layout effect: where the focus was is read in the commit that opens the layer, before a
  // frame later moves it into the layer (the replay drawer focuses a panel it opens); a passive
  // effect ran after that frame once, read the panel itself, and Escape left the focus on <body>.
  useLayoutEffect(() => {
    if (!open) return;
    if (!listening) {
      window.addEventListener('keydown', onKeyDown);
      listening = true;
    }
    const returnTo = document.activeElement instanceof HTMLElement ? document.activeElement : undefined;
    const layer: Layer = { close: () => closeRef.current() };
    layers.push(layer);
    return () => {
      const at = layers.indexOf(layer);
      if (at >= 0) layers.splice(at, 1);
      // After the layer's DOM is gone, focus falls to <body>; put it back where the user was.
      queueMicrotask(() => {
        const lost = !document.activeElement || document.activeElement === document.body;
        if (lost && returnTo?.isConnected) returnTo.focus({ preventScroll: true });
      });
    };
  }, [open]);
}
