import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CORPUS_FILE, expect, test } from './fixtures';

// docs/live-and-statusline.md: "`?follow=<url>` follows a file served from localhost". A user
// serves a real log with another program on another port (`python3 -m http.server`): without
// Access-Control-Allow-Origin the browser keeps the answer from the page. Before, the link opened
// the bundled sample and, once the read failed, marked the sample's figures "File unreadable: last
// known" as if they were the followed file's (with `?sample=0`: an empty start page, polling in
// silence). Now no sample opens for a follow link, the start page's live bar says why the file
// cannot be read and what the server must send, and once the server sends it the file is followed.

/** Distinct API calls of raw Claude Code lines, counted without the app's parser. */
function countApiCalls(lines: readonly string[]): number {
  const ids = new Set<string>();
  for (const line of lines) {
    const r = JSON.parse(line) as {
      type?: string;
      message?: { id?: string; model?: string; usage?: unknown };
    };
    if (r.type === 'assistant' && r.message?.usage && r.message.id && r.message.model !== '<synthetic>')
      ids.add(r.message.id);
  }
  return ids.size;
}

test('live mode: a log served on another port without CORS is said, then followed once allowed', async ({
  page,
}) => {
  test.skip(!fs.existsSync(CORPUS_FILE), `the Claude Code corpus is absent (${CORPUS_FILE})`);
  const lines = fs.readFileSync(CORPUS_FILE, 'utf8').trimEnd().split('\n');
  let served = lines.slice(0, 200);
  let cors = false;
  const server = http.createServer((request, response) => {
    const headers: Record<string, string> = { 'content-type': 'application/x-ndjson' };
    if (cors && request.headers.origin) headers['access-control-allow-origin'] = request.headers.origin;
    response.writeHead(200, headers);
    response.end(`${served.join('\n')}\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/session.jsonl`;
    // Another program's file on this machine: the page asks first (follow-urls.ts); yes.
    page.on('dialog', (dialog) => void dialog.accept());
    // The link as the docs give it: no `sample=0`.
    await page.goto(`/?follow=${encodeURIComponent(url)}`);
    const error = page.getByTestId('follow-error');
    await expect(error).toContainText(`The file cannot be read: ${url}: no answer the page may read`);
    await expect(error).toContainText('Access-Control-Allow-Origin: http://127.0.0.1:');
    // Nothing but the followed file is shown: not the bundled sample, as the followed file's.
    await expect(page.getByTestId('session-header')).toHaveCount(0);
    await expect(page.getByTestId('header-last-known')).toHaveCount(0);
    await expect(page.getByTestId('empty-title')).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('follow-no-cors-1280.png') });

    // The server lets the page read it: the next second's read opens the file, and it is followed.
    cors = true;
    const calls = async () =>
      Number(
        ((await page.getByTestId('stat-api-calls').textContent()) ?? '')
          .match(/[\d,]+/)?.[0]
          ?.replace(/,/g, ''),
      );
    await expect.poll(calls, { timeout: 15_000 }).toBe(countApiCalls(served));
    await expect(error).toHaveCount(0);
    served = lines.slice(0, 400);
    await expect.poll(calls, { timeout: 15_000 }).toBe(countApiCalls(served));
    expect(countApiCalls(served), 'the appended lines hold calls').toBeGreaterThan(
      countApiCalls(lines.slice(0, 200)),
    );
    await expect(page.getByTestId('follow-step')).toHaveAttribute('data-reparsed', 'false');
  } finally {
    server.close();
  }
});
