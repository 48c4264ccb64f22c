import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import './summaries.css';
import type { SessionId } from '../../worker/protocol';
import { formatCount } from '../common/format';
import { useEscapeLayer } from '../common/use-escape';
import { useActiveRun } from './run-controller';
import { summariesInfoQuery, summaryRunsQuery } from './summaries-queries';
import { useSummariesStore } from './summaries-store';

// The Summaries view's slot in the app shell: a bar under the workspace that opens into the
// prompt editor, the runs and their comparison.

/** The open dock's body, loaded when the dock first opens: not part of the page's first load. */
const SummariesPanel = lazy(() => import('./summaries-panel').then((m) => ({ default: m.SummariesPanel })));

export function SummariesDock({ sessionId }: { sessionId: SessionId }) {
  const open = useSummariesStore((s) => s.open);
  const setOpen = useSummariesStore((s) => s.setOpen);
  // The open dock is a layer: Escape closes it when nothing above it is open (the Monaco editor's
  // own Escape and writing in it do not reach here: common/use-escape.ts).
  useEscapeLayer(() => setOpen(false), open);
  const status = useActiveRun((s) => s.status);
  const info = useQuery({ ...summariesInfoQuery(sessionId), enabled: open });
  const runs = useQuery(summaryRunsQuery());
  const forThis = info.data
    ? (runs.data ?? []).filter((r) => r.transcript.contentHash === info.data.contentHash).length
    : undefined;
  return (
    <section className={`summaries-dock ${open ? 'open' : ''}`} aria-label="Summaries">
      <div className="dock-bar">
        <button
          type="button"
          className="btn"
          data-testid="summaries-toggle"
          aria-expanded={open}
          onClick={() => setOpen(!open)}
        >
          {open ? '▾' : '▸'} Summaries
        </button>
        <span className="muted small">
          Edit the compaction prompt, run it on a span, compare the runs.
          {forThis !== undefined
            ? ` ${formatCount(forThis)} run${forThis === 1 ? '' : 's'} for this transcript.`
            : ''}
          {status === 'running' ? ' Summarizing…' : ''}
        </span>
      </div>
      {open && (
        <div className="dock-body">
          <Suspense fallback={<p className="muted small">Loading the summaries…</p>}>
            <SummariesPanel sessionId={sessionId} />
          </Suspense>
        </div>
      )}
    </section>
  );
}
