import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { type KeyboardEvent, lazy, memo, Suspense, useMemo, useRef, useState } from 'react';
import { PRICES_SEEN } from '../../engine/cost/prices-seen';
import { formatBytes } from '../common/format';
import { useEscapeLayer } from '../common/use-escape';
import { markHiddenChars, VisibleText } from '../common/visible-text';
import { VirtualList } from '../common/virtual-list';
import { ProgressBar } from '../top-bar/load-progress';
import { GRID_TEMPLATE, LIBRARY_COLUMNS, selectSessions, TABLE_MIN_WIDTH } from './library-columns';
import { getTotalScan, type LibraryRoot, libraryListingQuery } from './library-queries';
import { LibraryRoots } from './library-roots';
import { type LibrarySession, useLibraryStore } from './library-store';
import { openLibrarySession } from './open-session';
import { cancelScan } from './open-folder';
import { filterByUsage, useUsageStore } from './usage-store';
import { useUiStore } from '../store';

const ROW_HEIGHT_PX = 30;
/** The what-if: loaded when first opened (the replay's settings form, its charts). */
const WhatIfPanel = lazy(() => import('./what-if-panel'));
/** Usage and cost by day and project (charts, tables): loaded when first opened. */
const UsagePanel = lazy(() => import('./usage-panel'));
/** Find in transcripts: loaded when first opened. */
const FindPanel = lazy(() => import('./find-panel'));
const maybeMarked = (text: string | undefined) => (text === undefined ? undefined : markHiddenChars(text));

const TABLE_STYLE = { gridTemplateColumns: GRID_TEMPLATE, minWidth: TABLE_MIN_WIDTH };
const NO_SESSIONS: LibrarySession[] = [];
const NO_ROOTS: LibraryRoot[] = [];

