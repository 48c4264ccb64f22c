import { expect, test } from './fixtures';

// A browser that denies storage (IndexedDB throws SecurityError, as with some privacy settings and
// sandboxed frames): the page still opens the sample and works; what it cannot keep, it says.

test('with IndexedDB denied the page works and says what it does not keep', async ({ page }) => {
  await page.addInitScript(() => {
    const deny = () => {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    };
    Object.defineProperty(window, 'indexedDB', {
      configurable: true,
      // Reading `window.indexedDB` itself throws (a sandboxed frame, a denied origin).
      get: deny,
    });
  });
  await page.goto('/');
  await expect(page.getByTestId('session-header')).toBeVisible();
  await expect(page.getByTestId('storage-notice')).toContainText('summary runs last until the tab closes');
  // Runs are kept in memory: two runs, listed and diffed.
  await page.getByTestId('summaries-toggle').click();
  await page.getByTestId('run-summary').click();
  await expect(page.getByTestId('summary-output')).toContainText('Built-in summary by CompactLab');
  await page.getByTestId('run-summary').click();
  await expect(page.getByTestId('run-row')).toHaveCount(2);
  await page.getByTestId('storage-notice').getByRole('button', { name: 'Dismiss' }).click();
  await expect(page.getByTestId('storage-notice')).toHaveCount(0);
});
