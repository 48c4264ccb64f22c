import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { generateSessionLines } from '../sample/generate-session';

// A big file is drawn while it is read, and Stop here keeps what was read (issue 20 item 2). The file
// is generated: ~80 MB, enough for several progress reports at the parse's 4 MiB reads.

let file: string;
let totalCalls = 0;

test.beforeAll(() => {
  file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'compactlab-progressive-')), 'big.jsonl');
  const out = fs.openSync(file, 'w');
  let batch: string[] = [];
  const ids = new Set<string>();
  for (const { file: name, line } of generateSessionLines({ seed: 31, targetBytes: 80 * 1024 * 1024 })) {
    if (name.includes('/')) continue;
    // A call is a response: its streamed lines share one message id.
    const record = JSON.parse(line);
    const id = record.message?.id;
    if (
      record.type === 'assistant' &&
      record.message?.usage &&
      record.message.model !== '<synthetic>' &&
      !record.isSidechain &&
      !ids.has(id)
    ) {
      ids.add(id);
      totalCalls++;
    }
    batch.push(line);
    if (batch.length >= 2_000) {
      fs.writeSync(out, `${batch.join('\n')}\n`);
      batch = [];
    }
  }
  fs.writeSync(out, `${batch.join('\n')}\n`);
  fs.closeSync(out);
});

test.afterAll(() => fs.rmSync(path.dirname(file), { recursive: true, force: true }));

test('the timeline is drawn while the file is read and grows until the session replaces it (light)', async ({
  page,
}, info) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 720 });
  // Every count of calls the preview draws, recorded as it changes (no polling race).
  await page.addInitScript(`
    window.__drawn = [];
    new MutationObserver(() => {
      const n = Number(document.querySelector('[data-testid="load-preview"] svg')?.getAttribute('data-calls') ?? 0);
      if (n > 0 && window.__drawn.at(-1) !== n) window.__drawn.push(n);
    }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-calls'] });
  `);
  // The parse's 4 MiB chunks are read by the engine's reader worker (worker/blob-reader.ts), started
  // with the engine worker when the page is first idle: listened for before the page loads.
  const reader = page.context().waitForEvent('request', { predicate: (r) => /read\.worker/.test(r.url()) });
  await page.goto('/?sample=0');
  await page.getByTestId('file-input').setInputFiles(file);
  const preview = page.getByTestId('load-preview');
  await expect(preview).toBeVisible({ timeout: 30_000 });
  await reader;
  const box = (await preview.locator('svg').boundingBox())!;
  expect(box.width).toBeGreaterThan(1000);
  expect(box.height).toBeGreaterThan(200);
  await page.screenshot({ path: info.outputPath('load-preview-light.png') });
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-calls', String(totalCalls), {
    timeout: 60_000,
  });
  await expect(preview).toHaveCount(0);
  const drawn = (await page.evaluate('window.__drawn')) as number[];
  // Several growing steps before the whole session.
  expect(drawn.length).toBeGreaterThanOrEqual(3);
  expect(drawn).toEqual([...drawn].sort((a, b) => a - b));
  expect(drawn[0]!).toBeLessThan(totalCalls);
});

test('Stop here while the file is read keeps what was read and says it is partial (dark)', async ({
  page,
}, info) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/?sample=0');
  await page.getByTestId('file-input').setInputFiles(file);
  const preview = page.getByTestId('load-preview');
  await expect(preview).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('load-preview-stop').click();
  await page.screenshot({ path: info.outputPath('load-preview-dark.png') });
  // The session read so far is shown, said to be partial.
  await expect(page.getByTestId('load-notice')).toContainText(/Stopped reading big\.jsonl at \d+%/, {
    timeout: 30_000,
  });
  await expect(preview).toHaveCount(0);
  const shown = Number(
    (await page.getByTestId('stat-api-calls').locator('.stat-value').textContent())!.replace(/,/g, ''),
  );
  expect(shown).toBeGreaterThan(0);
  expect(shown).toBeLessThan(totalCalls);
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-calls', String(shown));
  await page.getByTestId('stat-issues').click();
  await expect(
    page.getByText(/Reading big\.jsonl was stopped at \d+% \(byte [\d,]+ of [\d,]+\)/),
  ).toBeVisible();
});
