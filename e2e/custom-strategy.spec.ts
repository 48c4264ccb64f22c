import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { cpuOver, QUIET_CPU_MS, waitBusy } from './browser-cpu';
import { expect, SAMPLES_DIR, test } from './fixtures';

// The Custom strategy editor on the bundled sample, at 1280×720: a strategy of ~15 lines imported
// as a .ts file is shown and runs only on Run, in its sandbox worker (no network, no storage),
// beside Claude Code's and Codex's; an error names its line; an endless loop is stopped by the
// time limit while the page stays responsive. The fixtures fail the test on any request that
// leaves localhost and on any console error (a CSP violation included).

const INDEX = path.join(SAMPLES_DIR, 'index.json');

const SHORT = `import type { Strategy } from 'compactlab/strategy';

// Over 90k, summarize all but the newest 20k tokens; checks first that the sandbox is bare.
export default {
  id: 'keep-20k',
  label: 'Keep the newest 20k',
  knobs: [{ key: 'trigger', label: 'Trigger', kind: 'number', unit: 'tokens', default: 90_000 }],
  thresholds: (k) => [{ label: 'Trigger', tokens: k.trigger }],
  step(view, k) {
    const g = self as unknown as Record<string, unknown>;
    const proto = Object.getPrototypeOf(self) as Record<string, unknown>;
    for (const name of ['fetch', 'XMLHttpRequest', 'WebSocket', 'indexedDB', 'importScripts', 'Worker'])
      if (g[name] !== undefined || proto[name] !== undefined) throw new Error(name + ' is reachable');
    if (view.usageTokens < k.trigger) return [];
    return [{ kind: 'summarize', keepFrom: view.keepRecentFrom(20_000), note: 'kept the newest 20k' }];
  },
} satisfies Strategy<{ trigger: number; contextWindow: number }>;
`;

const THROWS = `import type { Strategy } from 'compactlab/strategy';

export default {
  id: 'throws',
  label: 'Throws',
  step(view) {
    if (view.call === 3) throw new Error('call three');
    return [];
  },
} satisfies Strategy;
`;

const ENDLESS = `import type { Strategy } from 'compactlab/strategy';

export default {
  id: 'endless',
  label: 'Endless',
  step() {
    for (;;) {}
  },
} satisfies Strategy;
`;

async function openCustom(page: Page): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/');
  await expect(page.getByTestId('session-header')).toBeVisible();
  await expect(page.getByTestId('replay-section')).toHaveAttribute('data-busy', 'false');
  await page.getByTestId('custom-open').click();
  await expect(page.getByTestId('custom-editor').locator('.monaco-editor')).toBeVisible({ timeout: 30_000 });
}

async function importFile(page: Page, name: string, text: string): Promise<void> {
  await page
    .getByTestId('custom-import')
    .setInputFiles({ name, mimeType: 'text/plain', buffer: Buffer.from(text) });
  await expect(page.getByTestId('custom-name')).toHaveValue(name);
}

