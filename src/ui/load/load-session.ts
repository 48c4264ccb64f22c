import { isCancelledError, type QueryClient } from '@tanstack/react-query';
import { loadsAfterMain } from '../../engine/parse/detect';
import { getEngineClient } from '../../worker/engine-client';
import { forgetCustomStrategiesOtherThan } from '../custom/custom-registry';
import { ABORT_ERROR, type LoadFile, type SessionAppendResult, type SessionId } from '../../worker/protocol';
import { sessionKey, sessionOverviewQuery, timelineQuery } from '../queries';
import { useLibraryStore } from '../library/library-store';
import { useReplayStore } from '../replay/replay-store';
import { useUiStore } from '../store';

let nextSessionId: SessionId = 1;
let inFlight: { sessionId: SessionId; abort: AbortController; stop?: AbortController } | undefined;

/** Main transcript first, subagent files after: the order the parser expects the files in. */
export function sortSessionFiles<F extends { name: string }>(files: readonly F[]): F[] {
  return [...files].sort((a, b) => Number(loadsAfterMain(a.name)) - Number(loadsAfterMain(b.name)));
}

/** Describes a set of files in a few words ("abc.jsonl + 2 subagent files"). */
export function describeFiles(files: readonly { name: string }[]): string {
  if (files.length === 0) return 'nothing';
  const [first, ...rest] = files;
  const base = first!.name.split('/').pop() ?? first!.name;
  return rest.length === 0 ? base : `${base} + ${rest.length} more file${rest.length === 1 ? '' : 's'}`;
}

/**
 * What a load is called once its files are known: the label, and the files where they say more. A
 * library row's label is its main file's name, which the files' description starts with: that one
 * alone (the tab read "abc.jsonl (abc.jsonl + 8 more files)").
 */
function labelWithFiles(label: string, files: readonly { name: string }[]): string {
  const described = describeFiles(files);
  return described === label || described.startsWith(`${label} + `) ? described : `${label} (${described})`;
}

/**
 * Starts a new load (cancelling any load in flight). Reserves the session id first so the caller
 * can show progress while it fetches the bytes (`prepare`, e.g. downloading the bundled sample).
 * Resolves to true when this load's session is the one shown (false: it failed or was cancelled).
 */
let loadedFiles: { sessionId: SessionId; files: LoadFile[] } | undefined;

/** The files of the loaded session (the blobs, not copies), when `sessionId` is the one loaded. */
export function getLoadedFiles(sessionId: SessionId): LoadFile[] | undefined {
  return loadedFiles?.sessionId === sessionId ? loadedFiles.files : undefined;
}

export async function loadSession(
  queryClient: QueryClient,
  label: string,
  prepare: (signal: AbortSignal) => Promise<LoadFile[]>,
  options: {
    live?: boolean;
    /** The person opened it (a pick, a drop, a recent file): show the session, not the library. */
    show?: boolean;
  } = {},
): Promise<boolean> {
  cancelLoad();
  if (options.show) useLibraryStore.getState().showView('session');
  const sessionId = nextSessionId++;
  const abort = new AbortController();
  // Cancel once calls are drawn stops the read and keeps what was read (issue 20 item 2).
  const stop = new AbortController();
  inFlight = { sessionId, abort, stop };
  const store = useUiStore.getState();
  store.startLoad({ sessionId, label, phase: 'fetching' });
  try {
    const files = sortSessionFiles(await prepare(abort.signal));
    abort.signal.throwIfAborted();
    store.setLoadPhase(sessionId, 'parsing', labelWithFiles(label, files));
    const overview = await queryClient.fetchQuery({
      ...sessionOverviewQuery(sessionId),
      queryFn: ({ signal }) => {
        const forward = () => abort.abort();
        signal.addEventListener('abort', forward, { once: true });
        return getEngineClient().request(
          { kind: 'load', sessionId, files, live: options.live },
          {
            signal: abort.signal,
            stop: stop.signal,
            onProgress: (p) => useUiStore.getState().setLoadProgress(sessionId, p),
          },
        );
      },
    });
    performance.mark('compactlab:load:overview-received');
    // The timeline's series asked for now, before the session's first render posts the replay's
    // setup (prepareReplay: 270 ms on the 105 MB bench file) ahead of it: the worker answers in
    // order, and the timeline is what the load waits to show (issue 20). Awaited (9 ms there): the
    // session's first render then draws it, where a first render without it (50 ms) and a second
    // with it came before the timeline showed.
    if (!overview.notTranscript) {
      await queryClient.prefetchQuery(timelineQuery(sessionId));
      abort.signal.throwIfAborted();
    }
    const previous = useUiStore.getState().currentSessionId;
    useUiStore.getState().finishLoad(sessionId);
    // Files of other sessions were left out (engine parse/other-sessions.ts): the label names what
    // was read ("logs.json + 3 more files" named a file not read).
    const read = overview.files.filter((f) => f.role !== 'other-session');
    if (read.length < overview.files.length && useUiStore.getState().currentSessionId === sessionId)
      useUiStore.setState({
        currentLabel: `${describeFiles(read)} (${overview.files.length - read.length} of other sessions left out)`,
      });
    const partial = overview.meta.partialRead;
    if (partial)
      useUiStore.setState({
        notice: {
          kind: 'info',
          text: `Stopped reading ${label} at ${Math.floor((100 * partial.bytesRead) / Math.max(1, partial.totalBytes))}%: the session shows what was read before (partial; its Issues tab says where).`,
        },
      });
    // The files, for the custom strategy's sandbox (it loads the session in a worker of its own).
    loadedFiles = { sessionId, files };
    if (previous !== undefined && previous !== sessionId)
      queryClient.removeQueries({ queryKey: sessionKey(previous) });
    forgetCustomStrategiesOtherThan(sessionId);
    return true;
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
    return false;
  } finally {
    if (inFlight?.sessionId === sessionId) inFlight = undefined;
  }
}

