import { useQueries, useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, useCallback, useMemo, useState } from 'react';
import { DEFAULT_ROW_FILTER, getRowFilterKey, type RowFilter } from '../../engine/query/row-filter';
import type { FullTextProgress, SessionId } from '../../worker/protocol';
import { VirtualList } from '../common/virtual-list';
import { ROW_PAGE_SIZE, rowIndexQuery, rowPageQuery } from '../queries';
import { useUiStore } from '../store';
import { useRevealStore } from '../timeline/reveal-store';
import { ConversationView } from './conversation-data';
import { FilterBar } from './filter-bar';
import { PlaceholderRow, TranscriptRow } from './transcript-row';

const ROW_HEIGHT_PX = 22;

type TranscriptView = 'rows' | 'conversation';
const VIEW_KEY = 'compactlab.transcriptView';

function readView(): TranscriptView {
  try {
    return localStorage.getItem(VIEW_KEY) === 'conversation' ? 'conversation' : 'rows';
  } catch {
    return 'rows';
  }
}

/**
 * Rows or conversation, kept across reloads: in the filter bar's search line (rows), or alone at
 * the pane's top right (conversation, which has no filter bar).
 */
function ViewToggle({
  view,
  onChange,
  floating = false,
}: {
  view: TranscriptView;
  onChange: (view: TranscriptView) => void;
  floating?: boolean;
}) {
  return (
    <fieldset className={`transcript-view-toggle${floating ? ' floating' : ''}`}>
      <legend className="visually-hidden">Transcript view</legend>
      {(['rows', 'conversation'] as const).map((v) => (
        <button
          key={v}
          type="button"
          className="btn small"
          aria-pressed={view === v}
          data-testid={`view-${v}`}
          data-view={v}
          onClick={(e) => {
            // The toggle is drawn again elsewhere (the filter bar, the conversation's corner): a
            // press from the keyboard left the focus on <body>. It follows to the pressed button.
            const hadFocus = document.activeElement === e.currentTarget;
            onChange(v);
            if (hadFocus)
              requestAnimationFrame(() =>
                document.querySelector<HTMLElement>(`.transcript-view-toggle [data-view="${v}"]`)?.focus(),
              );
            try {
              localStorage.setItem(VIEW_KEY, v);
            } catch {
              // Storage denied: the choice lasts for this page.
            }
          }}
        >
          {v === 'rows' ? 'Rows' : 'Conversation'}
        </button>
      ))}
    </fieldset>
  );
}

/** Every row: the denominator of the row count. */
const NO_FILTER: RowFilter = DEFAULT_ROW_FILTER;

export function TranscriptPane({ sessionId }: { sessionId: SessionId }) {
  const filterKinds = useUiStore((s) => s.filterKinds);
  const search = useUiStore((s) => s.search);
  const fullText = useUiStore((s) => s.fullText);
  const filter: RowFilter = useMemo(
    () => ({ kinds: filterKinds, search, fullText }),
    [filterKinds, search, fullText],
  );
  const [scan, setScan] = useState<{ key: string; progress: FullTextProgress }>();
  const filterKey = getRowFilterKey(filter);
  const indexQuery = useQuery({
    ...rowIndexQuery(sessionId, filter, (progress) => setScan({ key: filterKey, progress })),
    placeholderData: (previous) => previous,
  });
  const totalQuery = useQuery(rowIndexQuery(sessionId, NO_FILTER));
  const indices = indexQuery.data?.indices;
  const count = indices?.length ?? 0;
  const scanning = indexQuery.isFetching && fullText && search.trim() !== '';
  const scanProgress = scanning && scan?.key === filterKey ? scan.progress : undefined;

  const [view, setView] = useState<TranscriptView>(readView);
  if (view === 'conversation')
    return (
      <section className="transcript-pane">
        <ViewToggle view={view} onChange={setView} floating />
        <ConversationView sessionId={sessionId} />
      </section>
    );
  return (
    <section className="transcript-pane">
      <FilterBar
        viewToggle={<ViewToggle view={view} onChange={setView} />}
        shown={indices ? count : undefined}
        total={totalQuery.data?.indices.length}
        scan={scanning ? (scanProgress ?? { bytesRead: 0, totalBytes: 0 }) : undefined}
      />
      {indexQuery.error ? (
        <div className="panel-message error">{indexQuery.error.message}</div>
      ) : (
        <TranscriptList
          key={sessionId}
          sessionId={sessionId}
          filter={indexQuery.isPlaceholderData ? undefined : filter}
          indices={indices}
        />
      )}
    </section>
  );
}