/** Every session of the opened folders: sortable, filterable, searchable; a click opens one. */
export function LibraryView({ onReopen }: { onReopen: () => void }) {
  const queryClient = useQueryClient();
  const listing = useQuery(libraryListingQuery()).data;
  const { roots = NO_ROOTS, sessions: walked = NO_SESSIONS } = listing ?? {};
  // A file the scan found to be an agent's but no session (a prompt history outside the agent's
  // folder) is left out of the list, and said beside the count.
  const sessions = useMemo(() => walked.filter((s) => !s.row?.notSession), [walked]);
  const notSessions = useMemo(() => walked.filter((s) => s.row?.notSession), [walked]);
  const scan = getTotalScan(roots);
  const folderName = roots.map((r) => r.id).join(' + ');
  const openRoots = useMemo(() => new Set(roots.filter((r) => r.filesOpen).map((r) => r.id)), [roots]);
  const filesOpen = openRoots.size > 0;
  // Rows say their folder once there are several.
  const showRoot = roots.length > 1;
  const { sort, search, agent } = useLibraryStore();
  const { setSort, setSearch, setAgent } = useLibraryStore.getState();
  const listed = useMemo(
    () => selectSessions(sessions, sort, search, agent),
    [sessions, sort, search, agent],
  );
  const { open: usageOpen, filter: usageFilter } = useUsageStore();
  const shown = useMemo(() => filterByUsage(listed, usageFilter), [listed, usageFilter]);
  // A new order or filter shows its first rows (sorted by peak, the largest), not the old scroll.
  const toTop = useRef(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new sort, search or agent is the trigger
  const alignTop = useMemo(() => ({ index: 0, nonce: ++toTop.current }), [sort, search, agent, usageFilter]);
  const agents = useMemo(
    () => [...new Set(sessions.map((s) => s.row?.agent).filter((a): a is string => !!a))].sort(),
    [sessions],
  );
  const totalBytes = sessions.reduce((s, x) => s + x.sizeBytes, 0);
  const headRef = useRef<HTMLDivElement>(null);
  const [whatIf, setWhatIf] = useState(false);
  // The row the keyboard is on (↑ ↓ PgUp PgDn Home End in the list; Enter opens it). The list was
  // a Tab stop whose arrows only scrolled: no row could be reached, nor opened, without a pointer.
  // A new order or filter starts it afresh.
  const [active, setActive] = useState({ index: -1, nonce: 0, list: alignTop });
  const activeIndex = active.list === alignTop ? Math.min(active.index, shown.length - 1) : -1;
  const visibleRows = useRef(10);
  const onListKey = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Enter') {
      const s = shown[activeIndex];
      if (s) openRow(queryClient, s, openRoots.has(s.root));
      return;
    }
    const moves: Record<string, number> = {
      ArrowDown: 1,
      ArrowUp: -1,
      PageDown: visibleRows.current,
      PageUp: -visibleRows.current,
      Home: -shown.length,
      End: shown.length,
    };
    const move = moves[event.key];
    if (move === undefined || shown.length === 0) return;
    event.preventDefault();
    const index = Math.min(shown.length - 1, Math.max(0, (activeIndex < 0 ? -1 : activeIndex) + move));
    setActive({ index, nonce: active.nonce + 1, list: alignTop });
  };
  const scrollRequest = useMemo(
    () => ({ index: activeIndex, nonce: active.nonce }),
    [activeIndex, active.nonce],
  );
  const find = useLibraryStore((s) => s.findOpen);
  // Escape closes the panels as it does the page's others (the last opened first), and the focus
  // goes back to the button that opened them: they stayed open, Escape did nothing here.
  useEscapeLayer(() => setWhatIf(false), whatIf);
  useEscapeLayer(() => useUsageStore.getState().setOpen(false), usageOpen);
  useEscapeLayer(() => useLibraryStore.getState().setFindOpen(false), find);
  // What-if and the search take every listed session whose folder is open, across roots.
  const shownKeys = useMemo(
    () => shown.filter((s) => openRoots.has(s.root)).map((s) => s.key),
    [shown, openRoots],
  );

  return (
    <main className="library-view" data-testid="library">
      <div className="library-bar">
        <h2 className="library-title" title={markHiddenChars(folderName)}>
          <VisibleText text={folderName} />
        </h2>
        <span className="muted" data-testid="library-count">
          {shown.length === sessions.length ? sessions.length : `${shown.length} of ${sessions.length}`}{' '}
          {sessions.length === 1 ? 'session' : 'sessions'} · {formatBytes(totalBytes)}
        </span>
        {notSessions.length > 0 && <NotSessionsNote files={notSessions} />}
        <input
          type="search"
          className="library-search"
          placeholder="Search project, name, prompt, path, model"
          aria-label="Search sessions"
          data-testid="library-search"
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
        />
        <select
          aria-label="Agent"
          data-testid="library-agent"
          value={agent}
          onChange={(e) => setAgent(e.currentTarget.value)}
        >
          <option value="">All agents</option>
          {agents.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </select>
        <span className="muted" title="Anthropic list prices; cache writes 1.25× and reads 0.1× input">
          Prices as of {PRICES_SEEN}
        </span>
        <button
          type="button"
          className="btn"
          aria-expanded={whatIf}
          onClick={() => setWhatIf(!whatIf)}
          title="Replay the listed sessions under a strategy at two settings (or a sweep): what each would have cost and kept"
          data-testid="library-whatif"
        >
          What if…
        </button>
        <button
          type="button"
          className="btn"
          aria-expanded={usageOpen}
          onClick={() => useUsageStore.getState().setOpen(!usageOpen)}
          title="Usage and cost of the listed sessions by day and by project, as charts or tables"
          data-testid="library-usage"
        >
          Usage
        </button>
      </div>
      {usageOpen && (
        <Suspense fallback={<div className="whatif muted">Loading…</div>}>
          <UsagePanel sessions={listed} scanning={scan !== undefined} />
        </Suspense>
      )}
      {whatIf && (
        <Suspense fallback={<div className="whatif muted">Loading…</div>}>
          <WhatIfPanel keys={shownKeys} filesOpen={filesOpen} />
        </Suspense>
      )}
      {/* The scan's progress, then what it read, on one line of one height: the rows below never
          move when the scan ends (they moved up a line under a click, which then landed beside
          its row and opened nothing: the list stayed, "1 scanned"). */}
      {scan ? (
        <div className="library-scan" data-testid="library-scan">
          <span>
            Scanning {scan.sessionsDone} of {scan.sessionsTotal} · {formatBytes(scan.bytesRead)} of{' '}
            {formatBytes(scan.totalBytes)}
          </span>
          <ProgressBar fraction={scan.totalBytes > 0 ? scan.bytesRead / scan.totalBytes : 0} />
          <button type="button" className="btn" onClick={cancelScan} data-testid="library-cancel">
            Cancel
          </button>
        </div>
      ) : (
        filesOpen && (
          <div className="library-scan">
            <CacheStatus sessions={sessions} />
          </div>
        )
      )}
      <LibraryRoots roots={roots} sessions={sessions} onReopen={onReopen}>
        <button
          type="button"
          className="btn small"
          aria-expanded={find}
          onClick={() => useLibraryStore.getState().setFindOpen(!find)}
          title="Find a text in every listed session's transcript: the sessions holding it, how often, and where first"
          data-testid="library-find-toggle"
        >
          Find in transcripts…
        </button>
      </LibraryRoots>
      {find && (
        <Suspense fallback={<div className="muted">Loading…</div>}>
          <FindPanel keys={shownKeys} sessions={sessions} />
        </Suspense>
      )}
      <div className="library-head-wrap" ref={headRef}>
        <div className="library-head" style={TABLE_STYLE}>
          {LIBRARY_COLUMNS.map((c) => (
            <button
              type="button"
              key={c.key}
              className={`library-th${c.numeric ? ' num' : ''}`}
              title={c.title}
              aria-pressed={sort.key === c.key}
              data-sort={sort.key === c.key ? (sort.descending ? 'descending' : 'ascending') : undefined}
              data-testid={`library-sort-${c.key}`}
              onClick={() => setSort(c.key)}
            >
              {c.label}
              {sort.key === c.key ? (sort.descending ? ' ▾' : ' ▴') : ''}
            </button>
          ))}
        </div>
      </div>
      <VirtualList
        count={shown.length}
        rowHeightPx={ROW_HEIGHT_PX}
        alignTopRequest={alignTop}
        scrollRequest={scrollRequest}
        onKeyDown={onListKey}
        onRangeChange={(start, end) => {
          visibleRows.current = Math.max(1, end - start - 1);
        }}
        activeDescendant={activeIndex >= 0 ? `library-row-${activeIndex}` : undefined}
        className="library-rows"
        testId="library-rows"
        ariaLabel="Sessions"
        onScrollLeft={(px) => {
          if (headRef.current) headRef.current.scrollLeft = px;
        }}
        renderRow={(i) => (
          <LibraryRowView
            id={`library-row-${i}`}
            active={i === activeIndex}
            session={shown[i]!}
            filesOpen={openRoots.has(shown[i]!.root)}
            showRoot={showRoot}
            queryClient={queryClient}
          />
        )}
      />
    </main>
  );
}

