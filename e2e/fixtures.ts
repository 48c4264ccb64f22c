import fs from 'node:fs';
import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import { generateSession } from '../sample/generate-session';

// Shared e2e fixtures: every test audits the network (nothing may leave localhost) and fails on
// page errors; helpers drop files onto the page like a user would.

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

export const REPO_ROOT = path.resolve(import.meta.dirname, '..');
export const FIXTURES_DIR = path.join(REPO_ROOT, 'tests', 'fixtures');
export const SAMPLES_DIR = path.join(REPO_ROOT, 'public', 'samples');
/**
 * True under `npm run bench` (bench/browser-timing.config.ts), where the e2e tests that time the
 * page also hold it to their budgets; in `npm test` they run with the other tests, two browsers at
 * once on a shared machine, so they assert behaviour and only report the figures.
 */
export const TIMING_BUDGETS = process.env.E2E_TIMING_BUDGETS === '1';
export const CORPUS_FILE = path.join(
  REPO_ROOT,
  '../shared/corpus/aistrad__work/claude__projects__-home-aiscend-work-vibelife__120e3499-cd68-46de-a639-d9ef55d094fc.jsonl',
);

interface Fixtures {
  /** Non-local URLs the page tried to reach; asserted empty after each test. */
  foreignRequests: string[];
  pageErrors: string[];
}

/**
 * Console errors that do not fail a test: HTTP errors of fetches the test provokes on purpose (a
 * mock API answering 401/429/…) are reported by Chromium as "Failed to load resource".
 */
const ALLOWED_CONSOLE_ERRORS: RegExp[] = [
  /^Failed to load resource/,
  // A server of this machine on another port that does not let the page read its answer, which a
  // test provokes on purpose (live-follow-server.spec.ts): loopback to loopback only.
  /^Access to fetch at 'http:\/\/127\.0\.0\.1:\d+\/[^']*' from origin 'http:\/\/127\.0\.0\.1:\d+' has been blocked by CORS policy/,
];

export const test = base.extend<Fixtures>({
  foreignRequests: [
    async ({ context }, use) => {
      const foreign: string[] = [];
      context.on('request', (request) => {
        const url = new URL(request.url());
        if (url.protocol.startsWith('http') && !LOCAL_HOSTS.has(url.hostname)) foreign.push(request.url());
      });
      await context.route(/^https?:\/\/(?!127\.0\.0\.1|localhost|\[::1\])/, (route) => {
        foreign.push(route.request().url());
        return route.abort();
      });
      await use(foreign);
      expect(foreign, 'requests that left localhost').toEqual([]);
    },
    { auto: true },
  ],
  pageErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      // CSP violations show up as console errors, not page errors.
      page.on('console', (message) => {
        if (message.type() !== 'error') return;
        const text = message.text();
        if (!ALLOWED_CONSOLE_ERRORS.some((re) => re.test(text))) errors.push(`console: ${text}`);
      });
      await use(errors);
      expect(errors, 'uncaught errors in the page').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

export interface DropFile {
  name: string;
  content: string;
}

/**
 * A session's files as the corpus flattens them (`<prefix><session>.jsonl`,
 * `<prefix><session>__subagents__agent-*.jsonl` and `.meta.json`), under the names Claude Code
 * gives them (`<session>.jsonl`, `agent-*.jsonl`), to drop together.
 */
export function readCorpusSession(dir: string, prefix: string, session: string): DropFile[] {
  return fs
    .readdirSync(dir)
    .filter((n) => n.startsWith(`${prefix}${session}`))
    .map((n) => {
      const at = n.indexOf('__subagents__');
      return {
        name: at > 0 ? n.slice(at + '__subagents__'.length) : `${session}.jsonl`,
        content: fs.readFileSync(path.join(dir, n), 'utf8'),
      };
    });
}

/** Drops files onto the page (the whole page is the drop zone), as one drag & drop. */
export async function dropFiles(page: Page, files: DropFile[]): Promise<void> {
  const dataTransfer = await page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const f of list) dt.items.add(new File([f.content], f.name, { type: 'application/x-ndjson' }));
    return dt;
  }, files);
  await page.getByTestId('dropzone').dispatchEvent('drop', { dataTransfer });
}

/** Opens the app without the bundled sample. */
export async function openEmpty(page: Page): Promise<void> {
  await page.goto('/?sample=0');
  await expect(page.getByTestId('dropzone')).toBeVisible();
}

/** Compaction events in raw JSONL, counted independently of the app's parser. */
export function countCompactions(text: string): { compact: number; microcompact: number } {
  let compact = 0;
  let microcompact = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const record = JSON.parse(line) as { type?: string; subtype?: string };
      if (record.type === 'system' && record.subtype === 'compact_boundary') compact++;
      if (record.type === 'system' && record.subtype === 'microcompact_boundary') microcompact++;
    } catch {
      // broken lines are not compactions
    }
  }
  return { compact, microcompact };
}

/** The `isCompactSummary` message texts of a raw JSONL file, in order. */
export function getSummaryTexts(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (!line.includes('"isCompactSummary":true')) continue;
    try {
      const record = JSON.parse(line) as { message?: { content?: unknown } };
      if (typeof record.message?.content === 'string') out.push(record.message.content);
    } catch {
      // ignore
    }
  }
  return out;
}

/** Clicks an Export menu item and returns the downloaded file's name and bytes. */
export async function exportFile(page: Page, item: string): Promise<{ name: string; bytes: Buffer }> {
  // The menu may be closing from an export clicked elsewhere when it is looked at (a busy machine):
  // open it until the item shows, rather than trusting one look.
  const target = page.getByTestId(`export-${item}`);
  await expect(async () => {
    if (!(await target.isVisible())) await page.getByTestId('export-button').click();
    await expect(target).toBeVisible({ timeout: 2_000 });
  }).toPass();
  await expect(target).toBeEnabled();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId(`export-${item}`).click(),
  ]);
  // A download closes the menu: wait until it has, so the next export does not find the closing
  // menu still drawn, click an item that is then removed, and wait for a download forever.
  await expect(page.getByTestId('export-menu')).toHaveCount(0);
  const file = await download.path();
  return { name: download.suggestedFilename(), bytes: fs.readFileSync(file) };
}

/**
 * A generated session with a subagent log (the seed's), for live follow: its two files and the main
 * file's lines.
 */
export function generateFollowedSession() {
  const [mainFile, subFile] = generateSession({ seed: 21, apiCalls: 400 }).files;
  expect(subFile!.name, 'the generated session has a subagent log').toMatch(
    /\/subagents\/agent-a\w+\.jsonl$/,
  );
  return { mainFile: mainFile!, subFile: subFile!, main: mainFile!.text.trimEnd().split('\n') };
}
