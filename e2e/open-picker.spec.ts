import path from 'node:path';
import type { Page } from '@playwright/test';
import { generateSession } from '../sample/generate-session';
import { expect, FIXTURES_DIR, openEmpty, test } from './fixtures';
import { appendOpfsFile, writeOpfsFiles } from './opfs';

// "Open files…" through `showOpenFilePicker` where the browser has it (load/open-handles.ts):
// Playwright cannot drive the native picker, so the test writes the files into the origin-private
// file system (real FileSystemFileHandles, the interface the picker returns) and stubs
// `showOpenFilePicker` to hand them over. Picked files open as the input's do, are kept in recent
// files (IndexedDB) and reopen after a reload; a closed picker does nothing, any other failure
// falls back to the file input.

/** The folder of the origin-private file system the stub picks from. */
const FOLDER = 'picked';

type PickerStub = { pick: string[] } | { fail: 'AbortError' | 'SecurityError' };

/**
 * `showOpenFilePicker` answers with the named files of `FOLDER`, in that order, or fails with the
 * named DOMException. `pickerCalls`, `pickerOptions` and `fileInputClicks` (clicks on a file
 * input) start again on each load: the init script runs before every page's own code.
 */
async function stubFilePicker(page: Page, stub: PickerStub): Promise<void> {
  await page.addInitScript(
    ({ folder, stub }) => {
      const w = window as unknown as {
        pickerCalls: number;
        pickerOptions?: unknown;
        fileInputClicks: number;
        showOpenFilePicker: unknown;
      };
      w.pickerCalls = 0;
      w.fileInputClicks = 0;
      const click = HTMLInputElement.prototype.click;
      HTMLInputElement.prototype.click = function (this: HTMLInputElement) {
        if (this.type === 'file') w.fileInputClicks++;
        click.call(this);
      };
      w.showOpenFilePicker = async (options?: unknown) => {
        w.pickerCalls++;
        w.pickerOptions = options;
        if ('fail' in stub) throw new DOMException('The picker failed (stub)', stub.fail);
        const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle(folder);
        return Promise.all(stub.pick.map((name) => dir.getFileHandle(name)));
      };
    },
    { folder: FOLDER, stub },
  );
}

const counters = (page: Page) =>
  page.evaluate(async () => {
    // The app's handling of the picker's answer runs in the tasks after it: let them.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const w = window as unknown as { pickerCalls: number; fileInputClicks: number };
    return { pickerCalls: w.pickerCalls, fileInputClicks: w.fileInputClicks };
  });

/** A generated Claude Code session with a subagent log, each file as the picker names it. */
function sessionWithSubagent() {
  const session = generateSession({ seed: 12, apiCalls: 120, features: { specials: true } });
  const [main, ...others] = session.files.map((f) => ({ name: f.name.split('/').pop()!, text: f.text }));
  return { main: main!, others, mainApiCalls: 120 };
}

