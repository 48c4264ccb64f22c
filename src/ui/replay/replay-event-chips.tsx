import type { ReplayEvent } from '../../engine/replay/types';
import { useRovingFocus } from '../common/use-roving-focus';
import { useScrollStrip } from '../common/use-scroll-strip';
import { useUiStore } from '../store';
import { describeReplayEvent, EVENT_GLYPHS } from './replay-overlay';
import { useReplayStore } from './replay-store';
import { StripArrow } from '../common/strip-arrow';

// The replay's events as chips, one line under the strip that scrolls sideways (a dense replay
// never pushes the transcript down). A line cut at an edge said nothing of the chips past it (a
// real Cline history at 1280): a ‹ or › there says more follow and scrolls to them. The chips are one
// Tab stop, ← → Home End move among them (a focused chip is scrolled into view), and the open
// event's chip is kept in view.

export function ReplayEventChips({ events }: { events: readonly ReplayEvent[] }) {
  const openEvent = useReplayStore((s) => s.openEvent);
  const openEventCard = useReplayStore((s) => s.openEventCard);
  const selectEntry = useUiStore((s) => s.selectEntry);
  const strip = useScrollStrip(openEvent === undefined ? undefined : String(openEvent), events.length);
  const roving = useRovingFocus(events.length, openEvent);
  return (
    <div className="replay-events-strip" data-testid="replay-events-strip" data-overflow={strip.overflow}>
      {strip.before && (
        <StripArrow
          side="before"
          label="Earlier events"
          testId="replay-events-before"
          onScroll={strip.scrollBy}
        />
      )}
      <div
        className="replay-events"
        data-testid="replay-events"
        ref={strip.ref}
        role="toolbar"
        aria-label="Replay events (← → move)"
        onKeyDown={roving.onKeyDown}
      >
        {events.map((e, i) => (
          <button
            type="button"
            // biome-ignore lint/suspicious/noArrayIndexKey: events are positional within one run.
            key={i}
            className={`replay-chip kind-${e.kind} ${openEvent === i ? 'open' : ''}`}
            data-testid="replay-event-chip"
            data-strip-key={i}
            {...roving.itemProps(i)}
            data-after-call={e.afterApiCall}
            title={describeReplayEvent(e)}
            onClick={() => {
              openEventCard(i);
              selectEntry(e.afterEntryIndex, true);
            }}
          >
            {EVENT_GLYPHS[e.kind]} {e.afterApiCall + 1}
          </button>
        ))}
      </div>
      {strip.after && (
        <StripArrow
          side="after"
          label="Later events"
          testId="replay-events-after"
          onScroll={strip.scrollBy}
        />
      )}
    </div>
  );
}
