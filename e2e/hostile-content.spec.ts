import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { writeHostileSessions } from '../tests/helpers/hostile';
import { expect, exportFile, openEmpty, test } from './fixtures';

// Hostile transcripts of four dialects (tests/helpers/hostile.ts: HTML and script, javascript: and
// data: links, remote images, ANSI and OSC sequences, C1, bidi, zero-width characters, NUL, a lone
// surrogate, a 100,000-character word in every text a user sees: prompts, answers, tool names,
// inputs and results, summaries, paths, titles, models, cwd, branch, subagent and thread names)
// opened from a folder in the library, each session opened and walked through every view: nothing
// runs, nothing from the content becomes an element or an attribute that acts, and no hidden or
// control character reaches the page's text unmarked. The network audit of ./fixtures holds the
// page to localhost (no remote image loads).

/** What the page must not hold, after each step. */
async function findActive(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    if ((window as unknown as { __pwned?: unknown }).__pwned !== undefined) found.push('window.__pwned set');
    const hidden =
      // biome-ignore lint/suspicious/noControlCharactersInRegex: matching controls is the point.
      /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;
    const where = (el: Element | null) => {
      const parts: string[] = [];
      for (let e = el; e && parts.length < 4; e = e.parentElement) {
        const id = e.getAttribute('data-testid') ?? (typeof e.className === 'string' ? e.className : '');
        parts.push(`${e.tagName.toLowerCase()}${id ? `[${id}]` : ''}`);
      }
      return parts.join(' < ');
    };
    const top = document.body ?? document.documentElement;
    const walker = document.createTreeWalker(top, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const m = hidden.exec(n.nodeValue ?? '');
      if (m) found.push(`text U+${m[0].charCodeAt(0).toString(16)} in ${where(n.parentElement)}`);
    }
    for (const el of top.querySelectorAll('*')) {
      const tag = el.tagName.toLowerCase();
      if (['iframe', 'object', 'embed', 'frame'].includes(tag)) found.push(`<${tag}> in ${where(el)}`);
      if (tag === 'script' && !el.closest('head')) found.push(`<script> in ${where(el)}`);
      for (const attr of el.attributes) {
        if (attr.name.startsWith('on')) found.push(`${tag}[${attr.name}] in ${where(el)}`);
        if (['href', 'src', 'xlink:href', 'action', 'formaction', 'srcdoc'].includes(attr.name)) {
          const v = attr.value.trim().toLowerCase();
          // The page's own links and its drawn charts (an SVG as an <img>: no script, no load).
          const ok =
            v.startsWith(location.origin) ||
            v.startsWith('/') ||
            v.startsWith('#') ||
            v.startsWith('blob:') ||
            v.startsWith('https://') ||
            v.startsWith('http://') ||
            v.startsWith('mailto:') ||
            v === '' ||
            (tag === 'img' && v.startsWith('data:image/'));
          if (!ok || v.includes('evil.example'))
            found.push(`${tag}[${attr.name}=${attr.value.slice(0, 60)}] in ${where(el)}`);
        }
        // data-* attributes are the page's keys (a file's path), never shown.
        if (!attr.name.startsWith('data-') && hidden.test(attr.value))
          found.push(`${tag}[${attr.name}] holds a hidden character in ${where(el)}`);
      }
    }
    if (hidden.test(document.title)) found.push('document.title');
    return [...new Set(found)];
  });
}

test('hostile sessions of four dialects: every view shows their text inert', async ({ page }, testInfo) => {
  test.setTimeout(420_000);
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  const hostile = writeHostileSessions();
  await page.setViewportSize({ width: 1280, height: 720 });
  await openEmpty(page);
  await page.getByTestId('folder-input').setInputFiles(hostile.root);
  const rows = page.getByTestId('library-row');
  await expect(rows).toHaveCount(4);
  await expect(page.getByTestId('library-scan')).toHaveCount(0);
  const problems: string[] = [];
  const check = async (step: string) => {
    for (const p of await findActive(page)) problems.push(`${step}: ${p}`);
  };
  await check('library');
  await page.screenshot({ path: testInfo.outputPath('library.png') });
  const keys = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-key') ?? ''));
  for (const key of keys) {
    const label = key.split('/').slice(-1)[0]!.slice(0, 24);
    await page.locator(`[data-testid="library-row"][data-key="${key.replace(/["\\]/g, '\\$&')}"]`).click();
    await expect(page.getByTestId('session-header')).toBeVisible();
    await check(`${label} header`);
    const tRows = page.getByTestId('transcript-row');
    // The first rows, each opened in the detail pane (a virtual list: as many as it draws).
    for (let i = 0; i < 12; i++) {
      if (i >= (await tRows.count())) break;
      await tRows.nth(i).click();
      for (const tab of ['detail-tab-raw']) {
        const t = page.getByTestId(tab);
        if (await t.isVisible()) await t.click();
      }
    }
    await check(`${label} rows`);
    for (const tab of ['tokens', 'issues', 'bash', 'secrets', 'erosion']) {
      const t = page.getByTestId(`tab-${tab}`);
      if (await t.count()) {
        await t.click();
        await check(`${label} tab ${tab}`);
      }
    }
    const markers = page.getByTestId('compaction-marker');
    if (await markers.count()) {
      await markers.first().click();
      await check(`${label} compaction card`);
    }
    await page.getByTestId('view-conversation').click();
    await expect(page.getByTestId('conversation')).toBeVisible();
    await page.waitForTimeout(500);
    await check(`${label} conversation`);
    await page.screenshot({ path: testInfo.outputPath(`${label}.png`) });
    await page.getByTestId('view-rows').click();
    await page.getByTestId('library-toggle').click();
  }
  // The Claude Code session's files as the Export menu writes them: the HTML ones opened from
  // disk with every request refused, the others read for control sequences and live Markdown.
  await page.locator('[data-testid="library-row"]').filter({ hasText: 'Claude Code' }).click();
  await expect(page.getByTestId('session-header')).toBeVisible();
  const files: Record<string, string> = {};
  for (const item of ['report-html', 'transcript-html', 'transcript-md', 'summaries-md', 'timeline-svg']) {
    const download = await exportFile(page, item);
    files[item] = testInfo.outputPath(download.name);
    fs.writeFileSync(files[item]!, download.bytes);
  }
  for (const item of ['transcript-md', 'summaries-md', 'timeline-svg']) {
    const text = fs.readFileSync(files[item]!, 'utf8');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: matching controls is the point.
    expect(text, item).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    // Outside the fences (inside, a renderer shows code): no link, image or tag can form.
    const prose = text.replace(/^(`{3,})[^\n]*\n[\s\S]*?\n\1$/gm, '');
    expect(prose, item).not.toMatch(/\]\((?:javascript|data|https?):|<(?:script|img|a)\b/i);
  }
  await page.goto('about:blank');
  const requests: string[] = [];
  await page.context().route('**/*', (route) => {
    if (Object.values(files).some((f) => route.request().url() === `file://${f}`)) return route.continue();
    requests.push(route.request().url());
    return route.abort();
  });
  for (const item of ['report-html', 'transcript-html', 'timeline-svg']) {
    await page.goto(`file://${files[item]}`);
    await expect(page.locator('body, svg').first()).toBeVisible();
    await check(item);
    await page.screenshot({ path: testInfo.outputPath(`${item}.png`) });
  }
  expect(requests).toEqual([]);
  expect(dialogs).toEqual([]);
  expect(problems).toEqual([]);
  fs.rmSync(hostile.root, { recursive: true, force: true });
});
