import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, openEmpty, test } from './fixtures';

// docs/user-guide.md, walked as written on a real project folder (the restored corpus /tmp/cctree,
// copied with its links resolved: the browser's folder input does not follow them): _Open folder…_
// lists its sessions, ↑ ↓ in the focused list then Enter opens one with its subagent files. The
// tab and the top bar named such a session "<id>.jsonl (<id>.jsonl + 8 more files)", the file
// twice; they say "<id>.jsonl + 8 more files". Skipped when the corpus is absent.

const PROJECT = '/tmp/cctree/LAF-US__IDAHO-VAULT/.claude/projects/c--Users-loganf-Documents-IDAHO-VAULT';
const SESSION = '05541cb5-fe43-41c9-87ef-2a6d89bba271';

/** The main thread's API calls and compactions of raw Claude Code lines, without the app's parser. */
function countRaw(file: string): { calls: number; compactions: number } {
  const ids = new Set<string>();
  let compactions = 0;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as {
      type?: string;
      subtype?: string;
      message?: { id?: string; model?: string; usage?: unknown };
    };
    if (r.type === 'assistant' && r.message?.usage && r.message.id && r.message.model !== '<synthetic>')
      ids.add(r.message.id);
    if (r.type === 'system' && r.subtype === 'compact_boundary') compactions++;
  }
  return { calls: ids.size, compactions };
}

test.describe('the user guide on a real project folder', () => {
  test.skip(!fs.existsSync(PROJECT), `the restored corpus folder is absent (${PROJECT})`);

  test('open the folder, pick a session from the keyboard: the tab names its files once', async ({
    page,
  }) => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'compactlab-guide-folder-'));
    const folder = path.join(root, path.basename(PROJECT));
    fs.cpSync(PROJECT, folder, { recursive: true, dereference: true });
    const sessionDir = path.join(folder, SESSION, 'subagents');
    const subagentFiles = fs.readdirSync(sessionDir);
    const main = countRaw(path.join(folder, `${SESSION}.jsonl`));

    await page.setViewportSize({ width: 1280, height: 720 });
    await openEmpty(page);
    await page.getByTestId('folder-input').setInputFiles(folder);
    const row = page.locator(`[data-testid="library-row"][data-key$="${SESSION}.jsonl"]`);
    await expect(row.locator('[data-col="calls"]')).toContainText(String(main.calls));
    await expect(row.locator('[data-col="compactions"]')).toContainText(`${main.compactions} / 0 / 0µ`);
    // The folder's chip: its long name gives way, its count stays on one line ("· 3 sessions").
    const count = page.getByTestId('library-root-count');
    await expect(count).toHaveText(/· \d+ sessions/);
    const heights = await count.evaluate((e) => ({
      count: e.getBoundingClientRect().height,
      name: e.previousElementSibling!.getBoundingClientRect().height,
    }));
    expect(heights.count, 'the count on one line, as high as the name').toBeLessThan(heights.name * 1.5);

    // "one click (or ↑ ↓ in the focused list, then Enter) opens a session with its subagent files"
    const rows = page.getByTestId('library-row');
    const index = await rows.evaluateAll(
      (els, id) => els.findIndex((e) => (e.getAttribute('data-key') ?? '').endsWith(`${id}.jsonl`)),
      SESSION,
    );
    await page.getByTestId('library-rows').focus();
    for (let i = 0; i <= index; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('stat-api-calls')).toContainText(String(main.calls));
    const files = `${SESSION}.jsonl + ${subagentFiles.length} more files`;
    await expect(page).toHaveTitle(`${files} · CompactLab`);
    await expect(page.locator('.current-label')).toHaveText(files);
    fs.rmSync(root, { recursive: true, force: true });
  });
});
