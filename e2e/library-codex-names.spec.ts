import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, openEmpty, test } from './fixtures';
import { CODEX_ROLLOUT } from './library-folder';

// A ~/.codex folder opened as a library: the rollouts are listed under the names Codex keeps in
// ~/.codex/session_index.jsonl (its own line shape, `{"id","thread_name","updated_at"}`, the newest
// line of a thread winning: openai/codex codex-rs/core/src/rollout/session_index.rs), as Codex's own
// list names them; a thread the index does not name shows its first prompt.

test('library: Codex rollouts take their names from ~/.codex/session_index.jsonl', async ({ page }) => {
  const root = path.join(os.tmpdir(), `compactlab-codex-names-e2e-${process.pid}`, '.codex');
  fs.rmSync(path.dirname(root), { recursive: true, force: true });
  const write = (rel: string, text: string) => {
    const p = path.join(root, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, text);
  };
  for (const id of ['c0dex-named', 'c0dex-plain'])
    write(
      `sessions/2026/05/01/rollout-2026-05-01T09-00-00-${id}.jsonl`,
      `${CODEX_ROLLOUT.map((l) => l.replace('"c0dex"', `"${id}"`)).join('\n')}\n`,
    );
  write(
    'session_index.jsonl',
    `${[
      { id: 'c0dex-named', thread_name: 'Garden beds', updated_at: '2026-05-01T09:10:00Z' },
      { id: 'c0dex-named', thread_name: 'Garden beds, watered', updated_at: '2026-05-01T09:20:00Z' },
    ]
      .map((r) => JSON.stringify(r))
      .join('\n')}\n`,
  );
  await openEmpty(page);
  await page.getByTestId('folder-input').setInputFiles(root);
  const rows = page.getByTestId('library-row');
  // The index is not a session: two rows, the rollouts.
  await expect(rows).toHaveCount(2);
  await expect(page.getByTestId('library-scan')).toHaveCount(0);
  const named = rows.and(page.locator('[data-key$="c0dex-named.jsonl"]'));
  const plain = rows.and(page.locator('[data-key$="c0dex-plain.jsonl"]'));
  await expect(named.locator('[data-col="prompt"]')).toHaveText('Garden beds, watered');
  await expect(plain.locator('[data-col="prompt"]')).toHaveText('List the beds');
  fs.rmSync(path.dirname(root), { recursive: true, force: true });
});
