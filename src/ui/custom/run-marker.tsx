import { useState } from 'react';

// A Run of a custom strategy that never finished. A Web Worker's memory cannot be capped, and in
// Chromium a worker that exhausts its heap takes the whole tab down (measured: a strategy keeping
// an 8 MB array a turn crashed the page's renderer after ~10 s, before the sandbox's 20 s time
// limit): nothing in the page survives to say so. So a Run marks itself in localStorage (the
// strategy's file name only, never its code) and clears the mark when it ends; a page that opens
// with the mark still there says that the last Run did not finish, and why that may be. Nothing
// runs again by itself: the strategy is in the editor until the user presses Run.

const KEY = 'compactlab.customRun';

/** Marks a Run as started (its file name). */
export function markCustomRunStarted(fileName: string): void {
  try {
    localStorage.setItem(KEY, JSON.stringify({ fileName, startedAtMs: Date.now() }));
  } catch {
    // Storage denied: the mark is a courtesy, the run goes on.
  }
}

export function markCustomRunEnded(): void {
  try {
    localStorage.removeItem(KEY);
  } catch {}
}

/** The file name of a Run that did not end, read once when the page opens (and cleared). */
function takeUnfinishedRun(): string | undefined {
  try {
    const raw = localStorage.getItem(KEY);
    if (raw === null) return undefined;
    localStorage.removeItem(KEY);
    const { fileName } = JSON.parse(raw) as { fileName?: unknown };
    return typeof fileName === 'string' ? fileName.slice(0, 200) : 'a custom strategy';
  } catch {
    return undefined;
  }
}

const unfinished = typeof window === 'undefined' ? undefined : takeUnfinishedRun();

/** Says, until dismissed, that the last Run of a custom strategy did not finish. */
export function UnfinishedRunNotice() {
  const [fileName, setFileName] = useState(unfinished);
  if (fileName === undefined) return null;
  return (
    <div className="link-notice" role="alert" data-testid="custom-run-unfinished">
      The last Run of the custom strategy {fileName} did not finish: the page was closed or crashed while it
      ran. A strategy that allocates without end takes the whole tab down (a browser worker's memory cannot be
      limited, and the 20 s time limit comes too late for it). It was not run again: it is in the Custom
      strategy editor, saved as it was.
      <button type="button" className="btn link" onClick={() => setFileName(undefined)} aria-label="Dismiss">
        ×
      </button>
    </div>
  );
}
