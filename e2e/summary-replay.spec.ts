import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { dropFiles, expect, openEmpty, SAMPLES_DIR, test } from './fixtures';

// Summaries feed the replay: a built-in run at the point where the replay compacts gives that
// event its real size; a session memory dropped with the transcript is compacted with instead.

const INDEX = path.join(SAMPLES_DIR, 'index.json');

async function settled(page: Page): Promise<void> {
  await expect(page.getByTestId('replay-section')).toHaveAttribute('data-busy', 'false');
}

function sampleFile(): string | undefined {
  if (!fs.existsSync(INDEX)) return undefined;
  const main = fs.readdirSync(SAMPLES_DIR).find((f) => f.endsWith('.jsonl'));
  return main && path.join(SAMPLES_DIR, main);
}

test.describe('summaries in the replay', () => {
  test.skip(!fs.existsSync(INDEX), 'public/samples/index.json is not there yet (run the sample generator)');

  test('a built-in run at a compaction point sizes the replay event', async ({ page }) => {
    test.setTimeout(90_000);
    await page.goto('/');
    // The sample loaded first: a knob typed before the session is there is the previous one's.
    await expect(page.getByTestId('timeline')).toHaveAttribute('data-calls', /^[1-9]/);
    await page.getByTestId('knob-pct').fill('45');
    await expect(page.getByTestId('knob-pct')).toHaveValue('45');
    const compacts = page.locator('[data-testid="replay-marker"][data-kind="compact"]');
    await expect(page.getByTestId('threshold-autocompact')).toContainText(/auto-compact/);
    await expect(compacts.first()).toBeVisible();
    await settled(page);
    await expect(page.getByTestId('replay-compare')).toContainText(/extra/);
    // A compaction after a call where the log did not compact (after the log's own, the replay
    // continues from its real summary).
    const card = page.getByTestId('replay-event-card');
    let afterCall: number | undefined;
    for (let i = 0; i < (await compacts.count()) && afterCall === undefined; i++) {
      await compacts.nth(i).click();
      await expect(card.getByTestId('replay-summary')).toBeVisible();
      if (!(await card.textContent())?.includes('the log compacted after this call'))
        afterCall = Number(await compacts.nth(i).getAttribute('data-after-call'));
      else await page.getByTestId('replay-card-close').click();
    }
    expect(afterCall, 'a replay compaction away from the log’s own').toBeDefined();
    const postBefore = await card.getByTestId('replay-post').textContent();

    // Summarize after that very call with the built-in summarizer.
    await page.getByTestId('summaries-toggle').click();
    await page.getByTestId('point-select').selectOption(`a:${afterCall}`);
    await page.getByTestId('run-summary').click();
    await expect(page.getByTestId('run-status')).toHaveText(/Done/);
    const figures = (await page.getByTestId('run-figures').textContent()) ?? '';
    const summaryTokens = /summary ([\d,]+) tokens/.exec(figures)?.[1];
    expect(summaryTokens).toBeTruthy();
    const runName = (await page.getByTestId('run-name').first().textContent()) ?? '';

    // The replay re-runs with that size: the card says where it came from.
    const summary = card.getByTestId('replay-summary');
    await expect(summary).toHaveAttribute('data-source', 'supplied');
    await expect(summary).toContainText(`${summaryTokens} tok · from run “${runName}”`);
    await settled(page);
    await expect(card.getByTestId('replay-post')).not.toHaveText(postBefore ?? '');
    await page.getByTestId('summaries-toggle').click();
    await card.scrollIntoViewIfNeeded();
  });

  test('a session memory dropped with the transcript is compacted with, and can be edited', async ({
    page,
  }) => {
    const file = sampleFile()!;
    const memory = `# Session memory\n\n## Task\nAdd a --verbose flag to the CLI.\n\n## Done\n${'- kept a fact\n'.repeat(200)}`;
    await openEmpty(page);
    await dropFiles(page, [
      { name: path.basename(file), content: fs.readFileSync(file, 'utf8') },
      { name: 'sample/session-memory/summary.md', content: memory },
    ]);
    await expect(page.getByTestId('session-header')).toBeVisible();
    await page.getByTestId('replay-knobs-toggle').click();
    const text = page.getByTestId('session-memory-text');
    await expect(text).toHaveValue(memory);
    const tokens = Math.round(memory.length / 4).toLocaleString('en-US');
    await expect(page.getByTestId('session-memory-size')).toContainText(`≈${tokens} tok`);
    await expect(page.getByTestId('session-memory-size')).toContainText('summary.md');
    await settled(page);
    const compact = page.locator('[data-testid="replay-marker"][data-kind="compact"]').first();
    await compact.click();
    const card = page.getByTestId('replay-event-card');
    await expect(card.getByTestId('replay-summary')).toHaveAttribute('data-source', 'session-memory');
    await expect(card.getByTestId('replay-summary')).toContainText(`${tokens} tok`);
    await expect(card.getByTestId('replay-session-memory')).toContainText('# Session memory');

    // A shorter text is a smaller summary.
    await text.fill('# Session memory\nOnly this.');
    await expect(page.getByTestId('session-memory-size')).toContainText('≈7 tok');
    await expect(card.getByTestId('replay-summary')).toContainText('7 tok');
  });
});
