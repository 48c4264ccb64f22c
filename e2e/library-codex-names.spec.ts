import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, openEmpty, test } from './fixtures';
import { CODEX_ROLLOUT } from './library-folder';
import { appendOpfsFile, type TreeFile, writeOpfsFiles, stubFolderPicker } from './opfs';

// A ~/.codex folder opened as a library: the rollouts are listed under the names Codex keeps in
// ~/.codex/session_index.jsonl (its own line shape, `{"id","thread_name","updated_at"}`, the newest
// line of a thread winning: openai/codex codex-rs/core/src/rollout/session_index.rs), as Codex's own
// list names them; a thread the index does not name shows its first prompt. Every way a row is
// listed takes the name: the folder picked or dropped, the listing restored after a reload, a row
// live mode replaces (each of the last three showed the first prompt instead).

const NAMED = 'Garden beds, watered';

/** Two rollouts (one named by the index, twice) and the index, under `.codex/`. */
function codexFiles(): TreeFile[] {
  const rollout = (id: string): TreeFile => ({
    path: `sessions/2026/05/01/rollout-2026-05-01T09-00-00-${id}.jsonl`,
    text: `${CODEX_ROLLOUT.map((l) => l.replace('"c0dex"', `"${id}"`)).join('\n')}\n`,
  });
  const index = [
    { id: 'c0dex-named', thread_name: 'Garden beds', updated_at: '2026-05-01T09:10:00Z' },
    { id: 'c0dex-named', thread_name: NAMED, updated_at: '2026-05-01T09:20:00Z' },
  ];
  return [
    rollout('c0dex-named'),
    rollout('c0dex-plain'),
    { path: 'session_index.jsonl', text: `${index.map((r) => JSON.stringify(r)).join('\n')}\n` },
  ];
}

function writeCodexFolder(): string {
  const root = path.join(os.tmpdir(), `compactlab-codex-names-e2e-${process.pid}`, '.codex');
  fs.rmSync(path.dirname(root), { recursive: true, force: true });
  for (const f of codexFiles()) {
    const p = path.join(root, f.path);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, f.text);
  }
  return root;
}

/** The two rows listed, the named one under its index name, the other under its first prompt. */
async function expectNames(page: Page): Promise<void> {
  const rows = page.getByTestId('library-row');
  // The index is not a session: two rows, the rollouts.
  await expect(rows).toHaveCount(2);
  await expect(page.getByTestId('library-scan')).toHaveCount(0);
  const named = rows.and(page.locator('[data-key$="c0dex-named.jsonl"]'));
  const plain = rows.and(page.locator('[data-key$="c0dex-plain.jsonl"]'));
  await expect(named.locator('[data-col="prompt"]')).toHaveText(NAMED);
  await expect(plain.locator('[data-col="prompt"]')).toHaveText('List the beds');
}

test('library: Codex rollouts take their names from ~/.codex/session_index.jsonl, after a reload too', async ({
  page,
}) => {
  const root = writeCodexFolder();
  await openEmpty(page);
  await page.getByTestId('folder-input').setInputFiles(root);
  await expectNames(page);
  // Reloaded: the listing comes back from the cache (the folder not open), named as it was.
  await page.reload();
  await expect(page.getByTestId('library-reopen')).toBeVisible();
  await expectNames(page);
  fs.rmSync(path.dirname(root), { recursive: true, force: true });
});

test('library: a ~/.codex folder dropped on the page lists its rollouts under their names', async ({
  page,
}) => {
  await openEmpty(page);
  // A folder drop as the browser gives it (DataTransfer items whose entries are a directory
  // tree): Playwright's own drops carry files only.
  await page.evaluate((files) => {
    const file = (f: { path: string; text: string }) => ({
      isFile: true,
      isDirectory: false,
      name: f.path.split('/').at(-1)!,
      file: (ok: (file: File) => void) => ok(new File([f.text], f.path.split('/').at(-1)!)),
    });
    const dir = (name: string, prefix: string): object => {
      const children = new Map<string, object>();
      for (const f of files) {
        if (!f.path.startsWith(prefix)) continue;
        const [head, ...rest] = f.path.slice(prefix.length).split('/');
        if (!children.has(head!))
          children.set(head!, rest.length === 0 ? file(f) : dir(head!, `${prefix}${head}/`));
      }
      return {
        isFile: false,
        isDirectory: true,
        name,
        createReader: () => {
          let given = false;
          return {
            readEntries: (ok: (e: object[]) => void) => {
              ok(given ? [] : [...children.values()]);
              given = true;
            },
          };
        },
      };
    };
    const top = dir('.codex', '');
    const dataTransfer = {
      items: [{ kind: 'file', webkitGetAsEntry: () => top }],
      files: [],
      types: ['Files'],
    };
    const drop = new Event('drop', { bubbles: true, cancelable: true });
    Object.defineProperty(drop, 'dataTransfer', { value: dataTransfer });
    document.querySelector('[data-testid="dropzone"]')!.dispatchEvent(drop);
  }, codexFiles());
  await expectNames(page);
  await expect(page.locator('.library-title')).toHaveText('.codex');
});

test('library: a followed Codex rollout keeps its name in the list as it grows', async ({ page }) => {
  // "Open folder…" through a directory handle (the origin-private file system, as
  // library-picker.spec.ts): live mode re-reads the rollout through it and replaces its row.
  await stubFolderPicker(page, '.codex');
  await openEmpty(page);
  await writeOpfsFiles(page, '.codex', codexFiles(), true);
  await page.getByTestId('open-folder').click();
  await expectNames(page);
  const key = (await page.locator('[data-key$="c0dex-named.jsonl"]').getAttribute('data-key'))!;
  await page.locator(`[data-key="${key}"]`).click();
  await expect(page.getByTestId('session-header')).toBeVisible();
  await page.getByTestId('follow-toggle').click();
  await expect(page.getByTestId('follow-toggle')).toHaveAttribute('aria-pressed', 'true');
  // The thread goes on: a second prompt and its token count.
  const rollout = codexFiles()[0]!.path;
  const usage = { input_tokens: 1400, cached_input_tokens: 1200, output_tokens: 30, total_tokens: 1430 };
  const total = { input_tokens: 2600, cached_input_tokens: 1200, output_tokens: 70, total_tokens: 2670 };
  const more = [
    {
      type: 'response_item',
      payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Water them' }] },
    },
    {
      type: 'event_msg',
      payload: { type: 'token_count', info: { total_token_usage: total, last_token_usage: usage } },
    },
  ].map((r, i) => JSON.stringify({ timestamp: `2026-05-01T09:05:0${i}.000Z`, ...r }));
  await appendOpfsFile(page, '.codex', rollout, `${more.join('\n')}\n`);
  await page.getByTestId('library-toggle').click();
  const row = page.locator(`[data-key="${key}"]`);
  await expect(row.locator('[data-col="calls"]')).toHaveText(/^2\b/);
  await expect(row.locator('[data-col="prompt"]')).toHaveText(NAMED);
});
