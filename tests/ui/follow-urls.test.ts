import { describe, expect, it } from 'vitest';
import { checkFollowUrls, MAX_FOLLOWED_URLS } from '../../src/ui/library/follow-urls';

// `?follow=` polled any URL the CSP allowed once a second, from a link: a third-party API, any
// local port and path. Now: the page's own files; another local server's only once confirmed;
// never another host or scheme.

const PAGE = 'http://127.0.0.1:4173/?sample=0';

describe('checkFollowUrls', () => {
  it("follows the page's own files without asking, each once", () => {
    expect(checkFollowUrls(['/live/session.jsonl', '/live/a.jsonl', '/live/session.jsonl'], PAGE)).toEqual({
      urls: ['http://127.0.0.1:4173/live/session.jsonl', 'http://127.0.0.1:4173/live/a.jsonl'],
    });
  });

  it('asks before following a file another program serves on this machine', () => {
    for (const url of [
      'http://localhost:8000/s.jsonl',
      'http://127.0.0.1:9999/x',
      'http://[::1]:8000/s.jsonl',
    ]) {
      const verdict = checkFollowUrls([url], PAGE);
      expect(verdict.refused).toBeUndefined();
      expect(verdict.confirm).toContain(new URL(url).origin);
    }
  });

  it('never follows another host, a non-http scheme, credentials or too many files', () => {
    for (const url of [
      'https://api.anthropic.com/v1/messages',
      'http://example.com/log.jsonl',
      'http://127.0.0.1.evil.example/x',
      'javascript:alert(1)',
      'data:text/plain,x',
      'file:///etc/passwd',
      'http://user:pw@127.0.0.1:4173/x',
    ]) {
      const verdict = checkFollowUrls(['/live/session.jsonl', url], PAGE);
      expect(verdict, url).toEqual({ urls: [], refused: expect.any(String) });
    }
    const many = Array.from({ length: MAX_FOLLOWED_URLS + 1 }, (_, k) => `/live/${k}.jsonl`);
    expect(checkFollowUrls(many, PAGE).refused).toMatch(/at most/);
  });
});