test.describe('Open files… through the file picker', () => {
  test('picked files open as one session, are kept in recent files and reopen after a reload', async ({
    page,
  }) => {
    const { main, others, mainApiCalls } = sessionWithSubagent();
    expect(others.map((f) => f.name)).toEqual([expect.stringMatching(/^agent-.*\.jsonl$/)]);
    // The subagent log first: the session still starts from the main file.
    await stubFilePicker(page, { pick: [...others, main].map((f) => f.name) });
    await page.setViewportSize({ width: 1280, height: 720 });
    await openEmpty(page);
    await writeOpfsFiles(
      page,
      FOLDER,
      [main, ...others].map((f) => ({ path: f.name, text: f.text })),
      true,
    );
    const apiCalls = page.getByTestId('stat-api-calls');

    // The same files through the file input, for the figures the picker must give too.
    await page.getByTestId('file-input').setInputFiles(
      [main, ...others].map((f) => ({
        name: f.name,
        mimeType: 'application/x-ndjson',
        buffer: Buffer.from(f.text),
      })),
    );
    await expect(apiCalls).toHaveAttribute('title', `${mainApiCalls} in the main conversation`);
    const inputCalls = await apiCalls.textContent();
    const inputSubagents = await page.getByTestId('stat-subagents').textContent();
    expect(inputSubagents).toMatch(/1/);

    await page.getByTestId('open-files').click();
    const label = `${main.name} + 1 more file`;
    await expect(page.locator('.current-label')).toHaveText(label);
    await expect(apiCalls).toHaveAttribute('title', `${mainApiCalls} in the main conversation`);
    await expect(apiCalls).toHaveText(inputCalls!);
    await expect(page.getByTestId('stat-subagents')).toHaveText(inputSubagents!);
    expect(await counters(page)).toEqual({ pickerCalls: 1, fileInputClicks: 0 });
    expect(
      await page.evaluate(() => (window as unknown as { pickerOptions: unknown }).pickerOptions),
    ).toEqual({
      id: 'transcripts',
      multiple: true,
      types: [
        {
          description: 'Transcripts',
          accept: { 'application/x-ndjson': ['.jsonl'], 'application/json': ['.json'] },
        },
      ],
    });
    // Two files: not offered to live mode.
    await expect(page.getByTestId('follow-bar')).toHaveCount(0);

    // After a reload the start page offers them again instead of opening the sample. The recent
    // files are written to IndexedDB after the session opens: on a busy machine the first reload
    // can come before the write, so reload until it shows (it must within the timeout).
    await expect(async () => {
      await page.goto('/');
      await expect(page.getByTestId('reopen-last')).toHaveText(`Reopen ${label}`, { timeout: 3_000 });
    }).toPass({ timeout: 20_000 });
    await expect(page.getByTestId('recent-file')).toHaveCount(0);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.getByTestId('reopen-last').click();
    await expect(page.locator('.current-label')).toHaveText(label);
    await expect(apiCalls).toHaveAttribute('title', `${mainApiCalls} in the main conversation`);
    await expect(apiCalls).toHaveText(inputCalls!);
    await expect(page.getByTestId('stat-subagents')).toHaveText(inputSubagents!);
    expect(await counters(page)).toEqual({ pickerCalls: 0, fileInputClicks: 0 });
  });

  test('one picked file can be followed, reopened from recent files too; another file opened stops it', async ({
    page,
  }) => {
    const session = generateSession({ seed: 11, apiCalls: 40 });
    const file = session.files[0]!;
    const lines = file.text.trimEnd().split('\n');
    const cut = Math.floor((lines.length * 2) / 3);
    const head = `${lines.slice(0, cut).join('\n')}\n`;
    const tail = `${lines.slice(cut).join('\n')}\n`;
    await stubFilePicker(page, { pick: [file.name] });
    await openEmpty(page);
    await writeOpfsFiles(page, FOLDER, [{ path: file.name, text: head }], true);
    const apiCalls = page.getByTestId('stat-api-calls');

    await page.getByTestId('open-files').click();
    await expect(page.locator('.current-label')).toHaveText(file.name);
    await expect(page.getByTestId('follow-bar')).toBeVisible();
    const callsBefore = Number((await apiCalls.textContent())?.match(/^\d+/)?.[0]);
    expect(callsBefore).toBeGreaterThan(0);
    expect(callsBefore).toBeLessThan(40);
    // Followed, it reads what the agent appends through its file handle: only those bytes.
    await page.getByTestId('follow-toggle').click();
    await expect(page.getByTestId('follow-toggle')).toHaveAttribute('aria-pressed', 'true');
    await appendOpfsFile(page, FOLDER, file.name, tail);
    await expect(apiCalls).toHaveText('40 API calls');
    await expect(page.getByTestId('follow-read-bytes')).toHaveText(
      Buffer.byteLength(tail).toLocaleString('en-US'),
    );
    await expect(page.getByTestId('follow-step')).toHaveAttribute('data-reparsed', 'false');
    await page.getByTestId('follow-toggle').click();

    // Reopened after a reload, it can be followed again; it was kept at its picked size.
    await page.reload();
    await expect(page.getByTestId('reopen-last')).toHaveText(`Reopen ${file.name}`);
    await page.getByTestId('reopen-last').click();
    await expect(apiCalls).toHaveText('40 API calls');
    await expect(page.getByTestId('follow-bar')).toBeVisible();
    await page.getByTestId('follow-toggle').click();
    await expect(page.getByTestId('follow-toggle')).toHaveAttribute('aria-pressed', 'true');

    // Another file opened through the input is not followable: the bar goes, and with it the polling.
    await page.getByTestId('file-input').setInputFiles(path.join(FIXTURES_DIR, 'tiny.jsonl'));
    await expect(page.locator('.current-label')).toHaveText('tiny.jsonl');
    await expect(apiCalls).toHaveText('6 API calls');
    await expect(page.getByTestId('follow-bar')).toHaveCount(0);
    await appendOpfsFile(page, FOLDER, file.name, tail);
    await page.waitForTimeout(2_500); // two of live mode's one-second steps, had it gone on
    await expect(apiCalls).toHaveText('6 API calls');
    await expect(page.locator('.current-label')).toHaveText('tiny.jsonl');
  });

  test('a closed picker leaves the page as it was', async ({ page }) => {
    await stubFilePicker(page, { fail: 'AbortError' });
    await openEmpty(page);
    await page.getByTestId('file-input').setInputFiles(path.join(FIXTURES_DIR, 'tiny.jsonl'));
    await expect(page.getByTestId('stat-api-calls')).toHaveText('6 API calls');
    const choosers: unknown[] = [];
    page.on('filechooser', (chooser) => choosers.push(chooser));

    await page.getByTestId('open-files').click();
    expect(await counters(page)).toEqual({ pickerCalls: 1, fileInputClicks: 0 });
    await expect(page.locator('.current-label')).toHaveText('tiny.jsonl');
    await expect(page.getByTestId('stat-api-calls')).toHaveText('6 API calls');
    await expect(page.getByTestId('load-notice')).toHaveCount(0);
    expect(choosers).toEqual([]);
  });

  test('another failure of the picker falls back to the file input', async ({ page }) => {
    await stubFilePicker(page, { fail: 'SecurityError' });
    await openEmpty(page);
    const chooser = page.waitForEvent('filechooser');
    await page.getByTestId('open-files').click();
    const fileChooser = await chooser;
    expect(fileChooser.isMultiple()).toBe(true);
    expect(await counters(page)).toEqual({ pickerCalls: 1, fileInputClicks: 1 });
    await fileChooser.setFiles(path.join(FIXTURES_DIR, 'tiny.jsonl'));
    await expect(page.locator('.current-label')).toHaveText('tiny.jsonl');
    await expect(page.getByTestId('stat-api-calls')).toHaveText('6 API calls');
    // The input gives no handle: nothing is kept for the start page.
    await page.goto('/?sample=0');
    await expect(page.getByTestId('dropzone')).toBeVisible();
    await expect(page.getByTestId('recent-files')).toHaveCount(0);
  });

  test('without showOpenFilePicker the button opens the file input', async ({ page }) => {
    await page.addInitScript(() => {
      delete (window as { showOpenFilePicker?: unknown }).showOpenFilePicker;
    });
    await openEmpty(page);
    const chooser = page.waitForEvent('filechooser');
    await page.getByTestId('open-files').click();
    await (await chooser).setFiles(path.join(FIXTURES_DIR, 'tiny.jsonl'));
    await expect(page.getByTestId('stat-api-calls')).toHaveText('6 API calls');
  });
});