/**
 * Live mode: gives the engine the followed main file, grown (cut at its last newline); it parses
 * only the bytes past its last read when it can. The grown session replaces the shown one under a
 * new id (every view asks again, the timeline grows). Undefined when it failed or was cancelled
 * (said in the notice, as a load's failure is).
 */
export async function appendSession(
  queryClient: QueryClient,
  label: string,
  file: LoadFile,
  others: LoadFile[],
): Promise<SessionAppendResult | undefined> {
  const current = useUiStore.getState().currentSessionId;
  if (inFlight) return undefined;
  const sessionId = nextSessionId++;
  const abort = new AbortController();
  inFlight = { sessionId, abort };
  let step: SessionAppendResult | undefined;
  try {
    await queryClient.fetchQuery({
      ...sessionOverviewQuery(sessionId),
      queryFn: async () => {
        step = await getEngineClient().request(
          { kind: 'session-append', sessionId: current, newSessionId: sessionId, file, others },
          { signal: abort.signal },
        );
        return step.summary;
      },
    });
    // The same session, grown: its replay state (strategy, knob overrides, manual compactions)
    // carries over to the new id rather than starting again as for another file.
    const replay = useReplayStore.getState();
    if (current !== undefined && replay.sessionId === current) useReplayStore.setState({ sessionId });
    // Appended entries keep their indices: the selection stays, unless they moved (the main file
    // grew under subagent entries) or a file was parsed again.
    if (step?.indicesKept) useUiStore.setState({ currentSessionId: sessionId });
    else {
      const store = useUiStore.getState();
      store.startLoad({ sessionId, label, phase: 'parsing' });
      store.finishLoad(sessionId);
    }
    if (current !== undefined) queryClient.removeQueries({ queryKey: sessionKey(current) });
    return step;
  } catch (error) {
    queryClient.removeQueries({ queryKey: sessionKey(sessionId) });
    if (abort.signal.aborted || isCancelledError(error) || (error as Error)?.name === ABORT_ERROR)
      return undefined;
    throw error;
  } finally {
    if (inFlight?.sessionId === sessionId) inFlight = undefined;
  }
}

/**
 * Cancels the load in flight, if any, keeping nothing of it (the session shown stays); it shows
 * "Cancelled" once the engine has stopped it.
 */
export function cancelLoad(): void {
  if (!inFlight) return;
  useUiStore.getState().setLoadCancelling(inFlight.sessionId);
  inFlight.abort.abort();
}

/**
 * Stops the read in flight and opens what was read, said to be partial (the load preview's button,
 * once calls are drawn); before any call is read there is nothing to keep, and it cancels.
 */
export function stopLoad(): void {
  if (!inFlight) return;
  const loading = useUiStore.getState().loading;
  if (!inFlight.stop || loading?.sessionId !== inFlight.sessionId || (loading.contexts?.length ?? 0) === 0) {
    cancelLoad();
    return;
  }
  useUiStore.getState().setLoadCancelling(inFlight.sessionId);
  inFlight.stop.abort();
}
