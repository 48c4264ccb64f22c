import fs from 'node:fs';
import path from 'node:path';
import { expect, SAMPLES_DIR, test } from './fixtures';

// A custom strategy the user ran, beside the built-ins in the main replay (issue 23: "in the
// timeline, the event cards … and Compare beside the built-ins"), at 1280×720, light and dark: a
// short strategy imported, Run in the panel, then picked in the replay strip as "Custom: <label>";
// its events draw on the timeline, an event card opens, its knob shows in the knobs drawer and
// re-runs it there, Compare runs it beside Claude Code and Codex, Sweep sweeps its knob and learn
// mode walks it. Its requests go to its
// sandbox worker: the fixtures fail the test on a console error or a request off localhost.

const INDEX = path.join(SAMPLES_DIR, 'index.json');

const SHORT = `import type { Strategy } from 'compactlab/strategy';

// Over the trigger, summarize all but the newest 20k tokens.
export default {
  id: 'keep-20k',
  label: 'Keep the newest 20k',
  knobs: [{ key: 'trigger', label: 'Trigger', kind: 'number', unit: 'tokens', default: 90_000 }],
  thresholds: (k) => [{ label: 'Trigger', tokens: k.trigger }],
  step(view, k) {
    if (view.usageTokens < k.trigger) return [];
    return [{ kind: 'summarize', keepFrom: view.keepRecentFrom(20_000), note: 'kept the newest 20k' }];
  },
} satisfies Strategy<{ trigger: number; contextWindow: number }>;
`;

