import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cpuOver, QUIET_CPU_MS, waitBusy } from './browser-cpu';
import { expect, REPO_ROOT, SAMPLES_DIR, test } from './fixtures';
import { writeLibraryFolder } from './library-folder';
import type { Page } from '@playwright/test';

// The library's What if… with a custom strategy (the product brief: "write their own strategy and
// see what each setting would have cost across all their sessions"), at 1280×720: a strategy run
// in the page's editor is offered beside the built-ins, replayed in its sandbox over every listed
// session at two settings of its knob, and its totals are `compactlab stats --strategy-file`'s for
// the same folder; a sweep of its knob and a cancel. The fixtures fail the test on a console error
// or a request off localhost (the sandbox has no network).

const INDEX = path.join(SAMPLES_DIR, 'index.json');

const EARLY = `import type { Strategy } from 'compactlab/strategy';

// Over the trigger, clear every tool result but the newest few; still over, summarize all but the newest 8k.
export default {
  id: 'early-clear',
  label: 'Early clear',
  knobs: [
    { key: 'trigger', label: 'Trigger', kind: 'number', unit: 'tokens', default: 40_000, min: 1_000 },
    { key: 'keep', label: 'Results kept', kind: 'number', unit: 'count', default: 3, integer: true, min: 0 },
  ],
  thresholds: (k) => [{ label: 'Trigger', tokens: k.trigger }],
  step(view, k) {
    if (view.usageTokens < k.trigger) return [];
    const live = view.results().filter((r) => !r.cleared);
    const old = live.slice(0, Math.max(0, live.length - k.keep));
    const saved = old.reduce((s, r) => s + r.tokens, 0);
    const out: ({ kind: 'clear'; results: number[] } | { kind: 'summarize'; keepFrom: number })[] = [];
    if (old.length > 0) out.push({ kind: 'clear', results: old.map((r) => r.id) });
    if (view.usageTokens - saved >= k.trigger) out.push({ kind: 'summarize', keepFrom: view.keepRecentFrom(8_000) });
    return out;
  },
} satisfies Strategy<{ trigger: number; keep: number; contextWindow: number }>;
`;

/** Runs on the sample (380 calls), loops for ever on any other session: a what-if's hang. */
const STUCK = `import type { Strategy } from 'compactlab/strategy';

export default {
  id: 'stuck',
  label: 'Stuck',
  knobs: [{ key: 'trigger', label: 'Trigger', kind: 'number', unit: 'tokens', default: 40_000, min: 1_000 }],
  step(view) {
    if (view.callCount !== 380) for (;;) {}
    return [];
  },
} satisfies Strategy<{ trigger: number; contextWindow: number }>;
`;

interface TotalRow {
  row: string;
  setting: string;
  sessions: number;
  costUsd: number;
  realCostUsd: number;
  compactions: number;
  summarizedTokens: number;
  retention: number | null;
}

/** The page on the bundled sample, its replay settled, the custom strategy's editor open. */
async function openEditorOnSample(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByTestId('replay-section')).toHaveAttribute('data-busy', 'false', {
    timeout: 60_000,
  });
  await page.getByTestId('custom-open').click();
  await expect(page.getByTestId('custom-editor').locator('.monaco-editor')).toBeVisible({
    timeout: 30_000,
  });
}

/**
 * The strategy file run in the open editor (on the sample), then the folder listed and What if…
 * opened on it.
 */
async function runThenOpenWhatIf(
  page: Page,
  strategy: string | { name: string; mimeType: string; buffer: Buffer },
  root: string,
  sessions: number,
): Promise<void> {
  await page.getByTestId('custom-import').setInputFiles(strategy);
  await page.getByTestId('custom-run').click();
  await expect(page.getByTestId('custom-table')).toBeVisible({ timeout: 60_000 });
  await page.getByTestId('folder-input').setInputFiles(root);
  await expect(page.getByTestId('library-row')).toHaveCount(sessions, { timeout: 60_000 });
  await expect(page.getByTestId('library-scan')).toHaveCount(0, { timeout: 60_000 });
  await page.getByTestId('library-whatif').click();
}

