import { isCancelledError, type QueryClient } from '@tanstack/react-query';
import { loadsAfterMain } from '../../engine/parse/detect';
import { getEngineClient } from '../../worker/engine-client';
import { ABORT_ERROR, type LoadFile, type SessionId } from '../../worker/protocol';
import { sessionKey, sessionSummaryQuery } from '../queries';
import { useUiStore } from '../store';

let nextSessionId: SessionId = 1;
let inFlight: { sessionId: SessionId; abort: AbortController } | undefined;

/** Main transcript first, subagent files after: the order the parser expects the files in. */
export function sortSessionFiles(files: LoadFile[]): LoadFile[] {
  return [...files].sort((a, b) => Number(loadsAfterMain(a.name)) - Number(loadsAfterMain(b.name)));
}

/** Describes a set of files in a few words ("abc.jsonl + 2 subagent files"). */
export function describeFiles(files: LoadFile[]): string {
  if (files.length === 0) return 'nothing';
  const [first, ...rest] = files;
  const base = first!.name.split('/').pop() ?? first!.name;
  return rest.length === 0 ? base : `${base} + ${rest.length} more file${rest.length === 1 ? '' : 's'}`;
}

/**
 * Starts a new load (cancelling any load in flight). Reserves the session id first so the caller
 * can show progress while it fetches the bytes (`prepare`, e.g. downloading the bundled sample).
 */
export async function loadSession(
  queryClient: QueryClient,
  label: string,
  prepare: (signal: AbortSignal) => Promise<LoadFile[]>,
): Promise<void> {
  cancelLoad();
  const sessionId = nextSessionId++;
  const abort = new AbortController();
  inFlight = { sessionId, abort };
  const store = useUiStore.getState();
  store.startLoad({ sessionId, label, phase: 'fetching' });
  try {
    const files = sortSessionFiles(await prepare(abort.signal));
    abort.signal.throwIfAborted();
    store.setLoadPhase(
      sessionId,
      'parsing',
      label === describeFiles(files) ? label : `${label} (${describeFiles(files)})`,
    );
    await queryClient.fetchQuery({
      ...sessionSummaryQuery(sessionId),
      queryFn: ({ signal }) => {
        const forward = () => abort.abort();
        signal.addEventListener('abort', forward, { once: true });
        return getEngineClient().request(
          { kind: 'load', sessionId, files },
          { signal: abort.signal, onProgress: (p) => useUiStore.getState().setLoadProgress(sessionId, p) },
        );
      },
    });
    const previous = useUiStore.getState().currentSessionId;
    useUiStore.getState().finishLoad(sessionId);
    if (previous !== undefined && previous !== sessionId)
      queryClient.removeQueries({ queryKey: sessionKey(previous) });
  } catch (error) {
    queryClient.removeQueries({ queryKey: sessionKey(sessionId) });
    const cancelled =
      abort.signal.aborted || isCancelledError(error) || (error as Error)?.name === ABORT_ERROR;
    useUiStore
      .getState()
      .endLoad(
        sessionId,
        cancelled
          ? { kind: 'info', text: `Cancelled loading ${label}.` }
          : { kind: 'error', text: `Could not load ${label}: ${(error as Error)?.message ?? String(error)}` },
      );
  } finally {
    if (inFlight?.sessionId === sessionId) inFlight = undefined;
  }
}

/** Cancels the load in flight, if any; it shows "Cancelled" once the engine has stopped it. */
export function cancelLoad(): void {
  if (!inFlight) return;
  useUiStore.getState().setLoadCancelling(inFlight.sessionId);
  inFlight.abort.abort();
}
