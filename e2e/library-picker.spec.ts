import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, openEmpty, test } from './fixtures';
import { type LibraryFolder, writeLibraryFolder } from './library-folder';
import { appendOpfsFile, readTree, removeOpfsEntry, type TreeFile, writeOpfsFiles } from './opfs';

// The library opened through "Open folder…" where the browser has `showDirectoryPicker`
// (open-folder.ts): Playwright cannot drive the native picker, so the test writes the e2e library
// folder into the origin-private file system (`navigator.storage.getDirectory()`: real
// FileSystemDirectoryHandles, the interface the picker returns) and stubs `showDirectoryPicker` to
// return that folder. The handle is kept in IndexedDB; after a reload the listing comes back and the
// folder is read again without a pick, rescanning only the sessions whose files changed.

/** The folder's name in the origin-private file system (the picked folder's name). */
const FOLDER = 'work';

/**
 * `showDirectoryPicker` answers with the origin-private folder; `pickerCalls` counts the picks (it
 * starts at 0 again on each load: the init script runs before every page's own code).
 */
async function stubDirectoryPicker(page: Page): Promise<void> {
  await page.addInitScript((folder: string) => {
    const w = window as unknown as {
      pickerCalls: number;
      pickerOptions?: unknown;
      showDirectoryPicker: unknown;
    };
    w.pickerCalls = 0;
    w.showDirectoryPicker = async (options?: unknown) => {
      w.pickerCalls++;
      w.pickerOptions = options;
      return (await navigator.storage.getDirectory()).getDirectoryHandle(folder);
    };
  }, FOLDER);
}

const pickerCalls = (page: Page) =>
  page.evaluate(() => (window as unknown as { pickerCalls: number }).pickerCalls);

/**
 * The folder's files with the session of fewest calls cut short at two thirds of its lines; the
 * rest comes back in two appends (to five sixths, then the end).
 */
function splitFolder(folder: LibraryFolder): { files: TreeFile[]; grown: string; tails: [string, string] } {
  const files = readTree(folder.root);
  const grown = files.find((f) => f.path === folder.fewestCalls.path)!;
  const lines = grown.text.trimEnd().split('\n');
  const cuts = [Math.floor((lines.length * 2) / 3), Math.floor((lines.length * 5) / 6)] as const;
  const part = (from: number, to?: number) => `${lines.slice(from, to).join('\n')}\n`;
  return {
    files: files.map((f) => (f === grown ? { ...f, text: part(0, cuts[0]) } : f)),
    grown: grown.path,
    tails: [part(cuts[0], cuts[1]), part(cuts[1])],
  };
}

/** The number at the start of a Calls cell ("120", "40 +12"). */
const callsOf = (text: string | null) =>
  Number((text ?? '').replace(/,/g, '').match(/^\d+/)?.[0] ?? Number.NaN);

