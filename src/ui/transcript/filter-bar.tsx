import { useEffect, useState } from 'react';
import { ALL_FILTER_KINDS, FILTER_KINDS } from '../../engine/query/entry-kinds';
import type { FullTextProgress } from '../../worker/protocol';
import { useUiStore } from '../store';

const SEARCH_DEBOUNCE_MS = 180;

/** `scan`: a full-text scan under way (its progress; 0 of 0 bytes before the first report). */
export function FilterBar({ shown, scan }: { shown?: number; scan?: FullTextProgress }) {
  const filterKinds = useUiStore((s) => s.filterKinds);
  const toggle = useUiStore((s) => s.toggleFilterKind);
  const setFilterKinds = useUiStore((s) => s.setFilterKinds);
  const search = useUiStore((s) => s.search);
  const setSearch = useUiStore((s) => s.setSearch);
  const fullText = useUiStore((s) => s.fullText);
  const setFullText = useUiStore((s) => s.setFullText);
  const [text, setText] = useState(search);

  useEffect(() => {
    if (text === search) return;
    const timer = setTimeout(() => setSearch(text), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, search, setSearch]);

  const all = filterKinds.length === ALL_FILTER_KINDS.length;
  return (
    <div className="filter-bar">
      <input
        type="search"
        className="search mono"
        data-testid="search-input"
        placeholder="Search text, tools, paths, commands…"
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        aria-label="Search the transcript"
      />
      <label
        className="muted small full-text-toggle"
        title="Also search each entry's whole raw line (reads the files), not only the previews"
      >
        <input
          type="checkbox"
          data-testid="search-full-text"
          checked={fullText}
          onChange={(e) => setFullText(e.currentTarget.checked)}
        />{' '}
        full text
      </label>
      {scan && (
        <span className="muted small mono" data-testid="search-progress">
          scanning {scan.totalBytes > 0 ? `${Math.floor((100 * scan.bytesRead) / scan.totalBytes)}%` : '…'}{' '}
          <button
            type="button"
            className="filter-chip"
            data-testid="search-full-text-cancel"
            onClick={() => setFullText(false)}
          >
            cancel
          </button>
        </span>
      )}
      <fieldset className="filter-kinds" aria-label="Show entry kinds">
        <button
          type="button"
          className={`filter-chip ${all ? 'on' : ''}`}
          data-testid="filter-all"
          aria-pressed={all}
          onClick={() => setFilterKinds(all ? [] : [...ALL_FILTER_KINDS])}
        >
          All
        </button>
        {FILTER_KINDS.map(({ kind, label }) => {
          const on = filterKinds.includes(kind);
          return (
            <button
              type="button"
              key={kind}
              className={`filter-chip kind-${kind} ${on ? 'on' : ''}`}
              data-testid={`filter-${kind}`}
              aria-pressed={on}
              onClick={() => toggle(kind)}
            >
              {label}
            </button>
          );
        })}
      </fieldset>
      {shown !== undefined && (
        <span className="muted small mono" data-testid="row-count">
          {shown.toLocaleString('en-US')} rows
        </span>
      )}
    </div>
  );
}
