import { useQueries } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { getEngineClient } from '../../worker/engine-client';
import type { SessionId } from '../../worker/protocol';
import { formatCount } from '../common/format';
import { useUiStore } from '../store';

// The conversation view's pages of turns, from the worker (Markdown read there); their drawing,
// conversation-view.tsx, is loaded the first time the view is shown: not part of the first load.

const PAGE_TURNS = 150;

const ConversationTurns = lazy(() =>
  import('./conversation-view').then((m) => ({ default: m.ConversationTurns })),
);

export function ConversationView({ sessionId }: { sessionId: SessionId }) {
  // Pages of turns, one query each (an infinite query would put its observer in the first load).
  const [pageCount, setPageCount] = useState(1);
  const selectEntry = useUiStore((s) => s.selectEntry);
  const results = useQueries({
    queries: Array.from({ length: pageCount }, (_, page) => ({
      queryKey: ['session', sessionId, 'conversation', page],
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        getEngineClient().request(
          { kind: 'conversation-page', sessionId, start: page * PAGE_TURNS, count: PAGE_TURNS },
          { signal },
        ),
    })),
  });
  const error = results.find((r) => r.error)?.error;
  if (error) return <div className="panel-message error">{error.message}</div>;
  const total = results[0]?.data?.total;
  const turns = results.flatMap((r) => r.data?.turns ?? []);
  const fetching = results.some((r) => r.isFetching);
  const left = (total ?? 0) - turns.length;
  return (
    <div className="conversation" data-testid="conversation" role="feed" aria-label="Conversation">
      {total === undefined && <p className="muted small">Reading the conversation…</p>}
      {total === 0 && <p className="muted small">No messages in this transcript.</p>}
      <Suspense fallback={<p className="muted small">Loading the conversation view…</p>}>
        <ConversationTurns turns={turns} onOpen={(i) => selectEntry(i, true)} />
      </Suspense>
      {!fetching && left > 0 && (
        <button
          type="button"
          className="btn conv-more"
          data-testid="conv-more"
          onClick={() => setPageCount(pageCount + 1)}
        >
          Show {formatCount(Math.min(PAGE_TURNS, left))} more of {formatCount(left)} messages
        </button>
      )}
    </div>
  );
}
