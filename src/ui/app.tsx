import { UnfinishedRunNotice } from './custom/run-marker';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type CSSProperties, lazy, Suspense, useEffect, useState } from 'react';
import { hasIndexedDb, NOT_KEPT_WITHOUT_STORAGE } from './common/storage';
import { subscribeEngineRestarts, warmEngineClient } from '../worker/engine-client';
import type { SessionId, SessionOverview } from '../worker/protocol';
import { DIALECT_INFOS } from '../engine/parse/dialects/descriptors';
import { formatBytes } from './common/format';
import { formatList, getReadAgents } from './common/agents';
import { markHiddenChars } from './common/visible-text';
import { Splitter } from './common/splitter';
import { DropZone } from './drop-zone';
import { LoadPreview } from './load/load-preview';
import { FirstRunLine } from './help/first-run';
import { ShortcutsOverlay, useShortcutsKey } from './help/shortcuts-overlay';
import './help/help.css';
import { loadSession } from './load/load-session';
import { listRecentFiles } from './load/recent-files';
import { RecentFilesList } from './load/recent-files-list';
import { fetchSampleFiles, isSampleMainFile } from './load/sample';
import { useLayoutStore } from './layout-store';
import { LiveBar } from './library/live-bar';
import { requestFolderInput } from './library/folder-buttons';
import { useLibraryStore } from './library/library-store';
import { LibraryView } from './library/library-view';
import { useLibraryOnStart } from './library/use-library-start';
import { useLearnStore } from './learn/learn-store';
import { IssuesPanel } from './panels/issues-panel';
import { SidePanel } from './panels/side-panel';
import { sessionOverviewQuery } from './queries';
import { SessionHeader } from './session-header';
import { useUiStore } from './store';
import { SummariesDock } from './summaries/summaries-dock';
import { useSummariesStore } from './summaries/summaries-store';
import { ReplayDrawer } from './replay/replay-drawer';
import { ReplaySection } from './replay/replay-section';
import { Timeline } from './timeline/timeline';
import { getLoadFraction, ProgressBar } from './top-bar/load-progress';
import { TopBar } from './top-bar/top-bar';
import { TranscriptPane } from './transcript/transcript-pane';
import { getPendingLinkName, hasPendingLink, useLinkNotice, useUrlState } from './use-url-state';

let sampleRequested = false;

/**
 * Opens the bundled sample once at start, unless the URL says `?sample=0`, is a link waiting for
 * its file, or follows a file (`?follow=`: that file is the session; the sample shown instead was
 * marked "File unreadable: last known" when the followed file could not be read).
 */
function useSampleOnStart() {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (sampleRequested) return; // StrictMode runs effects twice in dev
    sampleRequested = true;
    const params = new URLSearchParams(window.location.search);
    if (params.get('sample') === '0' || params.has('follow')) return;
    if (hasPendingLink()) {
      // A link made on the sample opens it (and its view); one made on another file waits for it.
      void isSampleMainFile(getPendingLinkName() ?? '').then((isSample) => {
        if (isSample && useUiStore.getState().currentSessionId === undefined)
          void loadSession(queryClient, 'the bundled sample', fetchSampleFiles);
      });
      return;
    }
    // Someone who opened files before sees them listed on the start page instead.
    void listRecentFiles().then((recent) => {
      const { loading, currentSessionId } = useUiStore.getState();
      if (recent.length === 0 && loading === undefined && currentSessionId === undefined)
        void loadSession(queryClient, 'the bundled sample', fetchSampleFiles);
    });
  }, [queryClient]);
}

/** Learn mode's walk, loaded when a walk starts: not part of the page's first load. */
const LearnView = lazy(() => import('./learn/learn-view').then((m) => ({ default: m.LearnView })));

/**
 * The engine's worker started once the page is idle, so that the first file given does not wait
 * for it: about 200 ms on the project's machine to start the worker and compile its module
 * (issue 20). A page opening the sample starts it at once anyway.
 */
function useEngineWarmUp(): void {
  useEffect(() => {
    const idle = window.requestIdleCallback;
    if (!idle) {
      const timer = setTimeout(warmEngineClient, 500);
      return () => clearTimeout(timer);
    }
    const id = idle(warmEngineClient, { timeout: 2_000 });
    return () => window.cancelIdleCallback(id);
  }, []);
}

