import { useEffect, useRef } from 'react';
import type { SessionId } from '../../worker/protocol';
import { CompareStrategiesPanel } from './compare-strategies-panel';
import { ReplayKnobs } from './replay-knobs';
import { useReplayStore } from './replay-store';
import { SweepPanel } from './sweep-panel';
import { useReplayKnobs, useReplaySetup } from './use-replay';

// The replay's larger panels (Knobs, Sweep, Compare) open in a drawer over the side panel, beside
// the transcript: the page never scrolls as a whole, the header and the timeline stay where they
// are, and the transcript keeps its height and most of its width (issue 24 item 3). The drawer
// scrolls on its own when its panels are taller than the workspace.

export function ReplayDrawer({ sessionId }: { sessionId: SessionId }) {
  const setup = useReplaySetup(sessionId);
  const knobs = useReplayKnobs(sessionId);
  const enabled = useReplayStore((s) => s.enabled);
  const knobsOpen = useReplayStore((s) => s.knobsOpen);
  const sweepOpen = useReplayStore((s) => s.sweepOpen);
  const compareOpen = useReplayStore((s) => s.compareOpen);
  const setCompareOpen = useReplayStore((s) => s.setCompareOpen);
  const data = setup.data;
  // A panel opened while others are shown is scrolled into view (the drawer keeps its scroll).
  const drawerRef = useRef<HTMLElement>(null);
  const shown = useRef({ knobsOpen, sweepOpen, compareOpen });
  useEffect(() => {
    const before = shown.current;
    shown.current = { knobsOpen, sweepOpen, compareOpen };
    const opened =
      compareOpen && !before.compareOpen
        ? 'compare-panel'
        : sweepOpen && !before.sweepOpen
          ? 'sweep-panel'
          : knobsOpen && !before.knobsOpen
            ? 'replay-knobs'
            : undefined;
    if (opened)
      drawerRef.current?.querySelector(`[data-testid="${opened}"]`)?.scrollIntoView({ block: 'start' });
  }, [knobsOpen, sweepOpen, compareOpen]);
  if (!enabled || !data) return null;
  const showKnobs = knobsOpen && knobs !== undefined;
  const showCompare = compareOpen && data.strategies.length > 1;
  if (!showKnobs && !sweepOpen && !showCompare) return null;
  return (
    <aside ref={drawerRef} className="replay-drawer" data-testid="replay-drawer" aria-label="Replay panels">
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
      {sweepOpen && <SweepPanel key={data.strategyId} sessionId={sessionId} specs={data.knobSpecs} />}
      {showCompare && (
        <CompareStrategiesPanel
          // A new session starts the view afresh (its picks, its run).
          key={sessionId}
          sessionId={sessionId}
          strategies={data.strategies}
          onClose={() => setCompareOpen(false)}
        />
      )}
    </aside>
  );
}
