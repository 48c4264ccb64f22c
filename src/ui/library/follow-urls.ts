// What `?follow=` may poll. A link is not the user's choice: left open, `?follow=` polled any URL
// the page's Content-Security-Policy allows once a second (`https://api.anthropic.com/…`, any local
// port and path). So: the page's own origin (a file served beside the app), or, confirmed by the
// user, a file on this machine (127.0.0.1, localhost, [::1]) that another local server serves;
// never another host, never anything but http(s).

/** ours: a session and its subagent logs; more is not a session being written. */
export const MAX_FOLLOWED_URLS = 32;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

interface FollowVerdict {
  /** The URLs that may be followed (absolute), in order, each once. */
  urls: string[];
  /** Set when some are on this machine but not the page's origin: the user confirms them first. */
  confirm?: string;
  /** Why the link's URLs are not followed at all (a third-party host, a bad scheme, too many). */
  refused?: string;
}

/** The verdict on a link's `follow` parameters, seen from the page at `pageHref`. */
export function checkFollowUrls(params: readonly string[], pageHref: string): FollowVerdict {
  const page = new URL(pageHref);
  const urls: string[] = [];
  const otherLocal = new Set<string>();
  for (const param of params) {
    let url: URL;
    try {
      url = new URL(param, page);
    } catch {
      return { urls: [], refused: `?follow= names no URL: "${param}"` };
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      return {
        urls: [],
        refused: `?follow= follows files served over http(s), not ${url.protocol} (${param})`,
      };
    if (url.username || url.password) return { urls: [], refused: '?follow= URLs carry no credentials' };
    if (url.origin !== page.origin) {
      if (!LOOPBACK.has(url.hostname))
        return {
          urls: [],
          refused: `?follow= follows files of this page's server or of this machine, not ${url.host}: nothing is followed`,
        };
      otherLocal.add(url.origin);
    }
    if (!urls.includes(url.href)) urls.push(url.href);
  }
  if (urls.length > MAX_FOLLOWED_URLS)
    return {
      urls: [],
      refused: `?follow= names ${urls.length} files; a session and its logs are at most ${MAX_FOLLOWED_URLS}`,
    };
  return otherLocal.size > 0
    ? {
        urls,
        confirm: `This link asks to read, every second, files served by another program on this machine (${[...otherLocal].join(', ')}):\n\n${urls.join('\n')}\n\nFollow them?`,
      }
    : { urls };
}
