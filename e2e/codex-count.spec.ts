import fs from 'node:fs';
import path from 'node:path';
import { expect, openEmpty, test } from './fixtures';

// A real Codex rollout (Quelklef/shell-ws, CLI 0.105) compacted after a call of 194,859 tokens,
// under the chart's auto-compact bar at 244,800: Codex also counts its estimate of the encrypted
// reasoning it sends back (50,142). Only the bar's tooltip and the replay's card said so; the card
// of the real compaction now says what Codex counted, each part with its source. Checked at
// 1280x720, light and dark (restored .real-logs/, skipped saying so when absent).

const ROLLOUT = path.join(
  import.meta.dirname,
  '..',
  '.real-logs/Quelklef__shell-ws/.codex/sessions/2026/03/18/rollout-2026-03-18T11-04-43-019d021f-1244-77d2-b5aa-ba1d70f11e87.jsonl',
);
const present = fs.existsSync(ROLLOUT);
if (!present) console.warn('codex-count e2e skipped: .real-logs is not restored');

test.describe("a real Codex compaction's card says what Codex counted", () => {
  test.skip(!present, 'restore .real-logs first (node scripts/restore-real-logs.mjs)');
  test.use({ viewport: { width: 1280, height: 720 } });

  for (const scheme of ['light', 'dark'] as const) {
    test(`the count, its parts and their sources, ${scheme}`, async ({ page }, testInfo) => {
      await page.emulateMedia({ colorScheme: scheme });
      await openEmpty(page);
      await page.getByTestId('file-input').setInputFiles(ROLLOUT);
      await expect(page.getByTestId('session-header')).toBeVisible({ timeout: 30_000 });
      await page.getByTestId('compaction-marker').first().click();
      const card = page.getByTestId('compaction-card');
      const counted = card.getByTestId('compaction-trigger-count');
      await expect(counted).toBeVisible({ timeout: 30_000 });
      await expect(counted.getByRole('heading')).toHaveText('What Codex CLI counted');
      await expect(counted).toContainText(
        "245,001 tok ≥ 244,800 its threshold: it fired though the chart's point, 194,625, is under the bar",
      );
      const parts = counted.locator('li');
      await expect(parts).toHaveCount(2);
      await expect(parts.nth(0)).toContainText("194,859 the last response's total_tokens (input + output)");
      await expect(parts.nth(1)).toContainText('+ 50,142 its estimate of the earlier encrypted reasoning');
      await expect(parts.nth(1)).toContainText('get_non_last_reasoning_items_tokens');
      await expect(parts.nth(1)).toContainText(
        /openai\/codex@[0-9a-f]{40}:codex-rs\/core\/src\/context_manager\/history\.rs/,
      );
      // Inside the card, not cut: the section's right edge within the card's.
      const [box, cardBox] = [await counted.boundingBox(), await card.boundingBox()];
      expect(box!.x + box!.width).toBeLessThanOrEqual(cardBox!.x + cardBox!.width + 0.5);
      await counted.scrollIntoViewIfNeeded();
      await page.screenshot({ path: testInfo.outputPath(`codex-count-${scheme}.png`) });
    });
  }
});
