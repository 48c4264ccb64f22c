import fs from 'node:fs';
import path from 'node:path';
import { expect, openEmpty, REPO_ROOT, test } from './fixtures';

// The guide's **Tokens** tab (Claude Code's estimate next to the real per-call usage and its
// delta) at 1280x720, where the side panel is 384 px wide, on a real session whose compactions
// drop the context by 126,083 tokens: the delta and gap columns cut their figures ("−126,0…",
// "−129,2…"). The narrow panel leaves out the time too (the note says to widen it for the time,
// input, cache and output columns): every figure shown is whole. Light and dark. Skipped when the
// corpus is absent.

const SESSION = path.join(
  REPO_ROOT,
  '../shared/corpus/LAF-US__IDAHO-VAULT/claude__projects__c--Users-loganf-Documents-IDAHO-VAULT__05541cb5-fe43-41c9-87ef-2a6d89bba271.jsonl',
);
const present = fs.existsSync(SESSION);

test.describe('the Tokens tab in the narrow side panel', () => {
  test.skip(!present, `the Claude Code corpus is absent (${SESSION})`);
  test.use({ viewport: { width: 1280, height: 720 } });

  for (const scheme of ['light', 'dark'] as const) {
    test(`a real session's figures whole, ${scheme}`, async ({ page }, testInfo) => {
      await page.emulateMedia({ colorScheme: scheme });
      await openEmpty(page);
      await page.getByTestId('file-input').setInputFiles(SESSION);
      await expect(page.getByTestId('session-header')).toBeVisible();
      await page.getByRole('tab', { name: 'Tokens' }).click();
      const rows = page.getByTestId('token-row');
      await expect(rows.first()).toBeVisible();
      await expect(page.getByTestId('tok-narrow-hint')).toContainText(
        'Time, input, cache and output columns',
      );
      // The fifth call follows the compactions that dropped the context: its deltas are the widest.
      await expect(rows.nth(4)).toContainText('−126,083');
      const cut = await rows.evaluateAll((els) =>
        els.flatMap((row) =>
          [...row.children]
            .filter((c) => (c as HTMLElement).offsetParent !== null && c.scrollWidth > c.clientWidth)
            .map((c) => `${row.children[0]!.textContent}: ${c.textContent}`),
        ),
      );
      expect(cut, 'figures cut off').toEqual([]);
      await page.screenshot({ path: testInfo.outputPath(`tokens-narrow-${scheme}.png`) });
    });
  }
});