test.describe('custom strategy', () => {
  test.skip(!fs.existsSync(INDEX), 'public/samples/index.json is not there yet (run the sample generator)');
  test.setTimeout(120_000);

  test('a short strategy runs beside Claude Code and Codex; a throw names its line', async ({ page }) => {
    await openCustom(page);
    await importFile(page, 'keep-20k.ts', SHORT);
    // Imported, shown, not run.
    await expect(page.getByTestId('custom-result')).toHaveCount(0);
    await expect(page.getByTestId('custom-editor')).toContainText('Keep the newest 20k');
    await page.getByTestId('custom-run').click();
    const table = page.getByTestId('custom-table');
    await expect(table).toBeVisible({ timeout: 60_000 });
    // Its row beside Claude Code's and Codex's (and the log's own, Claude Code here), its line on the chart.
    await expect(table.getByTestId('compare-row')).toHaveCount(3);
    expect(
      await table
        .getByTestId('compare-row')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-strategy'))),
    ).toEqual(['claude-code', 'codex', 'keep-20k']);
    await expect(page.getByTestId('custom-result').getByTestId('compare-series')).toHaveCount(3);
    await expect(page.getByTestId('custom-where-own')).toContainText(/compact after call \d+/);
    await page.getByTestId('custom-strategy').screenshot({ path: 'test-results/custom-strategy.png' });

    // Its knob, set in the panel, takes effect on the next Run: a higher trigger, fewer compactions.
    const own = () => table.locator('[data-testid="compare-row"][data-strategy="keep-20k"]');
    const before = Number(await own().getAttribute('data-llm-calls'));
    expect(before).toBeGreaterThan(1);
    await page.getByTestId('custom-knobs').locator('[data-knob="trigger"]').fill('150000');
    await page.getByTestId('custom-run').click();
    await expect(own()).not.toHaveAttribute('data-llm-calls', String(before), { timeout: 60_000 });
    expect(Number(await own().getAttribute('data-llm-calls'))).toBeLessThan(before);

    await importFile(page, 'throws.ts', THROWS);
    await page.getByTestId('custom-run').click();
    await expect(page.getByTestId('custom-error')).toContainText(
      'throws.ts:7: step at call 4 threw Error: call three',
      {
        timeout: 60_000,
      },
    );

    // A type error is named at its line before anything runs.
    await importFile(page, 'typo.ts', SHORT.replace('view.usageTokens', 'view.usageTokenz'));
    await page.getByTestId('custom-run').click();
    await expect(page.getByTestId('custom-problems')).toContainText(/line 14: .*usageTokenz/, {
      timeout: 30_000,
    });

    // A file with no default export says so and what it must export (it read "id undefined must be …").
    await importFile(page, 'noexport.ts', 'const x = 1;\n');
    await page.getByTestId('custom-run').click();
    await expect(page.getByTestId('custom-error')).toContainText(
      'noexport.ts: the file has no default export: it must `export default` a strategy object',
      { timeout: 60_000 },
    );
    await expect(page.getByTestId('custom-error')).toContainText('docs/custom-strategies.md');
    await page.screenshot({ path: 'test-results/custom-noexport.png' });
  });

  // The walk of session 15: a Run had no Cancel (its button read "Running…", inert), so an endless
  // loop kept a core busy until the sandbox's 20 s limit. Cancel terminates the sandbox's worker:
  // said at once, the focus back on Run, and the browser's CPU falls.
  test('Cancel stops an endless loop in its sandbox at once: said, the CPU falls, Run has the focus', async ({
    page,
  }) => {
    test.skip(!fs.existsSync('/proc/self/stat'), "the browser's CPU time is read from /proc (Linux)");
    await openCustom(page);
    await importFile(page, 'endless.ts', ENDLESS);
    await page.getByTestId('custom-run').click();
    // After the compile ("Compiling endless.ts…"): a CI run under load clicked Cancel while the
    // editor's TypeScript still compiled (the CPU busy with it), and the page rightly said
    // "cancelled before it ran", where the status had read "Running in the sandbox…" throughout.
    await expect(page.getByTestId('custom-status')).toHaveText('Running in the sandbox…', {
      timeout: 60_000,
    });
    // Spinning: the sandbox holds a core (over 3 s, more CPU than a quiet page's 3 s).
    await page.waitForTimeout(1000);
    // Under load the sandbox gets less than a core: the window is as long as the spin took.
    const spinMs = await waitBusy((ms) => page.waitForTimeout(ms));
    const t0 = Date.now();
    await page.getByTestId('custom-cancel').click();
    await expect(page.getByTestId('custom-error')).toHaveText(
      'endless.ts: cancelled: its sandbox was stopped.',
    );
    expect(Date.now() - t0).toBeLessThan(5_000);
    await expect(page.getByTestId('custom-cancel')).toHaveCount(0);
    await expect(page.getByTestId('custom-run')).toBeFocused();
    await expect(page.getByTestId('custom-run')).toHaveText('Run');
    // What the Cancel set off (the page drawing the message) has landed (ours: 1 s).
    await page.waitForTimeout(1000);
    expect(await cpuOver(spinMs, (ms) => page.waitForTimeout(ms))).toBeLessThan(QUIET_CPU_MS);
    // The editor runs again after it: a short strategy runs to its table.
    await importFile(page, 'keep-20k.ts', SHORT);
    await page.getByTestId('custom-run').click();
    await expect(page.getByTestId('custom-table')).toBeVisible({ timeout: 60_000 });
  });

  test('an endless loop is stopped by the time limit, the page responsive meanwhile', async ({ page }) => {
    await openCustom(page);
    await importFile(page, 'endless.ts', ENDLESS);
    await page.getByTestId('custom-run').click();
    await expect(page.getByTestId('custom-status')).toBeVisible();
    // The page answers while the sandbox spins: the knobs panel opens and closes.
    const t0 = Date.now();
    expect(await page.evaluate(() => 1 + 1)).toBe(2);
    expect(Date.now() - t0).toBeLessThan(2_000);
    await expect(page.getByTestId('custom-error')).toContainText(
      'endless.ts: stopped: the strategy ran past its time limit',
      {
        timeout: 60_000,
      },
    );
    await page
      .getByTestId('custom-strategy')
      .screenshot({ path: 'test-results/custom-strategy-endless.png' });
  });
});