export function App() {
  useEngineWarmUp();
  useSampleOnStart();
  useLibraryOnStart();
  useUrlState();
  useShortcutsKey();
  const sessionId = useUiStore((s) => s.currentSessionId);
  const view = useLibraryStore((s) => s.view);
  const learnStrategy = useLearnStore((s) => s.strategyId);
  const previewing = useUiStore(
    (s) => s.loading?.phase === 'parsing' && (s.loading.contexts?.length ?? 0) > 0,
  );
  return (
    <DropZone>
      <TopBar />
      <StorageNotice />
      <EngineNotice />
      <UnfinishedRunNotice />
      <ShortcutsOverlay />
      {view === 'library' ? (
        <>
          {sessionId === undefined && <LinkWaiting />}
          <LibraryView onReopen={requestFolderInput} />
        </>
      ) : previewing ? (
        <LoadPreview />
      ) : sessionId === undefined ? (
        <EmptyState />
      ) : learnStrategy !== undefined ? (
        <Suspense fallback={<p className="muted small">Loading the walk…</p>}>
          <LearnView sessionId={sessionId} strategyId={learnStrategy} />
        </Suspense>
      ) : (
        <SessionView sessionId={sessionId} />
      )}
    </DropZone>
  );
}

function EmptyState() {
  const loading = useUiStore((s) => s.loading);
  return (
    <main className="empty-state">
      {loading ? (
        <div className="loading-state">
          <h1>
            {loading.phase === 'fetching' ? 'Fetching' : 'Reading'} {loading.label}…
          </h1>
          <ProgressBar fraction={getLoadFraction(loading)} />
          <p className="muted mono">
            {loading.progress
              ? `${formatBytes(loading.progress.bytesRead)} of ${formatBytes(loading.progress.totalBytes)}`
              : '\u00a0'}
          </p>
        </div>
      ) : (
        <>
          {/* A followed file (`?follow=`) not read yet: the bar says why (its server does not
              answer, or does not let this page read it), where the page once polled in silence. */}
          <LiveBar />
          <h1 data-testid="empty-title">Drop a {formatList(getReadAgents(), 'or')} transcript here</h1>
          <p data-testid="empty-what">
            CompactLab shows how an AI coding agent's context filled up, where it was compacted and what the
            summaries kept, and replays the session with other compaction settings.
          </p>
          <p className="muted">
            Drop a session's files together (a main log and its subagent files), or its folder, use Open
            files…, or Paste. Everything stays in this browser tab. Where each agent keeps them:
          </p>
          <ReadFormats />
          <LinkWaiting />
          <RecentFilesList />
        </>
      )}
    </main>
  );
}

/** Every format the dialect registry reads, with where its agent writes it. */
function ReadFormats() {
  return (
    <ul className="muted read-formats" data-testid="read-formats">
      {DIALECT_INFOS.filter((d) => d.parsed && d.files.location).map((d) => (
        <li key={d.id}>
          {d.label}: <span className="mono">{d.files.location}</span>
        </li>
      ))}
    </ul>
  );
}

/** A shared link opened before its file: says which file it waits for. */
function LinkWaiting() {
  const name = getPendingLinkName();
  if (name === undefined) return null;
  return (
    <p className="link-waiting" data-testid="link-waiting">
      This link shows a view of <b>{markHiddenChars(name || 'a file')}</b>: open that file (drop it, or pick
      it from a listed folder) to see it. The file itself is not in the link, only a hash of its content.
    </p>
  );
}

/** A shared link whose file is not the one loaded: its view was not applied. */
function LinkNotice() {
  const otherFile = useLinkNotice((s) => s.otherFile);
  const dismiss = useLinkNotice((s) => s.dismiss);
  if (otherFile === undefined) return null;
  return (
    <div className="link-notice" role="status" data-testid="link-notice">
      This link was made for another file: <b>{markHiddenChars(otherFile)}</b>. Its view (strategy, knobs,
      selection, tab) was not applied to this one.
      <button type="button" className="btn link" onClick={dismiss} aria-label="Dismiss">
        ×
      </button>
    </div>
  );
}

