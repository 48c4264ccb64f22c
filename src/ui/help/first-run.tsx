import { useRef, useState } from 'react';
import { focusNextOutside } from '../common/focus-next';
import { formatList, getReadAgents } from '../common/agents';
import { useUiStore } from '../store';
import { useShortcutsStore } from './shortcuts-store';

// The sample's first-run line: what the page shows and what to try, naming every agent whose logs
// the page reads (the dialect registry's list). Dismissed once, it stays dismissed (localStorage).

const DISMISSED_KEY = 'compactlab.firstRunDismissed';
/** How the label load-session gives the bundled sample starts (app.tsx, top-bar.tsx). */
const SAMPLE_LABEL = 'the bundled sample';

function readDismissed(): boolean {
  try {
    return localStorage.getItem(DISMISSED_KEY) === '1';
  } catch {
    return false;
  }
}

export function FirstRunLine() {
  const label = useUiStore((s) => s.currentLabel);
  const [dismissed, setDismissed] = useState(readDismissed);
  const openShortcuts = useShortcutsStore((s) => s.setOpen);
  const ref = useRef<HTMLDivElement>(null);
  if (!label?.startsWith(SAMPLE_LABEL) || dismissed) return null;
  const dismiss = () => {
    // The focus moves on rather than falling to <body> with the line (common/focus-next.ts).
    if (ref.current?.contains(document.activeElement)) focusNextOutside(ref.current);
    setDismissed(true);
    try {
      localStorage.setItem(DISMISSED_KEY, '1');
    } catch {
      // Storage denied: dismissed for this page only.
    }
  };
  return (
    <div className="first-run" role="note" data-testid="first-run" ref={ref}>
      <span>
        <b>A generated sample</b>: context per call, compactions, a replay. Try a flag, shift-drag a range,{' '}
        <button type="button" className="btn link" onClick={() => openShortcuts(true)}>
          press ?
        </button>
        , or drop a log of <span data-testid="first-run-agents">{formatList(getReadAgents(), 'or')}</span>.
      </span>
      <button
        type="button"
        className="btn link"
        data-testid="first-run-dismiss"
        onClick={dismiss}
        aria-label="Dismiss"
      >
        ×
      </button>
    </div>
  );
}