test.describe('library what-if with a custom strategy', () => {
  test.skip(!fs.existsSync(INDEX), 'public/samples/index.json is not there yet (run the sample generator)');
  test.use({ viewport: { width: 1280, height: 720 } });

  test('run in the editor, replayed over the listed sessions in its sandbox: the CLI’s figures', async ({
    page,
  }, testInfo) => {
    test.setTimeout(240_000);
    const tmp = path.join(os.tmpdir(), `compactlab-whatif-custom-e2e-${process.pid}`);
    const { root, sessions } = writeLibraryFolder(path.join(tmp, 'home'));
    const file = path.join(tmp, 'early.ts');
    fs.writeFileSync(file, EARLY);

    // Run in the editor on the session shown (the bundled sample), then the folder listed: What
    // if… offers it after the built-ins.
    await openEditorOnSample(page);
    await runThenOpenWhatIf(page, file, root, sessions);
    const strategy = page.getByTestId('whatif-strategy');
    await expect(strategy.locator('option[value="early-clear"]')).toHaveText('Custom: Early clear');
    await strategy.selectOption('early-clear');
    await expect(page.getByTestId('whatif-knob')).toHaveValue('trigger');
    await expect(page.getByTestId('whatif-knob').locator('option')).toHaveText([
      'Trigger',
      'Results kept',
      'Context window',
    ]);
    await expect(page.getByTestId('whatif-a')).toHaveValue('30000');
    await expect(page.getByTestId('whatif-b')).toHaveValue('40000');
    // Retention by the built-in summarizer only: no model is called from the sandbox.
    await expect(page.getByTestId('whatif-summarizer')).toHaveCount(0);
    await expect(page.getByTestId('whatif-custom-summarizer')).toBeVisible();
    await page.getByTestId('whatif-run').click();
    const status = page.getByTestId('whatif-status');
    await expect(status).toHaveAttribute('data-status', 'done', { timeout: 120_000 });
    await expect(status).toContainText(`${sessions} sessions replayed`);
    await page.screenshot({ path: testInfo.outputPath('whatif-custom.png') });

    // The CLI over the same folder with the same file, at the same two values. Run from the
    // folder's parent and named as the page names it ("home/…"): a replayed summary holds its
    // transcript's path (Claude Code's "read the full transcript at"), so its tokens and cost
    // depend on the path by a few tokens.
    const cli = execFileSync(
      process.execPath,
      [
        path.join(REPO_ROOT, 'bin/compactlab.cjs'),
        'stats',
        path.basename(root),
        '--strategy-file',
        file,
        '--sweep',
        'trigger=30000:40000:2',
        '--retention',
      ],
      { cwd: path.dirname(root), encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
    )
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as TotalRow)
      .filter((r) => r.row === 'total');
    expect(cli.map((r) => r.setting)).toEqual(['trigger=30000', 'trigger=40000']);
    const totals = page.getByTestId('whatif-total');
    const figures = await totals.evaluateAll((rows) =>
      rows.map((r) => ({
        setting: r.getAttribute('data-setting'),
        cost: Number(r.getAttribute('data-cost')),
        real: Number(r.getAttribute('data-real-cost')),
        compactions: Number(r.getAttribute('data-compactions')),
        retention: r.getAttribute('data-retention'),
      })),
    );
    expect(figures).toEqual(
      cli.map((r) => ({
        setting: r.setting,
        cost: r.costUsd,
        real: r.realCostUsd,
        compactions: r.compactions,
        retention: r.retention === null ? null : String(r.retention),
      })),
    );
    // It acted: the earlier trigger compacts more, and the replay costs other than the logs.
    expect(figures[0]!.compactions).toBeGreaterThan(figures[1]!.compactions);
    expect(figures[0]!.cost).not.toBe(figures[0]!.real);

    // A sweep of another of its knobs, then one cancelled at once: what was done stays.
    await page.getByTestId('whatif-knob').selectOption('keep');
    await page.getByTestId('whatif-mode-sweep').check();
    await page.getByTestId('whatif-a').fill('0');
    await page.getByTestId('whatif-b').fill('6');
    await page.getByTestId('whatif-steps').fill('3');
    await page.getByTestId('whatif-run').click();
    await expect(status).toHaveAttribute('data-status', 'done', { timeout: 120_000 });
    await expect(totals).toHaveCount(3);
    await expect(totals.first()).toHaveAttribute('data-setting', 'keep=0');
    await page.getByTestId('whatif-steps').fill('40');
    await page.getByTestId('whatif-a').fill('0');
    await page.getByTestId('whatif-b').fill('39');
    await page.getByTestId('whatif-run').click();
    await page.getByTestId('whatif-cancel').click();
    await expect(status).toHaveAttribute('data-status', 'cancelled');
    await expect(page.getByTestId('whatif-run')).toBeEnabled();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  // The walk of session 15: Cancel on a what-if whose strategy's code never returns said
  // "cancelled", and its sandbox spun on for good (the cancel a message the busy worker never
  // read, the time limit gone with the request). The sandbox that does not answer within 2 s is
  // stopped, as a time limit stops it: the strategy is no longer offered.
  test('Cancel of a what-if whose strategy hangs stops its sandbox: the CPU falls, said', async ({
    page,
  }) => {
    test.skip(!fs.existsSync('/proc/self/stat'), "the browser's CPU time is read from /proc (Linux)");
    test.setTimeout(120_000);
    const tmp = path.join(os.tmpdir(), `compactlab-whatif-stuck-e2e-${process.pid}`);
    const { root, sessions } = writeLibraryFolder(path.join(tmp, 'home'));
    await openEditorOnSample(page);
    await runThenOpenWhatIf(
      page,
      { name: 'stuck.ts', mimeType: 'text/plain', buffer: Buffer.from(STUCK) },
      root,
      sessions,
    );
    await page.getByTestId('whatif-strategy').selectOption('stuck');
    await page.getByTestId('whatif-run').click();
    const status = page.getByTestId('whatif-status');
    await expect(status).toHaveAttribute('data-status', 'running');
    // Its first session holds the sandbox: a core busy.
    await page.waitForTimeout(1000);
    // Under load the sandbox gets less than a core: the window is as long as the spin took.
    const spinMs = await waitBusy((ms) => page.waitForTimeout(ms));
    await page.getByTestId('whatif-cancel').click();
    await expect(status).toHaveAttribute('data-status', 'cancelled');
    // The 2 s grace, then the worker is terminated: the CPU falls well before the 20 s limit.
    await page.waitForTimeout(3000);
    expect(await cpuOver(spinMs, (ms) => page.waitForTimeout(ms))).toBeLessThan(QUIET_CPU_MS);
    // Stopped as by its time limit: no longer offered (Run it again in the editor).
    await expect(page.getByTestId('whatif-strategy').locator('option[value="stuck"]')).toHaveCount(0);
    fs.rmSync(tmp, { recursive: true, force: true });
  });
});
