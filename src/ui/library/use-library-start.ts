import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useUiStore } from '../store';
import { checkFollowUrls } from './follow-urls';
import { createUrlLiveSource, setLiveSource, startLive } from './live';
import { reopenIfAllowed, restoreRoots } from './open-folder';
import { getListing } from './library-queries';
import { openLibrarySession } from './open-session';
import { getPendingLinkName } from '../use-url-state';

let started = false;

/**
 * At start: every listed folder's listing comes back from the cache (and each folder is read again
 * where its kept directory handle may still be read without asking), and `?follow=<url>` follows a
 * file served at that address (a log another program appends to; the e2e test's live source),
 * with the files of further `follow` parameters (its subagent logs, their .meta.json): the page's
 * own origin, or another server on this machine once the user confirms, never another host.
 */
export function useLibraryOnStart(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (started) return; // StrictMode runs effects twice in dev
    started = true;
    void restoreRoots().then(async (roots) => {
      let readable = false;
      // One after the other: each reopening is a folder walk and a scan of what changed.
      for (const root of roots) if (root.handle && (await reopenIfAllowed(root.handle))) readable = true;
      // A link opened as the library comes back (issue 24 item 2): its session is opened from the
      // folder when the folder names one file so called and can be read without asking; else the
      // library says which file the link waits for (app.tsx's LinkWaiting).
      const name = getPendingLinkName();
      if (!readable || !name || useUiStore.getState().currentSessionId !== undefined) return;
      const keys = getListing()?.sessions.map((s) => s.key) ?? [];
      const matches = keys.filter((key) => (key.split('/').pop() ?? key) === name);
      if (matches.length === 1) void openLibrarySession(queryClient, matches[0]!);
    });
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
