import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef } from 'react';
import { getDefaultStrategyId } from '../../engine/strategies/descriptors';
import type { SessionId } from '../../worker/protocol';
import { useStrategyChoices } from '../custom/custom-registry';
import { sessionOverviewQuery } from '../queries';
import { ReplayKnobs } from './replay-knobs';
import { useReplayStore } from './replay-store';
import { useReplayKnobs, useReplaySetup } from './use-replay';

// The replay's larger panels (Knobs, Sweep, Compare, the custom strategy's editor) open in a drawer over the side panel, beside
// the transcript: the page never scrolls as a whole, the header and the timeline stay where they
// are, and the transcript keeps its height, and its width with Knobs alone; Sweep and Compare,
// whose charts need more, widen the side panel's column and the transcript narrows rather than
// lying under the drawer (issue 24 item 3; replay.css says how wide). The drawer scrolls on its
// own when its panels are taller than the workspace. The custom strategy's editor and its result
// opened inline in the strip once: at 1280x720 the page then scrolled, and the Summaries bar lay
// over the transcript's filter chips.

/** Loaded when first opened: neither is part of the page's first load (scripts/entry-size.mjs). */
const CompareStrategiesPanel = lazy(() =>
  import('./compare-strategies-panel').then((m) => ({ default: m.CompareStrategiesPanel })),
);
const SweepPanel = lazy(() => import('./sweep-panel').then((m) => ({ default: m.SweepPanel })));
/** The editor, Monaco's TypeScript worker and the sandbox load only when the panel opens. */
const CustomStrategyPanel = lazy(() =>
  import('../custom/custom-strategy-panel').then((m) => ({ default: m.CustomStrategyPanel })),
);

export function ReplayDrawer({ sessionId }: { sessionId: SessionId }) {
  const setup = useReplaySetup(sessionId);
  const knobs = useReplayKnobs(sessionId);
  const enabled = useReplayStore((s) => s.enabled);
  const knobsOpen = useReplayStore((s) => s.knobsOpen);
  const sweepOpen = useReplayStore((s) => s.sweepOpen);
  const compareOpen = useReplayStore((s) => s.compareOpen);
  const setCompareOpen = useReplayStore((s) => s.setCompareOpen);
  const customOpen = useReplayStore((s) => s.customOpen);
  const setCustomOpen = useReplayStore((s) => s.setCustomOpen);
  const overview = useQuery(sessionOverviewQuery(sessionId)).data;
  const data = setup.data;
  // Custom strategies the user has run are compared beside the built-ins (their sandbox runs it).
  const strategies = useStrategyChoices(sessionId, data?.strategies) ?? [];
  // A panel opened while others are shown is scrolled into view (the drawer keeps its scroll).
  const drawerRef = useRef<HTMLElement>(null);
  const shown = useRef({ knobsOpen, sweepOpen, compareOpen, customOpen });
  useEffect(() => {
    const before = shown.current;
    shown.current = { knobsOpen, sweepOpen, compareOpen, customOpen };
    const opened =
      customOpen && !before.customOpen
        ? 'custom-strategy'
        : compareOpen && !before.compareOpen
          ? 'compare-panel'
          : sweepOpen && !before.sweepOpen
            ? 'sweep-panel'
            : knobsOpen && !before.knobsOpen
              ? 'replay-knobs'
              : undefined;
    if (!opened) return;
    // A panel still loading (lazy) is scrolled to once it is there: a frame at a time, while the
    // person waits for it (the focus still on the strip's button, or nowhere) and 30 s at most
    // (ours). It was 3 s: on a loaded machine the custom strategy's editor chunk took longer, and
    // the panel opened without the focus.
    // Opened from its button in the strip, it takes the focus too: the drawer comes after the
    // transcript and the side panel in the page's order, a long way by Tab. Escape, or the button
    // again, brings the focus back (common/use-escape.ts).
    const start = performance.now();
    let frame = 0;
    const focusInStrip = () => !!document.activeElement?.closest('[data-testid="replay-section"]');
    const waiting = () =>
      (focusInStrip() || document.activeElement === document.body) && performance.now() - start < 30_000;
    const scroll = () => {
      const el = drawerRef.current?.querySelector<HTMLElement>(`[data-testid="${opened}"]`);
      if (el) {
        el.scrollIntoView({ block: 'start' });
        // The panel itself (tabIndex -1), not its first control: that may be a Cancel that goes
        // once the first run is in, and the focus with it.
        if (focusInStrip()) el.focus({ preventScroll: true });
      } else if (waiting()) frame = requestAnimationFrame(scroll);
    };
    scroll();
    return () => cancelAnimationFrame(frame);
  }, [knobsOpen, sweepOpen, compareOpen, customOpen]);
  // The editor is not gated on the setup: that loads again after each pick in the strip, and the
  // editor would unmount meanwhile. Its own strategy is the log's, not the one picked.
  const showCustom = enabled && customOpen && overview !== undefined;
  if (!enabled || (!data && !showCustom)) return null;
  const showKnobs = knobsOpen && knobs !== undefined && data !== undefined;
  const showCompare = compareOpen && strategies.length > 1;
  const showSweep = sweepOpen && data !== undefined;
  if (!showKnobs && !showSweep && !showCompare && !showCustom) return null;
  return (
    <aside
      ref={drawerRef}
      // Sweep's and Compare's charts and tables need more than a narrow side panel (replay.css).
      className={`replay-drawer${showSweep || showCompare || showCustom ? ' wide' : ''}`}
      data-testid="replay-drawer"
      aria-label="Replay panels"
    >
      {showKnobs && (
        <>
          <ReplayKnobs
            sessionId={sessionId}
            specs={data.knobSpecs}
            knobs={knobs}
            logKnobs={data.sessionKnobs}
          />
          <ul className="replay-notes small muted">
            {data.notes.map((n) => (
              <li key={n}>{n}</li>
            ))}
          </ul>
        </>
      )}
      <Suspense fallback={<p className="muted small pad">Loading…</p>}>
        {showSweep && <SweepPanel key={data.strategyId} sessionId={sessionId} specs={data.knobSpecs} />}
        {showCompare && (
          <CompareStrategiesPanel
            // A new session starts the view afresh (its picks, its run).
            key={sessionId}
            sessionId={sessionId}
            strategies={strategies}
            onClose={() => setCompareOpen(false)}
          />
        )}
        {showCustom && (
          <CustomStrategyPanel
            key={sessionId}
            sessionId={sessionId}
            ownStrategyId={getDefaultStrategyId(overview.format, overview.meta.agent)}
            onClose={() => setCustomOpen(false)}
          />
        )}
      </Suspense>
    </aside>
  );
}