/** Said once, dismissable, where the browser denies IndexedDB (common/storage.ts). */
function StorageNotice() {
  const [dismissed, setDismissed] = useState(false);
  if (dismissed || hasIndexedDb()) return null;
  return (
    <div className="link-notice" role="status" data-testid="storage-notice">
      {NOT_KEPT_WITHOUT_STORAGE}
      <button type="button" className="btn link" onClick={() => setDismissed(true)} aria-label="Dismiss">
        ×
      </button>
    </div>
  );
}

/**
 * The engine's worker failed or stopped answering and a fresh one was started (engine-client.ts):
 * said until dismissed; what was running has failed with the same words where it was shown.
 */
function EngineNotice() {
  const [message, setMessage] = useState<string>();
  useEffect(() => subscribeEngineRestarts(setMessage), []);
  if (message === undefined) return null;
  return (
    <div className="link-notice" role="alert" data-testid="engine-notice">
      {message}
      <button type="button" className="btn link" onClick={() => setMessage(undefined)} aria-label="Dismiss">
        ×
      </button>
    </div>
  );
}

/** The tab names the session shown (its name as its agent lists it, else what was opened). */
function useDocumentTitle(name: string | undefined): void {
  useEffect(() => {
    if (!name) return;
    // Transcript text: its bidi controls and zero-width characters shown, not acting on the tab's text.
    document.title = `${markHiddenChars(name)} · CompactLab`;
    return () => {
      document.title = 'CompactLab';
    };
  }, [name]);
}

function SessionView({ sessionId }: { sessionId: SessionId }) {
  const { data: overview } = useQuery(sessionOverviewQuery(sessionId));
  const label = useUiStore((s) => s.currentLabel);
  useDocumentTitle(overview?.meta.title?.text ?? label);
  const chartHeightPx = useLayoutStore((s) => s.chartHeightPx);
  const setChartHeight = useLayoutStore((s) => s.setChartHeight);
  const sideWidthPx = useLayoutStore((s) => s.sideWidthPx);
  const setSideWidth = useLayoutStore((s) => s.setSideWidth);
  const summariesOpen = useSummariesStore((s) => s.open);
  if (!overview) return null;
  if (overview.notTranscript) return <NotTranscript sessionId={sessionId} overview={overview} />;
  return (
    <main className="session-view">
      {/* The open Summaries view covers all of this (summaries.css): inert under it, so Tab and a
          screen reader stay in the view; as it was once the view closes. */}
      <div className="session-under" inert={summariesOpen}>
        <LinkNotice />
        <FirstRunLine />
        <LiveBar />
        <SessionHeader overview={overview} />
        <Timeline sessionId={sessionId} />
        <ReplaySection sessionId={sessionId} />
        <Splitter
          axis="y"
          value={chartHeightPx}
          onChange={setChartHeight}
          label="Chart height"
          testId="chart-splitter"
        />
        <div className="workspace" style={{ '--side-px': `${sideWidthPx}px` } as CSSProperties}>
          <TranscriptPane sessionId={sessionId} />
          <Splitter
            axis="x"
            sign={-1}
            value={sideWidthPx}
            onChange={setSideWidth}
            label="Side panel width"
            testId="side-splitter"
          />
          <SidePanel sessionId={sessionId} overview={overview} />
          <ReplayDrawer sessionId={sessionId} />
        </div>
      </div>
      <SummariesDock sessionId={sessionId} />
    </main>
  );
}

function NotTranscript({ sessionId, overview }: { sessionId: SessionId; overview: SessionOverview }) {
  const issue = overview.notTranscript!;
  const name = overview.files[issue.fileIndex]?.name ?? overview.files[0]?.name ?? 'This input';
  return (
    <main className="not-transcript">
      <div className="not-transcript-box" data-testid="not-transcript">
        <h1>{name.split('/').pop()} is not a transcript CompactLab can read</h1>
        <p>{issue.message}</p>
        <p className="muted">CompactLab reads these files; drop one anywhere on this page:</p>
        <ReadFormats />
      </div>
      <IssuesPanel sessionId={sessionId} />
    </main>
  );
}
