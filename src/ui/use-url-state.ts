import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { create } from 'zustand';
import { STRATEGY_DESCRIPTORS } from '../engine/strategies/descriptors';
import { isCustomStrategyId } from './custom/custom-registry';
import { useReplayStore } from './replay/replay-store';
import { type SidePanel, useUiStore } from './store';
import { summariesInfoQuery } from './summaries/summaries-queries';
import { useZoomStore } from './timeline/zoom-store';
import { isSameFile, loadSecretCheck, readUrlState, type UrlViewState, writeUrlState } from './url-state';

// Keeps the shareable view state (url-state.ts) in the address bar: read once at start and
// applied when a file with the same content hash is loaded (else the page says the link was made
// for another file and applies nothing), then written back with replaceState, debounced, as the
// strategy, knobs, selected entry, open event or tab change.

/** Changes settle this long before the address bar is rewritten. */
const URL_WRITE_DEBOUNCE_MS = 300;
/** How long after a load the address first names the file when no link waits for it. */
const URL_HASH_DELAY_MS = 1_500;

const PANELS: readonly SidePanel[] = ['detail', 'tokens', 'issues', 'bash', 'secrets', 'erosion'];

/** A link refused because another file was loaded: the name it was made for, until dismissed. */
export const useLinkNotice = create<{ otherFile?: string; dismiss(): void }>()((set) => ({
  dismiss: () => set({ otherFile: undefined }),
}));

/** The link's state, until a file is loaded (then applied or refused, and dropped). */
let pending: UrlViewState | undefined;
let pendingRead = false;

function readPendingOnce(): void {
  if (pendingRead) return;
  pendingRead = true;
  pending = readUrlState(window.location.search);
}

/** True when the page was opened from a link that waits for its file (the sample is not opened then). */
export function hasPendingLink(): boolean {
  readPendingOnce();
  return pending !== undefined;
}

/** The file name a waiting link names ('' when it names none); undefined when no link waits. */
export function getPendingLinkName(): string | undefined {
  readPendingOnce();
  return pending === undefined ? undefined : (pending.name ?? '');
}

function currentState(file: string, name: string): UrlViewState {
  const ui = useUiStore.getState();
  const replay = useReplayStore.getState();
  const zoom = useZoomStore.getState();
  // A custom strategy stays out of links: it exists only where it was run (custom-registry.ts).
  const custom = isCustomStrategyId(replay.strategyId);
  const overrides = custom ? {} : (replay.overrides[replay.strategyId] ?? {});
  return {
    file,
    name,
    strategy: replay.strategyChosen && !custom ? replay.strategyId : undefined,
    knobs: { ...overrides },
    entry: ui.selectedEntry,
    event: replay.openEvent,
    view: ui.panel === 'detail' ? undefined : ui.panel,
    search: ui.search || undefined,
    zoom: zoom.sessionId === ui.currentSessionId ? zoom.view : undefined,
  };
}

/** The link to this view, once the loaded file's hash is known (the Copy link button's text). */
let currentLink: (() => string) | undefined;

export function getCurrentLink(): string | undefined {
  return currentLink?.();
}