test.describe('custom strategy in the main replay', () => {
  test.skip(!fs.existsSync(INDEX), 'public/samples/index.json is not there yet (run the sample generator)');
  test.setTimeout(150_000);

  for (const scheme of ['light', 'dark'] as const) {
    test(`picked in the strip, drawn on the timeline, an event card, Compare (${scheme})`, async ({
      page,
    }) => {
      await page.setViewportSize({ width: 1280, height: 720 });
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto('/');
      await expect(page.getByTestId('session-header')).toBeVisible();
      const section = page.getByTestId('replay-section');
      await expect(section).toHaveAttribute('data-busy', 'false');
      const select = page.getByTestId('replay-strategy');
      // Not offered before it was run.
      await expect(select.locator('option[value="keep-20k"]')).toHaveCount(0);

      await page.getByTestId('custom-open').click();
      await expect(page.getByTestId('custom-editor').locator('.monaco-editor')).toBeVisible({
        timeout: 30_000,
      });
      await page
        .getByTestId('custom-import')
        .setInputFiles({ name: 'keep-20k.ts', mimeType: 'text/plain', buffer: Buffer.from(SHORT) });
      await expect(page.getByTestId('custom-name')).toHaveValue('keep-20k.ts');
      // Imported: shown, not run, not offered.
      await expect(select.locator('option[value="keep-20k"]')).toHaveCount(0);
      await page.getByTestId('custom-run').click();
      await expect(page.getByTestId('custom-table')).toBeVisible({ timeout: 60_000 });

      // Offered in the strip beside the built-ins, and picked.
      await expect(select.locator('option[value="keep-20k"]')).toHaveText('Custom: Keep the newest 20k');
      await expect(select.locator('option[value="claude-code"]')).toHaveCount(1);
      await page.getByRole('button', { name: 'Close the custom strategy' }).click();
      await select.selectOption('keep-20k');
      await expect(section).toHaveAttribute('data-strategy', 'keep-20k');
      await expect(section).toHaveAttribute('data-busy', 'false', { timeout: 60_000 });

      // Its compactions on the timeline, and its trigger line among the bars.
      const compacts = page.locator('[data-testid="replay-marker"][data-kind="compact"]');
      await expect(compacts.first()).toBeVisible({ timeout: 30_000 });
      const at90k = await page.getByTestId('replay-event-count').getAttribute('data-count');
      expect(Number(at90k)).toBeGreaterThan(1);
      await page
        .getByTestId('timeline')
        .screenshot({ path: `test-results/custom-main-timeline-${scheme}.png` });

      // An event card opens with the replay's figures.
      await compacts.first().click();
      const card = page.getByTestId('replay-event-card');
      await expect(card).toBeVisible();
      await expect(card.getByTestId('replay-post')).toContainText('tok');
      await expect(card).toContainText('kept the newest 20k');
      await page.screenshot({ path: `test-results/custom-main-card-${scheme}.png` });
      await page.getByTestId('replay-card-close').click();

      // The HTML report names it (issue 23 item 4: named in exports and reports).
      await page.getByTestId('export-button').click();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId('export-report-html').click(),
      ]);
      const report = fs.readFileSync((await download.path())!, 'utf8');
      expect(report).toContain('Keep the newest 20k');

      // Its knob in the knobs drawer; a higher trigger re-runs it in its sandbox: fewer events.
      await page.getByTestId('replay-knobs-toggle').click();
      const trigger = page.getByTestId('replay-knob-trigger');
      await expect(trigger).toBeVisible();
      await trigger.fill('150000');
      await trigger.press('Tab');
      await expect(page.getByTestId('replay-event-count')).not.toHaveAttribute('data-count', String(at90k), {
        timeout: 30_000,
      });
      expect(Number(await page.getByTestId('replay-event-count').getAttribute('data-count'))).toBeLessThan(
        Number(at90k),
      );
      await page.getByTestId('replay-knobs-toggle').click();
      // The address bar's link leaves it out (no link names code to run), its knobs too.
      await expect.poll(() => page.url()).toMatch(/[?&]file=/);
      expect(page.url()).not.toMatch(/keep-20k|trigger/);

      // Compare: beside Claude Code and Codex, under the knob set above.
      await page.getByTestId('compare-open').click();
      const panel = page.getByTestId('compare-panel');
      await expect(panel).toBeVisible();
      await expect(panel.locator('[data-testid="compare-pick"][data-strategy="keep-20k"]')).toBeChecked();
      const codex = panel.locator('[data-testid="compare-pick"][data-strategy="codex"]');
      if (!(await codex.isChecked())) {
        await codex.check();
        await panel.getByTestId('compare-run').click();
      }
      await expect(panel).toHaveAttribute('data-running', 'false', { timeout: 60_000 });
      const rows = panel.getByTestId('compare-row');
      const ids = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-strategy')));
      expect(ids).toEqual(expect.arrayContaining(['claude-code', 'codex', 'keep-20k']));
      await expect(panel.locator('[data-testid="compare-series"][data-strategy="keep-20k"]')).toHaveCount(1);
      await panel.screenshot({ path: `test-results/custom-main-compare-${scheme}.png` });
      await page.getByTestId('compare-open').click();

      // Sweep its knob: a higher trigger never compacts more.
      await page.getByTestId('sweep-open').click();
      await page.getByTestId('sweep-knob').selectOption('trigger');
      await page.getByTestId('sweep-from').fill('60000');
      await page.getByTestId('sweep-to').fill('180000');
      await page.getByTestId('sweep-steps').fill('4');
      await page.getByTestId('sweep-run').click();
      const sweepRows = page.getByTestId('sweep-row');
      await expect(sweepRows).toHaveCount(4, { timeout: 60_000 });
      const fired = await sweepRows.evaluateAll((els) =>
        els.map((el) => Number(el.getAttribute('data-compactions'))),
      );
      for (let i = 1; i < fired.length; i++) expect(fired[i]!).toBeLessThanOrEqual(fired[i - 1]!);
      expect(fired[0]!).toBeGreaterThan(fired[fired.length - 1]!);
      await page.getByTestId('sweep-open').click();

      // Learn mode walks one of its compactions.
      await page.getByTestId('learn-button').click();
      await expect(page.getByTestId('learn-view')).toBeVisible();
      await page.getByTestId('learn-strategy-keep-20k').click();
      await expect(page.getByTestId('learn-strategy-keep-20k')).toHaveAttribute('aria-pressed', 'true');
      await expect(page.getByTestId('learn-count')).toHaveText(/^Step 1 of \d+$/, { timeout: 30_000 });
      await page.screenshot({ path: `test-results/custom-main-learn-${scheme}.png` });
    });
  }
});
