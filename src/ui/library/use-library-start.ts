import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useUiStore } from '../store';
import { checkFollowUrls } from './follow-urls';
import { createUrlLiveSource, setLiveSource, startLive } from './live';
import { reopenIfAllowed, restoreLastFolder } from './open-folder';

let started = false;

/**
 * At start: the last folder's listing comes back from the cache (and its folder is read again
 * where a kept directory handle may still be read without asking), and `?follow=<url>` follows a
 * file served at that address (a log another program appends to; the e2e test's live source),
 * with the files of further `follow` parameters (its subagent logs, their .meta.json): the page's
 * own origin, or another server on this machine once the user confirms, never another host.
 */
export function useLibraryOnStart(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (started) return; // StrictMode runs effects twice in dev
    started = true;
    void restoreLastFolder().then((handle) => handle && reopenIfAllowed(handle));
    const follow = new URLSearchParams(window.location.search).getAll('follow');
    if (follow.length === 0) return;
    // Only the page's own files, or this machine's once the user says so (follow-urls.ts).
    const verdict = checkFollowUrls(follow, window.location.href);
    if (verdict.refused || (verdict.confirm && !window.confirm(verdict.confirm))) {
      useUiStore.setState({
        notice: { kind: 'error', text: verdict.refused ?? '?follow=: not followed, as you chose' },
      });
      return;
    }
    setLiveSource(createUrlLiveSource(verdict.urls));
    startLive(queryClient);
  }, [queryClient]);
}
