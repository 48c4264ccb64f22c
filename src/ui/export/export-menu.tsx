import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { getCompactedLogRefusal } from '../../engine/export/compacted-log-formats';
import { getEngineClient } from '../../worker/engine-client';
import { getPageStrategyDescriptor, getStrategyClient, isCustomStrategyId } from '../custom/custom-registry';
import type { ExportFormat, SessionId } from '../../worker/protocol';
import { useEscapeLayer } from '../common/use-escape';
import { sessionOverviewQuery } from '../queries';
import { useEffectiveKnobs, useKnobOverrides } from '../replay/use-knobs';
import { useReplayStore } from '../replay/replay-store';
import { summariesInfoQuery, summaryRunsQuery } from '../summaries/summaries-queries';
import { useSummariesStore } from '../summaries/summaries-store';
import { useUiStore } from '../store';
import { getCurrentLink } from '../use-url-state';
import { downloadFile, getExportFileName, svgToPng } from './download';
import { getSummarySizes } from '../summaries/summary-sizes';
import { toExportedSummary } from './exported-runs';
import './export.css';
import { getRedaction } from './redaction-store';

// The Export menu: the session's summaries (Markdown, JSON), the whole transcript as a
// conversation (Markdown, HTML), the compacted transcript under the
// replay's strategy and knobs (JSONL), the one-file report (HTML), the timeline (SVG, PNG) and a
// comparison of two selected runs. Every text export is masked (redaction-store.ts) in the worker.

interface Item {
  id: ExportFormat | 'timeline-png';
  label: string;
  suffix: string;
  mimeType: string;
}

const ITEMS: readonly Item[] = [
  { id: 'summaries-md', label: 'Summaries (Markdown)', suffix: '-summaries.md', mimeType: 'text/markdown' },
  {
    id: 'summaries-json',
    label: 'Summaries (JSON)',
    suffix: '-summaries.json',
    mimeType: 'application/json',
  },
  {
    id: 'compacted-jsonl',
    label: 'Compacted transcript (JSONL)',
    suffix: '-compacted.jsonl',
    mimeType: 'application/x-ndjson',
  },
  {
    id: 'transcript-md',
    label: 'Transcript (Markdown)',
    suffix: '-transcript.md',
    mimeType: 'text/markdown',
  },
  {
    id: 'transcript-html',
    label: 'Transcript (HTML, one file)',
    suffix: '-transcript.html',
    mimeType: 'text/html',
  },
  { id: 'report-html', label: 'Report (HTML, one file)', suffix: '-report.html', mimeType: 'text/html' },
  { id: 'timeline-svg', label: 'Timeline (SVG)', suffix: '-timeline.svg', mimeType: 'image/svg+xml' },
  { id: 'timeline-png', label: 'Timeline (PNG)', suffix: '-timeline.png', mimeType: 'image/png' },
  {
    id: 'run-comparison-md',
    label: 'Compare 2 selected runs (Markdown)',
    suffix: '-run-comparison.md',
    mimeType: 'text/markdown',
  },
];

export function ExportMenu() {
  const sessionId = useUiStore((s) => s.currentSessionId);
  if (sessionId === undefined) return null;
  return <ExportMenuFor sessionId={sessionId} />;
}

