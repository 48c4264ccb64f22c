import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { generateSession } from '../sample/generate-session';
import { createMemorySource } from '../src/engine/parse/source';
import { searchSessionText } from '../src/engine/query/text-search';
import { expect, openEmpty, test } from './fixtures';
import { writeLibraryFolder } from './library-folder';
import { appendOpfsFile, readTree, type TreeFile, writeOpfsFiles } from './opfs';

// Issue 24 items 7 and 9: several folders listed at once (a Claude Code projects folder, a Codex
// sessions folder, a second projects folder of the same name), each row saying its folder, each
// folder removable, all of them back after a reload, a folder opened twice listed once; and a text
// found across every listed session, each hit opening its session at the hit. Folders come through
// the directory picker, stubbed to hand over origin-private folders (real directory handles), one
// per pick from `window.picks`.

async function stubPicker(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { picks: string[]; showDirectoryPicker: unknown };
    w.picks = [];
    w.showDirectoryPicker = async () => {
      const parts = (w.picks.shift() ?? '').split('/');
      let dir = await navigator.storage.getDirectory();
      for (const p of parts) dir = await dir.getDirectoryHandle(p);
      return dir;
    };
  });
}

async function pick(page: Page, folder: string): Promise<void> {
  await page.evaluate((f) => (window as unknown as { picks: string[] }).picks.push(f), folder);
  await page.getByTestId('open-folder').click();
}

/** Two sessions of another machine's `projects` folder. */
function otherProjects(): TreeFile[] {
  return [21, 22].flatMap((seed) =>
    generateSession({ seed, apiCalls: 15, startMs: Date.UTC(2026, 5, seed, 10) }).files.map((f) => ({
      path: `-home-bob-kiln/${f.name}`,
      text: f.text,
    })),
  );
}

const under = (files: TreeFile[], dir: string) =>
  files
    .filter((f) => f.path.startsWith(`${dir}/`))
    .map((f) => ({ ...f, path: f.path.slice(dir.length + 1) }));

async function writeFolders(page: Page) {
  const folder = writeLibraryFolder(path.join(os.tmpdir(), `compactlab-roots-e2e-${process.pid}`, 'work'));
  const tree = readTree(folder.root);
  const projects = under(tree, 'projects');
  const sessions = under(tree, 'sessions');
  const other = otherProjects();
  await writeOpfsFiles(
    page,
    'a',
    projects.map((f) => ({ ...f, path: `projects/${f.path}` })),
    true,
  );
  await writeOpfsFiles(
    page,
    'b',
    sessions.map((f) => ({ ...f, path: `sessions/${f.path}` })),
    true,
  );
  await writeOpfsFiles(
    page,
    'c',
    other.map((f) => ({ ...f, path: `projects/${f.path}` })),
    true,
  );
  // Sessions: every main transcript (subagent folders join theirs); the Codex folder holds one.
  const mains = (files: TreeFile[]) =>
    files.filter((f) => f.path.endsWith('.jsonl') && !f.path.includes('/subagents/')).length;
  return {
    projects,
    sessions,
    other,
    counts: { projects: mains(projects), sessions: mains(sessions), other: mains(other) },
  };
}

const rootsOf = async (page: Page) =>
  page.getByTestId('library-root').evaluateAll((els) => els.map((e) => e.getAttribute('data-root')));

