import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { formatBytes, formatCount } from '../common/format';
import { HighlightedText } from '../common/highlighted-text';
import { VisibleText } from '../common/visible-text';
import { ProgressBar } from '../top-bar/load-progress';
import { getProjectName } from './library-columns';
import type { LibrarySession } from './library-store';
import { cancelFind, type FindHit, openAtHit, runFind, useFindStore } from './find-run';
import './find-panel.css';

// The library's "Find in transcripts": a text searched in every listed session whose folder is
// open (find-run.ts), the sessions holding it listed with their count and first hit's excerpt
// (untrusted text, drawn as text with the match marked); a click opens the session at the hit.
// Loaded with import() when first opened.

export default function FindPanel({
  keys,
  sessions,
}: {
  keys: readonly string[];
  sessions: readonly LibrarySession[];
}) {
  const queryClient = useQueryClient();
  const state = useFindStore();
  const [text, setText] = useState(state.query);
  const running = state.status === 'running';
  const byKey = new Map(sessions.map((s) => [s.key, s]));
  // Hits of a folder taken out of the list since are not shown.
  const hits = state.hits.filter((h) => byKey.has(h.key));
  const start = () => {
    if (text.trim() !== '') void runFind(keys, text);
  };
  // Opened from its button, the panel gives the focus to its text: what was typed next went
  // nowhere, and Enter pressed the button again, closing the panel.
  const inputRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (document.activeElement?.getAttribute('data-testid') === 'library-find-toggle')
      inputRef.current?.focus();
  }, []);
  return (
    <section className="find-panel" aria-label="Find in transcripts" data-testid="library-find">
      <form
        className="find-bar"
        onSubmit={(e) => {
          e.preventDefault();
          start();
        }}
      >
        <input
          ref={inputRef}
          type="search"
          className="find-input"
          placeholder="Text in every listed session (plain, any case)"
          aria-label="Text to find in the listed sessions"
          data-testid="library-find-input"
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
        />
        <button
          type="submit"
          className="btn"
          disabled={text.trim() === '' || keys.length === 0}
          data-testid="library-find-run"
        >
          Find in {formatCount(keys.length)} {keys.length === 1 ? 'session' : 'sessions'}
        </button>
        {running && (
          <>
            <ProgressBar fraction={state.totalBytes > 0 ? state.bytesRead / state.totalBytes : 0} />
            <span className="muted" data-testid="library-find-progress">
              {state.done} of {state.total} · {formatBytes(state.bytesRead)} of{' '}
              {formatBytes(state.totalBytes)}
            </span>
            <button type="button" className="btn" onClick={cancelFind} data-testid="library-find-cancel">
              Cancel
            </button>
          </>
        )}
        {keys.length === 0 && sessions.length > 0 && (
          // The listing restored after a reload: its files are not open, nothing can be read.
          <span className="muted" data-testid="library-find-closed">
            Reopen the folder to search its sessions.
          </span>
        )}
        {state.status !== 'idle' && !running && (
          <span className="muted" data-testid="library-find-summary">
            {state.status === 'failed'
              ? `Search failed: ${state.error}`
              : `${formatCount(state.hits.length)} of ${formatCount(state.done)} ${state.done === 1 ? 'session holds' : 'sessions hold'} “${state.query}”${state.status === 'cancelled' ? ` (cancelled after ${formatCount(state.done)} of ${formatCount(state.total)})` : ''}${state.failed.length > 0 ? ` · ${state.failed.length} could not be read` : ''}`}
          </span>
        )}
      </form>
      {hits.length > 0 && (
        <ul className="find-results" data-testid="library-find-results">
          {hits.map((hit) => (
            <HitRow
              key={hit.key}
              hit={hit}
              query={state.query}
              session={byKey.get(hit.key)}
              onOpen={() => void openAtHit(queryClient, hit, state.query)}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function HitRow({
  hit,
  query,
  session,
  onOpen,
}: {
  hit: FindHit;
  query: string;
  session?: LibrarySession;
  onOpen: () => void;
}) {
  const { matches, records, first } = hit.matches;
  const row = session?.row;
  const where = row?.cwd ? getProjectName(row.cwd) : (hit.key.split('/').at(-2) ?? '');
  return (
    <li>
      <button
        type="button"
        className="find-hit"
        data-testid="library-find-hit"
        data-key={hit.key}
        title={`${hit.key}\nFirst at ${first?.file ?? '?'}, line ${first?.line ?? '?'}${first?.element === undefined ? '' : `, element ${first.element} of ${first.arrayKey === undefined ? 'the array' : `"${first.arrayKey}"`}`}: open it there`}
        onClick={onOpen}
      >
        <span className="find-hit-head">
          <span className="library-root-tag">{session?.root ?? hit.key.split('/')[0]}</span>
          <span className="find-hit-project">{where}</span>
          <span className="muted find-hit-prompt">
            <VisibleText text={row?.title ?? row?.firstPrompt ?? hit.key.split('/').at(-1) ?? ''} />
          </span>
          <span
            className="find-hit-count"
            data-testid="library-find-count"
            title={`in ${formatCount(records)} ${records === 1 ? 'record' : 'records'}`}
          >
            {formatCount(matches)} {matches === 1 ? 'match' : 'matches'}
          </span>
        </span>
        {first && (
          <span className="find-hit-excerpt mono" data-testid="library-find-excerpt">
            <HighlightedText text={first.excerpt} search={query} />
          </span>
        )}
      </button>
    </li>
  );
}