/** Applies a link's state to a freshly loaded session, once its replay state has started. */
function applyState(sessionId: number, linked: UrlViewState): () => void {
  const ui = useUiStore.getState();
  // A strategy the page does not know (a custom one's id: no link runs code) is ignored, and its knobs.
  const known = (id: string) => STRATEGY_DESCRIPTORS.some((d) => d.id === id) || isCustomStrategyId(id);
  const state =
    linked.strategy !== undefined && !known(linked.strategy)
      ? { ...linked, strategy: undefined, knobs: {} }
      : linked;
  if (state.strategy && state.strategy !== useReplayStore.getState().strategyId)
    useReplayStore.getState().setStrategy(state.strategy);
  // The search first: the selected entry is revealed in the rows it leaves.
  if (state.search) ui.setSearch(state.search);
  if (state.entry !== undefined) ui.selectEntry(state.entry, true);
  if (state.view && (PANELS as readonly string[]).includes(state.view)) ui.setPanel(state.view as SidePanel);
  // The zoom range (the chart clamps it to the session's calls).
  if (state.zoom) useZoomStore.getState().setView(sessionId, state.zoom);
  // Knobs and the open event belong to the session's replay state, which starts (and resets the
  // overrides) once the strategy's setup is in.
  let done = false;
  const finish = (): boolean => {
    const replay = useReplayStore.getState();
    if (done) return true;
    if (replay.sessionId !== sessionId || (state.strategy && replay.strategyId !== state.strategy))
      return false;
    // Set first: the writes below notify this store's listeners, this one included, synchronously.
    done = true;
    for (const [key, value] of Object.entries(state.knobs)) replay.setKnob(key, value ?? null);
    if (state.event !== undefined) replay.openEventCard(state.event);
    return true;
  };
  if (finish()) return () => {};
  const unsubscribe = useReplayStore.subscribe(() => {
    if (finish()) unsubscribe();
  });
  return unsubscribe;
}

/** Resolves once the page has been idle after its load (the timeline drawn), at most 3 s on. */
function afterFirstDraw(): Promise<void> {
  return new Promise((resolve) => {
    const idle = (window as { requestIdleCallback?: (cb: () => void, o: { timeout: number }) => number })
      .requestIdleCallback;
    setTimeout(() => (idle ? idle(() => resolve(), { timeout: 3_000 }) : resolve()), URL_HASH_DELAY_MS);
  });
}

export function useUrlState(): void {
  const queryClient = useQueryClient();
  const sessionId = useUiStore((s) => s.currentSessionId);
  useEffect(() => {
    readPendingOnce();
    if (sessionId === undefined) return;
    let cancelled = false;
    let stopApply: (() => void) | undefined;
    let stopWrite: (() => void) | undefined;
    void (async () => {
      let info: { contentHash: string; name: string };
      // The hash reads the whole main file in the worker: without a link waiting for it, it waits
      // until the page is drawn, so it never queues before the timeline's own requests.
      if (!pending) await afterFirstDraw();
      if (cancelled) return;
      try {
        info = await queryClient.fetchQuery(summariesInfoQuery(sessionId));
      } catch {
        return; // not a transcript, or replaced by a newer load
      }
      const looksSecret = await loadSecretCheck();
      if (cancelled) return;
      const name = info.name.split(/[\\/]/).pop() ?? info.name;
      const link = pending;
      pending = undefined;
      useLinkNotice.getState().dismiss();
      if (link) {
        if (isSameFile(link, info.contentHash)) stopApply = applyState(sessionId, link);
        else useLinkNotice.setState({ otherFile: link.name ?? `content ${link.file}` });
      }
      let timer: ReturnType<typeof setTimeout> | undefined;
      const write = () => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          if (cancelled || useUiStore.getState().currentSessionId !== sessionId) return;
          const search = writeUrlState(
            window.location.search,
            currentState(info.contentHash, name),
            looksSecret,
          );
          if (search !== window.location.search)
            window.history.replaceState(
              window.history.state,
              '',
              `${window.location.pathname}${search}${window.location.hash}`,
            );
        }, URL_WRITE_DEBOUNCE_MS);
      };
      const a = useUiStore.subscribe(write);
      const b = useReplayStore.subscribe(write);
      const c = useZoomStore.subscribe(write);
      const makeLink = () =>
        `${window.location.origin}${window.location.pathname}${writeUrlState(window.location.search, currentState(info.contentHash, name), looksSecret)}`;
      currentLink = makeLink;
      stopWrite = () => {
        clearTimeout(timer);
        if (currentLink === makeLink) currentLink = undefined;
        a();
        b();
        c();
      };
      write();
    })();
    return () => {
      cancelled = true;
      stopApply?.();
      stopWrite?.();
    };
  }, [sessionId, queryClient]);
}