function ExportMenuFor({ sessionId }: { sessionId: SessionId }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState<string>();
  const [error, setError] = useState<string>();
  useEscapeLayer(() => setOpen(false), open);
  const rootRef = useRef<HTMLDivElement>(null);
  // A press outside the menu closes it, as Escape does.
  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (!rootRef.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onDown);
    return () => document.removeEventListener('pointerdown', onDown);
  }, [open]);
  const overview = useQuery(sessionOverviewQuery(sessionId)).data;
  const strategyId = useReplayStore((s) => s.strategyId);
  const summaryModel = useReplayStore((s) => s.summaryModel);
  const manual = useReplayStore((s) => s.manual);
  const replayShown = useReplayStore((s) => s.enabled);
  const knobs = useEffectiveKnobs(sessionId, strategyId);
  const overrides = useKnobOverrides(sessionId, strategyId);
  const selectedRunIds = useSummariesStore((s) => s.selectedRunIds);
  if (!overview || overview.notTranscript) return null;
  const name =
    (overview.shownFileIndex === undefined ? undefined : overview.files[overview.shownFileIndex]?.name) ??
    'transcript';
  const hasCalls = overview.apiCalls > 0;

  const getRuns = async () => {
    const [info, runs] = await Promise.all([
      queryClient.fetchQuery(summariesInfoQuery(sessionId)),
      queryClient.fetchQuery(summaryRunsQuery()),
    ]);
    return runs.filter((r) => r.transcript.contentHash === info.contentHash);
  };

  const run = async (item: Item) => {
    setBusy(item.id);
    setError(undefined);
    try {
      // The file's name masked too (a secret or a user name in a path), by the worker's scan.
      const [maskedName] = await getEngineClient().request({
        kind: 'redact-texts',
        sessionId,
        texts: [name],
        redaction: getRedaction(sessionId),
      });
      const fileName = getExportFileName(maskedName ?? name, item.suffix);
      let runs = undefined as ReturnType<typeof toExportedSummary>[] | undefined;
      let summariesByPoint: Record<string, string> | undefined;
      if (item.id === 'compacted-jsonl') {
        // Where a run summarized the point the replay compacts at, its summary is written there.
        const mine = await getRuns();
        const chosen = getSummarySizes(mine, mine[0]?.transcript.contentHash ?? '');
        summariesByPoint = {};
        for (const [key, size] of chosen) {
          const run = mine.find((r) => r.id === size.runId);
          if (run) summariesByPoint[key] = run.rawSummary;
        }
      }
      if (item.id === 'summaries-md' || item.id === 'summaries-json' || item.id === 'report-html')
        runs = (await getRuns()).map(toExportedSummary);
      if (item.id === 'run-comparison-md') {
        const all = await queryClient.fetchQuery(summaryRunsQuery());
        runs = selectedRunIds.flatMap((id) => all.filter((r) => r.id === id)).map(toExportedSummary);
      }
      // With a custom strategy's replay, its sandbox writes it (custom-registry.ts).
      const file = await getStrategyClient(strategyId).request({
        kind: 'export-file',
        sessionId,
        // The PNG is the SVG picture (title, thresholds, markers, legend) drawn at twice its size.
        format: item.id === 'timeline-png' ? 'timeline-svg' : item.id,
        redaction: getRedaction(sessionId),
        // The report and the SVG show the replay when the page does; the compacted transcript is one.
        replay:
          knobs && hasCalls && (replayShown || item.id === 'compacted-jsonl')
            ? { strategyId, overrides, summaryModel, manual }
            : undefined,
        runs,
        summariesByPoint,
      });
      downloadFile(
        item.id === 'timeline-png'
          ? await svgToPng(await file.text())
          : new Blob([file], { type: item.mimeType }),
        fileName,
        item.mimeType,
      );
      setOpen(false);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(undefined);
    }
  };

  const disabled = (item: Item): string | undefined => {
    const refusal = item.id === 'compacted-jsonl' ? getCompactedLogRefusal(overview.format) : undefined;
    if (refusal) return refusal;
    if (item.id === 'compacted-jsonl' && (!hasCalls || !knobs))
      return 'Needs a replay: no API call to replay';
    if (item.id === 'run-comparison-md' && selectedRunIds.length !== 2)
      return 'Select exactly two runs in the Summaries table';
    return undefined;
  };

  return (
    <div className="export-menu" ref={rootRef}>
      <button
        type="button"
        className="btn"
        aria-haspopup="menu"
        aria-expanded={open}
        data-testid="export-button"
        onClick={() => setOpen(!open)}
      >
        Export ▾
      </button>
      {open && (
        <div className="export-popup" role="menu" data-testid="export-menu">
          <p className="muted small">Secrets are masked (see the Secrets tab to unmask one).</p>
          <CopyLinkItem />
          {ITEMS.map((item) => {
            const why = disabled(item);
            return (
              <button
                type="button"
                role="menuitem"
                key={item.id}
                className="btn export-item"
                data-testid={`export-${item.id}`}
                disabled={why !== undefined || busy !== undefined}
                title={why}
                onClick={() => void run(item)}
              >
                {item.label}
                {busy === item.id ? ' …' : ''}
              </button>
            );
          })}
          {error && (
            <p className="error small" data-testid="export-error">
              {error}
            </p>
          )}
        </div>
      )}
    </div>
  );
}

/**
 * Copies the link to this view (file hash and name, strategy, knobs, selection, tab, search: never
 * the file's content) to the clipboard; says so, or why it could not.
 */
function CopyLinkItem() {
  const [said, setSaid] = useState<string>();
  const copy = async () => {
    const link = getCurrentLink();
    if (!link) {
      setSaid('The link is ready once the file is read (a moment after it opens)');
      return;
    }
    // A custom strategy's code is in no link: the link leaves it out and says how to share it.
    const strategyId = useReplayStore.getState().strategyId;
    const custom = isCustomStrategyId(strategyId)
      ? ` It leaves out the custom strategy ${getPageStrategyDescriptor(strategyId).label} (${strategyId}): a link never carries a strategy’s code. Send its .ts file too (Export .ts in the Custom strategy editor); the receiver imports it there and presses Run.`
      : '';
    try {
      await navigator.clipboard.writeText(link);
      setSaid(`Link copied: it opens this view on the same file, which the receiver drops in.${custom}`);
    } catch {
      setSaid(`Copy this link: ${link}.${custom}`);
    }
  };
  return (
    <>
      <button
        type="button"
        role="menuitem"
        className="btn export-item"
        data-testid="copy-link"
        onClick={() => void copy()}
      >
        Copy link to this view
      </button>
      {said && (
        <p className="muted small" role="status" data-testid="copy-link-status">
          {said}
        </p>
      )}
    </>
  );
}