function TranscriptList(props: { sessionId: SessionId; filter?: RowFilter; indices?: Int32Array }) {
  const { sessionId, filter, indices } = props;
  const count = indices?.length ?? 0;
  const [range, setRange] = useState({ start: 0, end: 60 });
  const selectedEntry = useUiStore((s) => s.selectedEntry);
  const revealNonce = useUiStore((s) => s.revealNonce);
  const selectEntry = useUiStore((s) => s.selectEntry);

  const firstPage = Math.floor(Math.max(0, range.start - 20) / ROW_PAGE_SIZE);
  const lastPage = Math.floor(Math.max(0, Math.min(count, range.end + 20) - 1) / ROW_PAGE_SIZE);
  const pageNumbers: number[] = [];
  if (filter && count > 0) for (let p = firstPage; p <= lastPage; p++) pageNumbers.push(p);
  const pages = useQueries({ queries: pageNumbers.map((p) => rowPageQuery(sessionId, filter!, p)) });

  const onRangeChange = useCallback((start: number, end: number) => setRange({ start, end }), []);
  const selectedRow = useMemo(
    () => (indices && selectedEntry !== undefined ? indices.indexOf(selectedEntry) : -1),
    [indices, selectedEntry],
  );
  const scrollRequest = useMemo(
    () => ({ index: selectedRow, nonce: revealNonce }),
    [revealNonce, selectedRow],
  );

  const reveal = useRevealStore((s) => s.reveal);
  const alignTopRequest = useMemo(
    () =>
      reveal && indices ? { index: lowerBound(indices, reveal.entryIndex), nonce: reveal.nonce } : undefined,
    [reveal, indices],
  );

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!indices || count === 0) return;
    const visible = Math.max(1, range.end - range.start);
    const moves: Record<string, number> = {
      ArrowDown: 1,
      ArrowUp: -1,
      PageDown: visible,
      PageUp: -visible,
      Home: -count,
      End: count,
    };
    const move = moves[event.key];
    if (move === undefined) return;
    event.preventDefault();
    const next = Math.min(
      count - 1,
      Math.max(0, (selectedRow < 0 ? range.start - Math.sign(move) : selectedRow) + move),
    );
    selectEntry(indices[next], true);
  };

  const renderRow = (index: number) => {
    const page = pages[Math.floor(index / ROW_PAGE_SIZE) - firstPage]?.data;
    const row = page?.[index % ROW_PAGE_SIZE];
    if (!row) return <PlaceholderRow />;
    return (
      <TranscriptRow
        row={row}
        selected={row.entryIndex === selectedEntry}
        onSelect={selectEntry}
        search={props.filter?.search ?? ''}
      />
    );
  };

  return (
    <>
      <div className="t-row t-header" aria-hidden>
        <span className="t-kind">kind</span>
        <span className="t-time">time</span>
        <span className="t-text">entry</span>
        <span className="t-est" title="Claude Code's local estimate (chars/4, ×4/3)">
          est.
        </span>
        <span className="t-ctx" title="Context tokens the API reported for the call">
          ctx
        </span>
      </div>
      <VirtualList
        count={count}
        rowHeightPx={ROW_HEIGHT_PX}
        renderRow={renderRow}
        onRangeChange={onRangeChange}
        scrollRequest={scrollRequest}
        alignTopRequest={alignTopRequest}
        onKeyDown={onKeyDown}
        className="transcript-list"
        testId="transcript-list"
        ariaLabel="Transcript"
      />
      {indices && count === 0 && <div className="panel-message muted">No entries match the filter.</div>}
    </>
  );
}

/** First row whose entry index is ≥ `entryIndex` (rows are in entry order). */
function lowerBound(indices: Int32Array, entryIndex: number): number {
  let lo = 0;
  let hi = indices.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (indices[mid]! < entryIndex) lo = mid + 1;
    else hi = mid;
  }
  return Math.min(lo, indices.length - 1);
}
