import fs from 'node:fs';
import path from 'node:path';
import { expect, openEmpty, SAMPLES_DIR, test } from './fixtures';

// The page as a new user meets it at 1280×720: what the empty page says, the light theme, the
// filter chips, Escape, a second session, the sweep's scoring and the numbering.

const INDEX = path.join(SAMPLES_DIR, 'index.json');

test.use({ viewport: { width: 1280, height: 720 } });

test.describe('the page', () => {
  test('the empty page says what the app does; the theme follows the system and the toggle', async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await openEmpty(page);
    await expect(page.getByTestId('empty-what')).toContainText('compacted');
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(await background()).toBe('rgb(247, 248, 250)');

    // Auto → Light → Dark: the choice outlives a reload.
    const toggle = page.getByTestId('theme-toggle');
    await expect(toggle).toHaveAttribute('data-theme-choice', 'system');
    await toggle.click();
    await toggle.click();
    await expect(toggle).toHaveAttribute('data-theme-choice', 'dark');
    expect(await background()).toBe('rgb(21, 23, 28)');
    await page.reload();
    await expect(page.getByTestId('theme-toggle')).toHaveAttribute('data-theme-choice', 'dark');
    expect(await background()).toBe('rgb(21, 23, 28)');
    await page.getByTestId('theme-toggle').click();
    await expect(page.getByTestId('theme-toggle')).toHaveAttribute('data-theme-choice', 'system');
    expect(await background()).toBe('rgb(247, 248, 250)');
  });

  test('Tab walks the top bar over visible controls only: no stop on a hidden file input', async ({
    page,
  }) => {
    await openEmpty(page);
    await page.locator('body').click({ position: { x: 5, y: 700 } });
    const stops: { testId: string; type: string; visible: boolean }[] = [];
    for (let i = 0; i < 25; i++) {
      await page.keyboard.press('Tab');
      stops.push(
        await page.evaluate(() => {
          const el = document.activeElement as HTMLElement | null;
          const box = el?.getBoundingClientRect();
          return {
            testId: el?.getAttribute('data-testid') ?? el?.tagName ?? '',
            type: el instanceof HTMLInputElement ? el.type : '',
            visible: !!box && box.width > 2 && box.height > 2,
          };
        }),
      );
    }
    expect(stops.filter((s) => s.type === 'file')).toEqual([]);
    expect(stops.filter((s) => !s.visible && s.testId !== 'BODY')).toEqual([]);
    expect(stops.map((s) => s.testId)).toContain('open-folder');
  });

  test('chips turn a kind on, All resets, the count says shown of total', async ({ page }) => {
    test.skip(!fs.existsSync(INDEX), 'public/samples/index.json is not there yet (run the sample generator)');
    await page.goto('/');
    const count = page.getByTestId('row-count');
    await expect(count).toHaveText(/^[\d,]+ rows$/);
    const total = Number(await count.getAttribute('data-shown'));
    expect(total).toBeGreaterThan(100);
    await expect(page.getByTestId('filter-all')).toHaveAttribute('aria-pressed', 'true');

    await page.getByTestId('filter-tool-call').click();
    await expect(page.getByTestId('filter-tool-call')).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByTestId('filter-all')).toHaveAttribute('aria-pressed', 'false');
    await expect(count).toHaveText(new RegExp(`^[\\d,]+ of ${total.toLocaleString('en-US')} rows$`));
    // Polled: the filtered index comes from the worker; until it does the line can read "1,358 of
    // 1,358 rows" (a loaded CI machine read it there).
    await expect.poll(async () => Number(await count.getAttribute('data-shown'))).toBeLessThan(total);
    const shown = Number(await count.getAttribute('data-shown'));
    expect(shown).toBeGreaterThan(0);
    // Tool calls are what is shown (a row names its tool), not what is hidden.
    await expect(page.locator('[data-testid="transcript-row"][data-kind="tool-call"]').first()).toBeVisible();
    await expect(page.locator('[data-testid="transcript-row"][data-kind="user-text"]')).toHaveCount(0);

    // A second chip adds its kind; clicking the last one on again is "All".
    await page.getByTestId('filter-user-text').click();
    await expect.poll(async () => Number(await count.getAttribute('data-shown'))).toBeGreaterThan(shown);
    await page.getByTestId('filter-user-text').click();
    await expect(count).toHaveAttribute('data-shown', String(shown));
    await page.getByTestId('filter-tool-call').click();
    await expect(page.getByTestId('filter-all')).toHaveAttribute('aria-pressed', 'true');
    await expect(count).toHaveAttribute('data-shown', String(total));
    await page.getByTestId('filter-tool-call').click();
    await page.getByTestId('filter-all').click();
    await expect(count).toHaveAttribute('data-shown', String(total));
  });

  test('Escape closes the topmost layer first and focus comes back', async ({ page }) => {
    test.skip(!fs.existsSync(INDEX), 'public/samples/index.json is not there yet (run the sample generator)');
    await page.goto('/');
    await expect(page.getByTestId('replay-compare')).toBeVisible();
    await page.locator('[data-testid="compaction-marker"][data-kind="compact"]').first().click();
    const card = page.getByTestId('compaction-card');
    await expect(card).toBeVisible();
    await expect(card).toHaveAttribute('aria-label', /^Compaction \d+ of \d+ · full · (auto|manual)$/);
    const sweepOpen = page.getByTestId('sweep-open');
    await sweepOpen.click();
    await expect(page.getByTestId('sweep-panel')).toBeVisible();

    await page.keyboard.press('Escape');
    await expect(page.getByTestId('sweep-panel')).toHaveCount(0);
    await expect(card).toBeVisible();
    await expect(sweepOpen).toBeFocused();

    // A dialog over the card: Escape closes the dialog only, and focus returns to its button.
    await page.getByTestId('paste-button').click();
    await expect(page.getByTestId('paste-dialog')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('paste-dialog')).toHaveCount(0);
    await expect(card).toBeVisible();
    await expect(page.getByTestId('paste-button')).toBeFocused();

    await page.keyboard.press('Escape');
    await expect(card).toHaveCount(0);

    // A replay event card, from its chip (numbered from 1, as the card's API call is).
    const chip = page.getByTestId('replay-event-chip').first();
    const afterCall = Number(await chip.getAttribute('data-after-call'));
    await expect(chip).toContainText(String(afterCall + 1));
    await chip.click();
    const eventCard = page.getByTestId('replay-event-card');
    await expect(eventCard).toContainText(`after API call ${afterCall + 1}`);
    await page.keyboard.press('Escape');
    await expect(eventCard).toHaveCount(0);
    await expect(chip).toBeFocused();
  });

  test('a new session opens at its start, with no selection and no card', async ({ page }) => {
    test.skip(!fs.existsSync(INDEX), 'public/samples/index.json is not there yet (run the sample generator)');
    await page.goto('/');
    const list = page.getByTestId('transcript-list');
    await expect(page.getByTestId('transcript-row').first()).toBeVisible();
    await list.evaluate((el) => {
      el.scrollTop = el.scrollHeight / 2;
    });
    await expect.poll(() => list.evaluate((el) => el.scrollTop)).toBeGreaterThan(1000);
    await page.getByTestId('transcript-row').nth(3).click();
    await expect(page.locator('[data-testid="transcript-row"][aria-selected="true"]')).toHaveCount(1);
    await page.locator('[data-testid="compaction-marker"]').first().click();
    await expect(page.getByTestId('compaction-card')).toBeVisible();
    // Knobs and Sweep belong to the session: open here, closed on the next one (Esc closes Knobs).
    await page.getByTestId('replay-knobs-toggle').click();
    await expect(page.getByTestId('replay-knobs')).toBeVisible();
    await page.getByTestId('replay-knobs-toggle').focus();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('replay-knobs')).toHaveCount(0);
    await page.getByTestId('replay-knobs-toggle').click();
    await page.getByTestId('sweep-open').click();
    await expect(page.getByTestId('sweep-panel')).toBeVisible();

    await page.getByTestId('open-sample').click();
    await expect(page.getByTestId('compaction-card')).toHaveCount(0);
    await expect(page.getByTestId('replay-knobs')).toHaveCount(0);
    await expect(page.getByTestId('sweep-panel')).toHaveCount(0);
    await expect(page.getByTestId('transcript-row').first()).toBeVisible();
    expect(await page.getByTestId('transcript-list').evaluate((el) => el.scrollTop)).toBe(0);
    await expect(page.locator('[data-testid="transcript-row"][aria-selected="true"]')).toHaveCount(0);
  });

  test('the sweep scores matched, extra and missed, and names its axis', async ({ page }) => {
    test.skip(!fs.existsSync(INDEX), 'public/samples/index.json is not there yet (run the sample generator)');
    await page.goto('/');
    await expect(page.getByTestId('replay-compare')).toBeVisible();
    await page.getByTestId('sweep-open').click();
    await page.getByTestId('sweep-knob').selectOption('autocompactPctOverride');
    await page.getByTestId('sweep-from').fill('30');
    await page.getByTestId('sweep-to').fill('100');
    await page.getByTestId('sweep-steps').fill('8');
    await page.getByTestId('sweep-run').click();
    const rows = page.getByTestId('sweep-row');
    await expect(rows).toHaveCount(8);
    await expect(page.getByTestId('sweep-axis-title')).not.toContainText('autocompactPctOverride');
    const scores = await rows.evaluateAll((els) =>
      els.map((el) => ({
        f1: el.getAttribute('data-f1'),
        best: el.getAttribute('data-best') === 'true',
        fired: Number(el.getAttribute('data-compactions')),
      })),
    );
    // The most compactions fired is not the best score when it fires more than the log did.
    const best = scores.filter((s) => s.best);
    expect(best).toHaveLength(1);
    const bestF1 = Number(best[0]!.f1);
    for (const s of scores) if (s.f1 !== '') expect(Number(s.f1)).toBeLessThanOrEqual(bestF1);
    await expect(page.getByTestId('sweep-best')).toContainText(/best F1 [\d.]+ at \d+%/);
  });

  test('light theme over a session, replay marks quiet', async ({ page }) => {
    test.skip(!fs.existsSync(INDEX), 'public/samples/index.json is not there yet (run the sample generator)');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/');
    await expect(page.getByTestId('replay-compare')).toBeVisible();
    await expect(page.getByTestId('transcript-row').first()).toBeVisible();
    await page.emulateMedia({ colorScheme: 'dark' });
  });

  test('Summaries: an edit survives a preset switch, the run says so, a delete can be undone', async ({
    page,
  }) => {
    test.skip(!fs.existsSync(INDEX), 'public/samples/index.json is not there yet (run the sample generator)');
    test.setTimeout(90_000);
    await page.goto('/');
    await expect(page.getByTestId('session-header')).toBeVisible();
    await page.getByTestId('summaries-toggle').click();
    await expect(page.getByTestId('point-select')).toBeVisible();
    // Readable at 720 px high (the setup column once squeezed it to nothing), and for people.
    await expect(page.getByTestId('preset-source')).toBeVisible();
    await expect(page.getByTestId('preset-source')).toHaveAttribute('data-fidelity', 'verbatim-with-gaps');
    await expect(page.getByTestId('preset-source')).not.toContainText('shared/reference');
    await expect(page.getByTestId('builtin-honours')).toContainText(
      /follows the prompt’s section headings \(\d+ sections/,
    );

    const line = 'Also list every test command that was run.';
    const editor = page.getByTestId('prompt-editor').locator('.monaco-editor');
    await expect(editor).toBeVisible();
    await editor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type(line);
    await expect(page.getByTestId('prompt-edited')).toBeVisible();

    // Another preset and back: the edit is still there.
    await page.getByTestId('preset-select').selectOption('codex');
    await expect(page.getByTestId('prompt-edited')).toHaveCount(0);
    await expect(page.getByTestId('preset-source')).toHaveAttribute('data-fidelity', 'own-words');
    await page.getByTestId('preset-select').selectOption('claude-code-full');
    await expect(page.getByTestId('prompt-edited')).toBeVisible();
    await expect(page.getByTestId('prompt-editor')).toContainText(line);

    await page.getByTestId('run-summary').click();
    await expect(page.getByTestId('run-status')).toHaveText(/Done/);
    const row = page.getByTestId('run-row');
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId('run-edited')).toBeVisible();

    await row.getByTestId('run-delete').click();
    await expect(page.getByTestId('run-row')).toHaveCount(0);
    await page.getByTestId('runs-undo').click();
    await expect(page.getByTestId('run-row')).toHaveCount(1);
    await expect(page.getByTestId('runs-notice')).toContainText('Restored');
  });
});