test.describe('library of several folders', () => {
  test('two folders and a second one of the same name listed together, each row saying its folder; a folder opened twice is listed once; removed folders stay removed after a reload', async ({
    page,
  }, testInfo) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await stubPicker(page);
    await openEmpty(page);
    const { counts, other } = await writeFolders(page);
    expect(counts).toEqual({ projects: 4, sessions: 1, other: 2 });
    const rows = page.getByTestId('library-row');

    await pick(page, 'a/projects');
    await expect(rows).toHaveCount(counts.projects);
    // One folder: its rows need not say which.
    await expect(page.getByTestId('library-row-root')).toHaveCount(0);
    await pick(page, 'b/sessions');
    await expect(rows).toHaveCount(counts.projects + counts.sessions);
    expect(await rootsOf(page)).toEqual(['projects', 'sessions']);
    await expect(page.locator('.library-title')).toHaveText('projects + sessions');
    await expect(
      page.locator('[data-root="sessions"][data-testid="library-row"] [data-col="agent"]'),
    ).toHaveText(/^Codex CLI/);
    await pick(page, 'c/projects');
    const total = counts.projects + counts.sessions + counts.other;
    await expect(rows).toHaveCount(total);
    expect(await rootsOf(page)).toEqual(['projects', 'sessions', 'projects (2)']);
    await expect(page.getByTestId('library-scan')).toHaveCount(0);
    // Every row says its folder, before its project.
    await expect(page.getByTestId('library-row-root')).toHaveCount(total);
    await expect(page.locator('[data-root="projects (2)"] [data-testid="library-row-root"]')).toHaveText([
      'projects (2)',
      'projects (2)',
    ]);

    // Sorted across folders: by calls, most first, rows of all three interleaved by their figure.
    await page.getByTestId('library-sort-calls').click();
    await expect(page.getByTestId('library-sort-calls')).toHaveAttribute('data-sort', 'descending');
    const calls = (await rows.locator('[data-col="calls"]').allTextContents()).map((t) =>
      Number(t.replace(/,/g, '').match(/^\d+/)?.[0] ?? Number.NaN),
    );
    expect(calls.filter((c) => !Number.isNaN(c))).toEqual(
      [...calls.filter((c) => !Number.isNaN(c))].sort((a, b) => b - a),
    );
    const order = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-root')));
    expect(new Set(order)).toEqual(new Set(['projects', 'sessions', 'projects (2)']));
    // The agent filter spans folders too.
    await page.getByTestId('library-agent').selectOption('Codex CLI');
    await expect(rows).toHaveCount(1);
    await page.getByTestId('library-agent').selectOption('');

    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: testInfo.outputPath(`library-roots-${scheme}.png`) });
    }
    await page.emulateMedia({ colorScheme: 'light' });
    // The roots' line and the table fit the window: nothing runs off the right edge.
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(1280);

    // The same folder again: listed once (its listing replaced, from the cache).
    await pick(page, 'a/projects');
    await expect(page.getByTestId('library-cache')).toBeVisible();
    await expect(rows).toHaveCount(total);
    expect(await rootsOf(page)).toEqual(['projects', 'sessions', 'projects (2)']);
    // A folder inside a listed one: nothing added, and the page says why.
    await pick(page, 'a/projects/-home-ada-alpha');
    await expect(page.getByText('-home-ada-alpha is inside projects, which is listed already')).toBeVisible();
    await expect(rows).toHaveCount(total);

    // What if… takes every listed session of every folder.
    await page.getByTestId('library-whatif').click();
    await expect(page.getByRole('button', { name: `Replay ${total} sessions` })).toBeVisible();
    await page.getByTestId('library-whatif').click();

    // A session of the second projects folder opens from its own files, and live mode follows it
    // through its handle (its row in the list grows with it).
    const [first] = other;
    const lines = first!.text.trimEnd().split('\n');
    const cut = Math.floor((lines.length * 2) / 3);
    await writeOpfsFiles(
      page,
      'c',
      [{ path: `projects/${first!.path}`, text: `${lines.slice(0, cut).join('\n')}\n` }],
      false,
    );
    const key = `projects (2)/${first!.path}`;
    await page.locator(`[data-key="${key}"]`).click();
    await expect(page.getByTestId('session-header')).toBeVisible();
    const apiCalls = page.getByTestId('stat-api-calls');
    await expect(apiCalls).not.toHaveText('15 API calls');
    await page.getByTestId('follow-toggle').click();
    await expect(page.getByTestId('follow-toggle')).toHaveAttribute('aria-pressed', 'true');
    await appendOpfsFile(page, 'c', `projects/${first!.path}`, `${lines.slice(cut).join('\n')}\n`);
    await expect(apiCalls).toHaveText('15 API calls');
    await page.getByTestId('follow-toggle').click();
    await page.getByTestId('library-toggle').click();
    await expect(page.locator(`[data-key="${key}"] [data-col="calls"]`)).toHaveText('15');

    // After a reload all three come back, read again through their handles.
    await page.reload();
    await expect(rows).toHaveCount(total);
    expect(await rootsOf(page)).toEqual(['projects', 'sessions', 'projects (2)']);
    await expect(page.getByTestId('library-restored')).toHaveCount(0);
    // Only the session that grew on disk is read again.
    await expect(page.getByTestId('library-cache')).toHaveText(`1 scanned, ${total - 1} from the cache`);
    await expect(page.locator(`[data-key="${key}"] [data-col="calls"]`)).toHaveText('15');

    // Removed, a folder's rows leave; it stays removed after a reload.
    await page.locator('[data-root="projects (2)"] [data-testid="library-root-remove"]').click();
    await expect(rows).toHaveCount(counts.projects + counts.sessions);
    expect(await rootsOf(page)).toEqual(['projects', 'sessions']);
    await page.reload();
    await expect(rows).toHaveCount(counts.projects + counts.sessions);
    expect(await rootsOf(page)).toEqual(['projects', 'sessions']);
    await page.locator('[data-root="projects"] [data-testid="library-root-remove"]').click();
    await page.locator('[data-root="sessions"] [data-testid="library-root-remove"]').click();
    await expect(page.getByTestId('library')).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId('dropzone')).toBeVisible();
  });

  test('a text found across every listed folder: sessions with their count and first excerpt, each opening at the hit; progress, cancel', async ({
    page,
  }, testInfo) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await stubPicker(page);
    await openEmpty(page);
    const { projects, sessions, other } = await writeFolders(page);
    await pick(page, 'a/projects');
    await pick(page, 'b/sessions');
    await pick(page, 'c/projects');
    const rows = page.getByTestId('library-row');
    await expect(rows).toHaveCount(7);
    await expect(page.getByTestId('library-scan')).toHaveCount(0);

    // The engine's own figures for each session (its files, as the library groups them).
    const query = 'ada';
    const expected = new Map<string, number>();
    const groups: [string, TreeFile[]][] = [
      ['projects', projects],
      ['sessions', sessions],
      ['projects (2)', other],
    ];
    for (const [root, files] of groups) {
      const mains = files.filter((f) => f.path.endsWith('.jsonl') && !f.path.includes('/subagents/'));
      for (const main of mains) {
        const stem = main.path.slice(0, -'.jsonl'.length);
        const own = [main, ...files.filter((f) => f.path.startsWith(`${stem}/`))];
        const found = await searchSessionText(
          own.map((f) => createMemorySource(f.path, f.text)),
          query,
        );
        if (found.matches > 0) expected.set(`${root}/${main.path}`, found.matches);
      }
    }
    expect(expected.size, 'the text is in sessions of two folders').toBeGreaterThan(2);
    expect(new Set([...expected.keys()].map((k) => k.split('/')[0])).size).toBeGreaterThan(1);

    await page.getByTestId('library-find-toggle').click();
    const input = page.getByTestId('library-find-input');
    await input.fill(query.toUpperCase());
    await expect(page.getByTestId('library-find-run')).toHaveText('Find in 7 sessions');
    await input.press('Enter');
    const hits = page.getByTestId('library-find-hit');
    await expect(page.getByTestId('library-find-summary')).toHaveText(
      `${expected.size} of 7 sessions hold “${query.toUpperCase()}”`,
    );
    await expect(hits).toHaveCount(expected.size);
    const shown = await hits.evaluateAll((els) =>
      els.map((e) => [
        e.getAttribute('data-key'),
        Number(e.querySelector('[data-testid="library-find-count"]')!.textContent!.replace(/[^\d]/g, '')),
      ]),
    );
    expect(new Map(shown as [string, number][])).toEqual(expected);
    // Each excerpt is text with the match marked (case kept as written).
    for (const excerpt of await page.getByTestId('library-find-excerpt').all()) {
      await expect(excerpt.locator('mark.search-hit').first()).toHaveText(/^ada$/i);
    }
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: testInfo.outputPath(`library-find-${scheme}.png`) });
    }
    await page.emulateMedia({ colorScheme: 'light' });

    // A hit opens its session with the transcript searching the same text, its row selected.
    const codexKey = [...expected.keys()].find((k) => k.startsWith('sessions/'));
    const target = codexKey ?? [...expected.keys()][0]!;
    await page.locator(`[data-testid="library-find-hit"][data-key="${target}"]`).click();
    await expect(page.getByTestId('session-header')).toBeVisible();
    await expect(page.getByTestId('search-input')).toHaveValue(query.toUpperCase());
    await expect(page.getByTestId('search-full-text')).toBeChecked();
    const selected = page.locator('[data-testid="transcript-row"][aria-selected="true"]');
    await expect(selected).toHaveCount(1);
    await expect(selected).toBeInViewport();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: testInfo.outputPath(`library-find-opened-${scheme}.png`) });
    }
    await page.emulateMedia({ colorScheme: 'light' });

    // A text in no session: none listed. Then a search cancelled at once keeps what it found.
    await page.getByTestId('library-toggle').click();
    await input.fill('zzqx-nowhere');
    await input.press('Enter');
    await expect(page.getByTestId('library-find-summary')).toHaveText('0 of 7 sessions hold “zzqx-nowhere”');
    await expect(hits).toHaveCount(0);
    // A fourth folder with one big generated log (40 MB of one prompt's lines, written in the page),
    // and the CPU slowed (Chromium's throttling), so the search is cancelled while it reads it.
    await page.evaluate(async () => {
      const top = await (await navigator.storage.getDirectory()).getDirectoryHandle('d', { create: true });
      const dir = await top.getDirectoryHandle('big', { create: true });
      const file = await (await dir.getFileHandle('big-session.jsonl', { create: true })).createWritable();
      const line = `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'the quick brown fox jumps over the lazy dog '.repeat(20) } })}\n`;
      const chunk = line.repeat(Math.ceil((1024 * 1024) / line.length));
      for (let i = 0; i < 40; i++) await file.write(chunk);
      await file.close();
    });
    await pick(page, 'd/big');
    await expect(rows).toHaveCount(8);
    await expect(page.getByTestId('library-scan')).toHaveCount(0, { timeout: 60_000 });
    // Sorted by size, largest first: the listed order is the search's, the big log first.
    await page.getByTestId('library-sort-size').click();
    await expect(page.getByTestId('library-sort-size')).toHaveAttribute('data-sort', 'descending');
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 20 });
    await input.fill('the');
    // Cancel pressed as soon as it shows (from the page: a round trip from the test per step took
    // longer than the search of 40 MB).
    const progressSeen = await page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const cancelNow = () => {
            const cancel = document.querySelector<HTMLButtonElement>('[data-testid="library-find-cancel"]');
            if (!cancel) return false;
            const progress =
              document.querySelector('[data-testid="library-find-progress"]')?.textContent ?? '';
            cancel.click();
            resolve(progress);
            return true;
          };
          new MutationObserver((_, observer) => {
            if (cancelNow()) observer.disconnect();
          }).observe(document.body, { childList: true, subtree: true });
          document.querySelector<HTMLButtonElement>('[data-testid="library-find-run"]')!.click();
        }),
    );
    expect(progressSeen).toMatch(/^0 of 8 · /);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    await expect(page.getByTestId('library-find-summary')).toHaveText(
      /^\d of \d sessions? holds? “the” \(cancelled after \d of 8\)$/,
    );
    await expect(page.getByTestId('library-find-progress')).toHaveCount(0);
  });
});