test.describe('library through the directory picker', () => {
  test('pick a folder, sort, open a session; after a reload it is read again without a pick and only a changed file is rescanned', async ({
    page,
  }) => {
    const folder = writeLibraryFolder(path.join(os.tmpdir(), `compactlab-picker-e2e-${process.pid}`, FOLDER));
    const { files, grown, tails } = splitFolder(folder);
    const grownKey = `${FOLDER}/${grown}`;
    const subagentFiles = files.filter(
      (f) => f.path.includes('/subagents/') && f.path.endsWith('.jsonl'),
    ).length;
    expect(subagentFiles, 'the generated folder has a subagent log').toBeGreaterThan(0);
    await stubDirectoryPicker(page);
    await openEmpty(page);
    await writeOpfsFiles(page, FOLDER, files, true);
    expect(
      await page.evaluate(async () => {
        const w = window as unknown as { showDirectoryPicker: () => Promise<unknown> };
        return (await w.showDirectoryPicker()) instanceof FileSystemDirectoryHandle;
      }),
      'the stub hands over a real directory handle',
    ).toBe(true);
    await page.reload();
    await expect(page.getByTestId('dropzone')).toBeVisible();

    await page.getByTestId('open-folder').click();
    await expect(page.getByTestId('library')).toBeVisible();
    expect(await pickerCalls(page)).toBe(1);
    expect(
      await page.evaluate(() => (window as unknown as { pickerOptions: unknown }).pickerOptions),
    ).toEqual({
      mode: 'read',
    });
    const rows = page.getByTestId('library-row');
    await expect(rows).toHaveCount(folder.sessions);
    await expect(page.getByTestId('library-scan')).toHaveCount(0);
    await expect(page.getByTestId('library-rows')).not.toContainText('scanning…');
    await expect(page.getByTestId('library-restored')).toHaveCount(0);
    await expect(page.locator('.library-title')).toHaveText(FOLDER);
    await expect(page.getByTestId('library-cache')).toHaveText(
      `${folder.sessions} scanned, 0 from the cache`,
    );
    await expect(page.locator('[data-col="agent"]', { hasText: 'Codex CLI' })).toHaveCount(1);
    const grownCalls = page.locator(`[data-key="${grownKey}"] [data-col="calls"]`);
    const callsBefore = callsOf(await grownCalls.textContent());
    expect(callsBefore, 'the cut-short session lists fewer calls than it will have').toBeLessThan(
      folder.fewestCalls.apiCalls,
    );
    expect(callsBefore).toBeGreaterThan(0);

    // Sorted by calls, most first: the 120-call session with its subagent log on top.
    await page.getByTestId('library-sort-calls').click();
    await expect(page.getByTestId('library-sort-calls')).toHaveAttribute('data-sort', 'descending');
    const calls = (await rows.locator('[data-col="calls"]').allTextContents()).map(callsOf);
    expect(calls).toHaveLength(folder.sessions);
    expect(calls).toEqual([...calls].sort((a, b) => b - a));
    expect(calls[0]).toBe(folder.mostCalls);
    await expect(rows.first().locator('[data-col="subagents"]')).toHaveText(String(subagentFiles));
    await expect(rows.nth(1).locator('[data-col="subagents"]')).toHaveText('0');

    // A session opens with its files from the handles; live mode can follow it (it re-reads the handle).
    const topKey = await rows.first().getAttribute('data-key');
    await rows.first().click();
    await expect(page.getByTestId('session-header')).toBeVisible();
    await expect(page.getByTestId('follow-toggle')).toBeVisible();
    await expect(page.getByTestId('library-toggle')).toHaveText('Library');

    // The session of fewest calls grows on disk (its agent is still at work). Opened from the list
    // now, it is read as it is, not as it was when the folder was listed.
    await appendOpfsFile(page, FOLDER, grown, tails[0]);
    await page.getByTestId('library-toggle').click();
    await page.locator(`[data-key="${grownKey}"]`).click();
    await expect(page.getByTestId('session-header')).toBeVisible();
    const apiCalls = page.getByTestId('stat-api-calls');
    // Until the grown session is read, the header still shows the session before (120 calls).
    await expect
      .poll(async () => {
        const n = callsOf(await apiCalls.textContent());
        return n > callsBefore && n < folder.fewestCalls.apiCalls;
      })
      .toBe(true);
    // Followed, it reads what is appended through its file handle.
    await page.getByTestId('follow-toggle').click();
    await expect(page.getByTestId('follow-toggle')).toHaveAttribute('aria-pressed', 'true');
    await appendOpfsFile(page, FOLDER, grown, tails[1]);
    await expect(apiCalls).toHaveText(`${folder.fewestCalls.apiCalls} API calls`);
    await expect(page.getByTestId('follow-read-bytes')).toHaveText(
      Buffer.byteLength(tails[1]).toLocaleString('en-US'),
    );
    await expect(page.getByTestId('follow-step')).toBeVisible();
    await expect(page.getByTestId('follow-step')).toHaveAttribute('data-reparsed', 'false');
    // The running session starts a subagent: its log appears in the session's folder, which did
    // not exist when the session was opened. Followed, the session takes it in.
    await expect(page.getByTestId('stat-subagents')).toHaveCount(0);
    const subagentLog = files.find((f) => f.path.includes('/subagents/') && f.path.endsWith('.jsonl'))!;
    const newLog = `${grown.replace(/\.jsonl$/, '')}/subagents/agent-a0new0000000001.jsonl`;
    const [logHead, logTail] = (() => {
      const lines = subagentLog.text.trimEnd().split('\n');
      const half = Math.floor(lines.length / 2);
      return [`${lines.slice(0, half).join('\n')}\n`, `${lines.slice(half).join('\n')}\n`];
    })();
    await writeOpfsFiles(page, FOLDER, [{ path: newLog, text: logHead }], false);
    await expect(page.getByTestId('stat-subagents')).toContainText('1');
    // Going from one file to two, the main file is read once more (said on the bar) ...
    await expect(page.getByTestId('follow-step')).toHaveAttribute('data-reparsed', 'true');
    await expect(page.getByTestId('follow-step')).toContainText('the session has 2 files now');
    // ... and from then on each step reads only what was appended, here to the new log.
    await appendOpfsFile(page, FOLDER, newLog, logTail);
    await expect(page.getByTestId('follow-read-bytes')).toHaveText(
      Buffer.byteLength(logTail).toLocaleString('en-US'),
    );
    await page.getByTestId('follow-toggle').click();
    await removeOpfsEntry(page, FOLDER, newLog.replace(/\/subagents\/.*$/, ''));

    // The page is reloaded.
    await page.reload();
    await expect(page.getByTestId('library')).toBeVisible();
    await expect(rows).toHaveCount(folder.sessions);
    // Read again from the kept handle, no pick: the files are open (no "Reopen" banner) ...
    await expect(page.getByTestId('library-restored')).toHaveCount(0);
    await expect(page.getByTestId('library-scan')).toHaveCount(0);
    expect(await pickerCalls(page)).toBe(0);
    // ... and only the grown session was scanned again; the others came from the cache.
    await expect(page.getByTestId('library-cache')).toHaveText(
      `1 scanned, ${folder.sessions - 1} from the cache`,
    );
    await expect(page.locator(`[data-key="${grownKey}"]`)).toHaveAttribute('data-from-cache', 'false');
    await expect(rows.and(page.locator('[data-from-cache="true"]'))).toHaveCount(folder.sessions - 1);
    await expect(grownCalls).toHaveText(String(folder.fewestCalls.apiCalls));

    await page.setViewportSize({ width: 1280, height: 720 });
    await page.getByTestId('library-sort-calls').click();
    await expect(page.getByTestId('library-sort-calls')).toHaveAttribute('data-sort', 'descending');
    // At 1280×720 the cells read whole (the first prompt aside, cut to its column): the project's
    // name, the agent's version, the headers. (A text's own width: `scrollWidth` is rounded, and
    // an overflow of 0.05 px already shows an ellipsis.)
    const cut = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('[data-testid="library-row"] [data-col], .library-th')]
        .filter((el) => {
          const text = document.createRange();
          text.selectNodeContents(el);
          const padPx =
            Number.parseFloat(getComputedStyle(el).paddingLeft) +
            Number.parseFloat(getComputedStyle(el).paddingRight);
          return (
            el.dataset.col !== 'prompt' &&
            text.getBoundingClientRect().width > el.getBoundingClientRect().width - padPx
          );
        })
        .map((el) => `${el.dataset.col ?? 'header'}: ${el.textContent}`),
    );
    expect(cut, 'cells cut short at 1280 px').toEqual([]);
    await expect(rows.first().locator('[data-col="project"]')).toHaveText('tally');
    await expect(rows.first().locator('[data-col="project"]')).toHaveAttribute(
      'title',
      '/home/mira/code/tally',
    );
    await page.emulateMedia({ colorScheme: 'light' });

    // A row opens from the reopened folder, still without a pick.
    await page.locator(`[data-key="${topKey}"]`).click();
    await expect(page.getByTestId('session-header')).toBeVisible();
    await expect(page.getByTestId('follow-toggle')).toBeVisible();
    expect(await pickerCalls(page)).toBe(0);
  });

  test('where the browser asks again after a reload, one click on Reopen asks for read permission and lists the folder', async ({
    page,
  }) => {
    const folder = writeLibraryFolder(path.join(os.tmpdir(), `compactlab-picker-e2e-${process.pid}`, FOLDER));
    await stubDirectoryPicker(page);
    await openEmpty(page);
    await writeOpfsFiles(page, FOLDER, readTree(folder.root), true);
    await page.getByTestId('open-folder').click();
    const rows = page.getByTestId('library-row');
    await expect(rows).toHaveCount(folder.sessions);
    await expect(page.getByTestId('library-cache')).toHaveText(
      `${folder.sessions} scanned, 0 from the cache`,
    );

    // Origin-private handles are always readable. A folder the person picked is not, after a
    // reload, until they allow it again (Chrome asks on `requestPermission`, which needs a user
    // gesture; "Allow on every visit" skips that: developer.chrome.com/blog/persistent-permissions-
    // for-the-file-system-access-api). The handles' permission methods play that part here: the
    // first request is refused, the second allowed; each records whether a user gesture was active.
    await page.addInitScript(() => {
      const w = window as unknown as { permissionRequests: boolean[] };
      w.permissionRequests = [];
      let state: PermissionState = 'prompt';
      const proto = FileSystemHandle.prototype as unknown as Record<string, unknown>;
      proto.queryPermission = async () => state;
      proto.requestPermission = async () => {
        w.permissionRequests.push(navigator.userActivation.isActive);
        state = w.permissionRequests.length === 1 ? 'denied' : 'granted';
        if (state === 'denied') {
          state = 'prompt';
          return 'denied';
        }
        return state;
      };
    });
    await page.reload();
    const restored = page.getByTestId('library-restored');
    await expect(restored).toBeVisible();
    await expect(restored).toContainText('the files are not open');
    await expect(rows).toHaveCount(folder.sessions);
    const requests = () =>
      page.evaluate(() => (window as unknown as { permissionRequests: boolean[] }).permissionRequests);
    // Nothing is asked before the person clicks.
    expect(await requests()).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 720 });

    const reopen = page.getByTestId('library-reopen');
    await expect(reopen).toHaveText(`Reopen ${FOLDER}`);
    await reopen.click();
    await expect(restored).toContainText(`Reading ${FOLDER} was not allowed`);
    expect(await requests()).toEqual([true]);
    await reopen.click();
    await expect(restored).toHaveCount(0);
    expect(await requests()).toEqual([true, true]);
    expect(await pickerCalls(page)).toBe(0);
    // Nothing changed: every row from the cache.
    await expect(page.getByTestId('library-cache')).toHaveText(
      `0 scanned, ${folder.sessions} from the cache`,
    );
    await rows.first().click();
    await expect(page.getByTestId('session-header')).toBeVisible();
  });

  test('a link opened as the library comes back reopens its session; one for a file not listed says which it waits for', async ({
    page,
  }) => {
    const folder = writeLibraryFolder(path.join(os.tmpdir(), `compactlab-link-e2e-${process.pid}`, FOLDER));
    await page.setViewportSize({ width: 1280, height: 720 });
    await stubDirectoryPicker(page);
    await openEmpty(page);
    await writeOpfsFiles(page, FOLDER, readTree(folder.root), true);
    await page.reload();
    await page.getByTestId('open-folder').click();
    const rows = page.getByTestId('library-row');
    await expect(rows).toHaveCount(folder.sessions);
    await page.getByTestId('library-sort-calls').click();
    await rows.first().click();
    await expect(page.getByTestId('session-header')).toBeVisible();
    const calls = await page.getByTestId('stat-api-calls').textContent();
    await page.getByTestId('tab-tokens').click();
    await expect(async () => {
      const url = new URL(page.url());
      expect(url.searchParams.get('view')).toBe('tokens');
      expect(url.searchParams.get('file')).toMatch(/^[0-9a-f]{16}$/);
    }).toPass();
    const link = page.url();

    // The link opened again (a reload, a pasted address): the library comes back and the link's
    // session opens from it, with the link's view.
    await page.goto(link);
    await expect(page.getByTestId('session-header')).toBeVisible();
    await expect(page.getByTestId('stat-api-calls')).toHaveText(calls!);
    await expect(page.getByTestId('tab-tokens')).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByTestId('link-notice')).toHaveCount(0);

    // A link to a file the folder does not hold: the library says which file it waits for.
    const other = new URL(link);
    other.searchParams.set('file', 'ffffffffffffffff');
    other.searchParams.set('name', 'not-listed-here.jsonl');
    await page.goto(other.toString());
    await expect(page.getByTestId('library')).toBeVisible();
    await expect(page.getByTestId('link-waiting')).toContainText('not-listed-here.jsonl');
    await expect(page.getByTestId('link-waiting')).toBeInViewport();
  });
});
