import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, SAMPLES_DIR, test } from './fixtures';

// A partial /compact in both directions (Prompt 2), at an API call typed in, around the selected
// message: the replay event says which part it kept and which prompt it sends.

test.skip(!fs.existsSync(path.join(SAMPLES_DIR, 'index.json')), 'the bundled sample is not generated yet');

test('partial /compact up to and from the selected message, at a chosen call', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('[data-testid="replay-marker"]').first()).toBeVisible();
  await page.locator('[data-testid="transcript-row"]').nth(12).click();
  await expect(page.getByTestId('entry-number')).toContainText(/entry \d+/);
  // An API call before the selected message cannot hold it: the buttons stay off.
  const at = page.getByTestId('replay-partial-at');
  // Empty, the field takes its default call: not invalid; a number naming no call is.
  await expect(at).toHaveAttribute('aria-invalid', 'false');
  await at.fill('99999');
  await expect(at).toHaveAttribute('aria-invalid', 'true');
  await at.fill('1');
  await expect(at).toHaveAttribute('aria-invalid', 'false');
  await expect(page.getByTestId('replay-partial-from')).toBeDisabled();
  await at.fill('120');
  await page.getByTestId('replay-partial-from').click();
  const chip = page.locator('[data-testid="replay-event-chip"][data-after-call="119"]');
  await expect(chip).toHaveCount(1);
  await chip.click();
  const card = page.getByTestId('replay-event-card');
  await expect(card).toContainText('partial compaction (manual)');
  await card.getByText('Prompt', { exact: true }).click();
  await expect(page.getByTestId('replay-request-prompt')).toContainText('RECENT portion');
  await expect(page.getByTestId('replay-request-prompt')).not.toContainText('[...]');
  await expect(page.getByTestId('replay-request-elisions')).toBeVisible();
  // The other direction at the same call replaces it (one manual compaction per call).
  await page.keyboard.press('Escape');
  await expect(card).toHaveCount(0);
  await page.getByTestId('replay-partial-here').click();
  await expect(chip).toHaveCount(1);
  await chip.click();
  await card.getByText('Prompt', { exact: true }).click();
  await expect(page.getByTestId('replay-request-prompt')).toContainText('conversation so far');
});

test('each subagent of the session has its own replay row, folded', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('[data-testid="replay-marker"]').first()).toBeVisible();
  const list = page.getByTestId('replay-subagents');
  await expect(list).toBeVisible();
  await expect(list).toContainText(/Subagents \(\d+\) · \d+ compaction/);
  await list.locator('summary').focus();
  await page.keyboard.press('Enter');
  const rows = page.getByTestId('replay-subagent');
  await expect(async () => expect(await rows.count()).toBeGreaterThan(0)).toPass();
  await expect(rows.first()).toContainText(/calls · peak/);
});

/** Lines the replay bar's items wrap onto (an item below every item of a line starts the next), the opened subagent list aside. */
async function barLines(page: Page): Promise<number> {
  return page.getByTestId('replay-section').evaluate((section) => {
    const bar = section.querySelector('.replay-bar')!;
    const boxes = Array.from(bar.children)
      .filter((child) => !child.matches('[data-testid="replay-subagents"][open]'))
      .map((child) => child.getBoundingClientRect())
      .filter((box) => box.height > 0)
      .sort((a, b) => a.top - b.top);
    let lines = 0;
    let bottom = Number.NEGATIVE_INFINITY;
    for (const box of boxes) {
      if (box.top >= bottom - 1) lines++;
      bottom = box.top >= bottom - 1 ? box.bottom : Math.max(bottom, box.bottom);
    }
    return lines;
  });
}

// Once, in the light palette: a dark twin asserted the same and was there for its screenshot
// (the palettes are compared in visual.spec.ts).
test('a knob edit re-runs the subagent rows; a chip goes to its entry (1280×720)', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/');
  await expect(page.locator('[data-testid="replay-marker"]').first()).toBeVisible();
  await expect(page.getByTestId('replay-section')).toHaveAttribute('data-busy', 'false');
  const list = page.getByTestId('replay-subagents');
  await expect(list).toBeVisible();
  expect(await barLines(page), 'the replay strip, subagents folded').toBeLessThanOrEqual(2);
  await list.locator('summary').focus();
  await page.keyboard.press('Enter');
  expect(await barLines(page), 'the replay strip above the opened subagents').toBeLessThanOrEqual(2);
  // The sample's subagent: 5 calls, peak 16,964 tokens, under its own threshold: no event.
  const row = page.locator('[data-testid="replay-subagent"][data-agent-id="a11886f1b355d6fbd"]');
  await expect(row).toContainText('5 calls');
  await expect(row).toContainText('no event');
  const chips = row.getByTestId('replay-subagent-chip');
  await expect(chips).toHaveCount(0);

  // Auto-compact at 5% (8,400 tokens for 2.1.19's profile): the subagent now compacts
  // before each of its next turns, as the engine's unit test finds (tests/replay/subagent-replay.test.ts).
  await page.getByTestId('knob-pct').fill('5');
  await expect(list).toHaveAttribute('data-overrides', /"autocompactPctOverride":5/);
  await expect(list).toHaveAttribute('data-busy', 'false');
  await expect(chips).toHaveCount(4);
  expect(await chips.evaluateAll((els) => els.map((e) => e.getAttribute('data-after-call')))).toEqual([
    '0',
    '1',
    '2',
    '3',
  ]);
  await expect(list.locator('summary')).toContainText(/Subagents \(1\) · 4 compactions/);
  await row.scrollIntoViewIfNeeded();

  // The second chip, from the keyboard: its subagent entry is selected and shown.
  const chip = chips.nth(1);
  await expect(chip).toHaveAccessibleName(
    /compaction .* of subagent a11886f1b355d6fbd's own calls: go to its entry/,
  );
  const entryIndex = await chip.getAttribute('data-entry-index');
  expect(Number(entryIndex)).toBeGreaterThan(0);
  await chip.focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-testid="transcript-row"][aria-selected="true"]')).toHaveAttribute(
    'data-entry-index',
    entryIndex!,
  );
  await expect(page.getByTestId('entry-number')).toContainText('agent-a11886f1b355d6fbd.jsonl:');
  await expect(page.getByTestId('entry-agent')).toContainText('a11886f1b355d6fbd');
  await expect(chip).toHaveClass(/\bopen\b/);

  // Back to the log's value: no event again.
  await page.getByTestId('knob-pct').fill('');
  await expect(chips).toHaveCount(0);
  await expect(row).toContainText('no event');
});
