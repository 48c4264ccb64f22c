import { type ReactNode, useEffect, useState } from 'react';
import { ALL_FILTER_KINDS, FILTER_KINDS, type FilterKind } from '../../engine/query/entry-kinds';
import { formatPlural } from '../../engine/query/numbering';
import type { FullTextProgress } from '../../worker/protocol';
import { useUiStore } from '../store';

const SEARCH_DEBOUNCE_MS = 180;

/**
 * The chips' model: "All" shows every kind; a chip turns its kind on (the first one from "All"
 * shows only that kind), clicking it again turns it off, and turning the last one off is "All".
 */
function getNextFilterKinds(current: readonly FilterKind[], kind: FilterKind): FilterKind[] {
  if (current.length === ALL_FILTER_KINDS.length) return [kind];
  if (!current.includes(kind)) {
    const next = [...current, kind];
    return next.length === ALL_FILTER_KINDS.length ? [...ALL_FILTER_KINDS] : next;
  }
  const next = current.filter((k) => k !== kind);
  return next.length === 0 ? [...ALL_FILTER_KINDS] : next;
}

/**
 * `shown`: rows the filter keeps; `total`: rows with no filter.
 * `scan`: a full-text scan under way (its progress; 0 of 0 bytes before the first report).
 * `viewToggle`: Rows/Conversation, at the right end of the search line, after the search in the
 * page's order as on screen (it lay over the line, first in the tab order, and over the chips when
 * they shared the line).
 */
export function FilterBar({
  shown,
  total,
  scan,
  viewToggle,
}: {
  shown?: number;
  total?: number;
  scan?: FullTextProgress;
  viewToggle?: ReactNode;
}) {
  const filterKinds = useUiStore((s) => s.filterKinds);
  const setFilterKinds = useUiStore((s) => s.setFilterKinds);
  const search = useUiStore((s) => s.search);
  const setSearch = useUiStore((s) => s.setSearch);
  const fullText = useUiStore((s) => s.fullText);
  const setFullText = useUiStore((s) => s.setFullText);
  const [text, setText] = useState(search);
  // A search set from outside (a link's `q`) shows in the box too.
  const [shownSearch, setShownSearch] = useState(search);
  if (search !== shownSearch) {
    setShownSearch(search);
    setText(search);
  }

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
      {viewToggle}
      <div className="filter-row">
        <fieldset className="filter-kinds" aria-label="Show entry kinds">
          <button
            type="button"
            className={`filter-chip ${all ? 'on' : ''}`}
            data-testid="filter-all"
            aria-pressed={all}
            title="Show every kind of entry"
            onClick={() => setFilterKinds([...ALL_FILTER_KINDS])}
          >
            All
          </button>
          {FILTER_KINDS.map(({ kind, label }) => {
            const on = !all && filterKinds.includes(kind);
            return (
              <button
                type="button"
                key={kind}
                className={`filter-chip kind-${kind} ${on ? 'on' : ''}`}
                data-testid={`filter-${kind}`}
                aria-pressed={on}
                title={on ? `Stop showing ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`}
                onClick={() => setFilterKinds(getNextFilterKinds(filterKinds, kind))}
              >
                {label}
              </button>
            );
          })}
        </fieldset>
        {shown !== undefined && (
          <span className="muted small mono" data-testid="row-count" data-shown={shown}>
            {total === undefined || (shown === total && all && search.trim() === '')
              ? formatPlural(shown, 'row')
              : `${shown.toLocaleString('en-US')} of ${formatPlural(total, 'row')}`}
          </span>
        )}
      </div>
    </div>
  );
}
