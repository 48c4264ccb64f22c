// Tabs of one origin share the runs database but not their query caches: a run saved, renamed,
// starred, imported or deleted in one tab is announced on a BroadcastChannel, and every other
// tab invalidates its runs query. A channel object never hears its own messages, so the tab that
// made the change (which refreshes itself) does not refetch twice.

const RUNS_CHANNEL = 'compactlab-runs';

interface RunsChangedMessage {
  kind: 'runs-changed';
}

let channel: BroadcastChannel | null | undefined;

function getChannel(): BroadcastChannel | undefined {
  if (channel === undefined) {
    channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(RUNS_CHANNEL) : null;
    // In Node (tests) an open channel would keep the process alive.
    (channel as { unref?: () => void } | null)?.unref?.();
  }
  return channel ?? undefined;
}

/** Tells the other tabs that the stored runs changed. */
export function announceRunsChanged(): void {
  try {
    getChannel()?.postMessage({ kind: 'runs-changed' } satisfies RunsChangedMessage);
  } catch {
    // A closed or unsupported channel: the other tabs refresh on their next load.
  }
}

/** Calls `onChange` when another tab changes the stored runs; returns the unsubscribe. */
export function subscribeToRunsChanged(onChange: () => void): () => void {
  const target = getChannel();
  if (!target) return () => {};
  const listener = (event: MessageEvent<RunsChangedMessage>) => {
    if (event.data?.kind === 'runs-changed') onChange();
  };
  target.addEventListener('message', listener);
  return () => target.removeEventListener('message', listener);
}
