import { useQueryClient } from '@tanstack/react-query';
import type { SessionFile } from '../engine/types';
import { markHiddenChars, VisibleText } from './common/visible-text';
import { getLoadedFiles, loadSession } from './load/load-session';
import { useUiStore } from './store';

// The sessions of files opened with the one shown but left out as other sessions' (engine
// parse/other-sessions.ts): each opened alone from here, with the files that state its session
// (its subagent logs), from the blobs the load kept.

/** The left-out files by the session they state, each session under its first file's name. */
function groupBySession(files: readonly SessionFile[]): { name: string; sessionId: string }[] {
  const seen = new Map<string, string>();
  for (const f of files)
    if (f.sessionId !== undefined && !seen.has(f.sessionId)) seen.set(f.sessionId, f.name);
  return [...seen].map(([sessionId, name]) => ({ sessionId, name }));
}

export function OtherSessions({ files }: { files: readonly SessionFile[] }) {
  const queryClient = useQueryClient();
  const shownId = useUiStore((s) => s.currentSessionId);
  const sessions = groupBySession(files);
  const open = (sessionId: string, name: string) => {
    const loaded = shownId === undefined ? undefined : getLoadedFiles(shownId);
    if (!loaded) return;
    const names = new Set(files.filter((f) => f.sessionId === sessionId).map((f) => f.name));
    const picked = loaded.filter((f) => names.has(f.name));
    void loadSession(queryClient, name, async () => picked, { show: true });
  };
  return (
    <details
      className="other-sessions"
      data-testid="other-sessions-open"
      // Escape closes the list, focus back on its summary (a list over the view, not a panel).
      onKeyDown={(e) => {
        if (e.key !== 'Escape' || !e.currentTarget.open) return;
        e.currentTarget.open = false;
        e.currentTarget.querySelector('summary')?.focus();
        e.stopPropagation();
      }}
    >
      <summary>open one</summary>
      <ul className="other-sessions-list">
        {sessions.map((s) => (
          <li key={s.sessionId}>
            <button
              type="button"
              className="btn link mono"
              data-testid="other-session"
              title={markHiddenChars(`${s.name}\nsession ${s.sessionId}`)}
              onClick={() => open(s.sessionId, s.name)}
            >
              <VisibleText text={s.name.slice(s.name.lastIndexOf('/') + 1)} />
            </button>
          </li>
        ))}
      </ul>
    </details>
  );
}
