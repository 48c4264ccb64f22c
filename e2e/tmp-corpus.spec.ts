import { expect, openEmpty, test } from './fixtures';
test.use({ viewport: { width: 1280, height: 720 } });
test('corpus what-if', async ({ page }, testInfo) => {
  test.setTimeout(400_000);
  await openEmpty(page);
  await page.getByTestId('folder-input').setInputFiles('/tmp/ctree-copy');
  await expect(page.getByTestId('library-scan')).toHaveCount(0, { timeout: 200_000 });
  await page.getByTestId('library-whatif').click();
  const t0 = Date.now();
  await page.getByTestId('whatif-run').click();
  await expect(page.getByTestId('whatif-status')).toHaveAttribute('data-status', 'done', { timeout: 300_000 });
  console.log('whatif ms', Date.now() - t0, await page.getByTestId('whatif-status').textContent());
  for (const r of await page.getByTestId('whatif-total').all()) console.log(await r.textContent());
  await page.screenshot({ path: testInfo.outputPath('corpus-light.png') });
  await page.locator('.whatif-sessions summary').click();
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.getByTestId('whatif-session-table').scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('corpus-dark.png') });
});