/**
 * Opens a listed session; one whose folder's files are not open (listed from the last visit) says
 * how to open it: a click or Enter there did nothing, with no word why.
 */
function openRow(queryClient: QueryClient, s: LibrarySession, filesOpen: boolean): void {
  if (filesOpen) void openLibrarySession(queryClient, s.key);
  else
    useUiStore.setState({
      notice: {
        kind: 'info',
        text: `${s.root} is listed from the last visit, its files not open: Reopen ${s.root} to open its sessions`,
      },
    });
}

/** The files left out of the list because they are no sessions, each named with what it is. */
function NotSessionsNote({ files }: { files: readonly LibrarySession[] }) {
  const title = files.map((s) => `${s.key}: ${s.row?.notSession}`).join('\n');
  return (
    <span className="muted" data-testid="library-not-sessions" title={title}>
      {files.length} {files.length === 1 ? 'file' : 'files'} left out: not a session
    </span>
  );
}

/**
 * How the last opening got its rows: read by the scan, or from the cache because the session's
 * files kept their paths, sizes and modification times (library-db.ts).
 */
function CacheStatus({ sessions }: { sessions: readonly LibrarySession[] }) {
  let cached = 0;
  let scanned = 0;
  for (const s of sessions) {
    if (s.fromCache) cached++;
    else if (s.row || s.error) scanned++;
  }
  const rest = sessions.length - cached - scanned;
  return (
    <span
      className="muted"
      data-testid="library-cache"
      title="Rows of sessions whose files have the same paths, sizes and modification times come from this browser's cache; the others were read"
    >
      {scanned} scanned, {cached} from the cache{rest > 0 ? `, ${rest} not scanned` : ''}
    </span>
  );
}

/**
 * One session's row. Memoized: the scan hands rows over in batches, and a batch replaces only the
 * sessions it scanned, so the rows in view that did not change are not rendered again.
 */
const LibraryRowView = memo(function LibraryRowView({
  id,
  active,
  session: s,
  filesOpen,
  showRoot,
  queryClient,
}: {
  id: string;
  /** The row the keyboard is on in the list. */
  active: boolean;
  session: LibrarySession;
  filesOpen: boolean;
  /** Several folders are listed: the row says which it came from. */
  showRoot: boolean;
  queryClient: QueryClient;
}) {
  const row = s.row;
  return (
    <div
      id={id}
      className={`library-row${filesOpen ? '' : ' closed'}${active ? ' active' : ''}`}
      style={TABLE_STYLE}
      data-testid="library-row"
      data-key={s.key}
      data-root={s.root}
      data-from-cache={s.fromCache === true}
      role="option"
      aria-selected={active}
      tabIndex={-1}
      title={markHiddenChars(s.key)}
      onClick={() => openRow(queryClient, s, filesOpen)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') openRow(queryClient, s, filesOpen);
      }}
    >
      {row
        ? LIBRARY_COLUMNS.map((c) => (
            <span
              key={c.key}
              className={`library-td${c.numeric ? ' num' : ''}`}
              data-col={c.key}
              title={maybeMarked(c.hint?.(s, row))}
            >
              {showRoot && c.key === 'project' && (
                <span
                  className="library-root-tag"
                  title={markHiddenChars(`From the folder ${s.root}`)}
                  data-testid="library-row-root"
                >
                  <VisibleText text={s.root} />
                </span>
              )}
              {/* A cell holds a log's own text (names, prompts, paths): never a control that acts. */}
              <VisibleText text={c.text(s, row)} />
            </span>
          ))
        : // Keyed as the first column's cell, in a list: the row's scan landing between a click's
          // press and release keeps this element (it becomes that cell), where replacing it lost the
          // click (Chromium sends none when the pressed element left the page): the row stayed listed.
          [
            <span key={LIBRARY_COLUMNS[0]!.key} className="library-td muted" style={{ gridColumn: '1 / -1' }}>
              <VisibleText
                text={
                  s.error
                    ? `Could not scan ${s.key}: ${s.error}`
                    : `${s.key} · ${formatBytes(s.sizeBytes)} · scanning…`
                }
              />
            </span>,
          ]}
    </div>
  );
});
