import { expect, test } from './fixtures';
test('measure', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/');
  await expect(page.getByTestId('transcript-row').first()).toBeVisible();
  await expect(page.getByTestId('replay-section')).toHaveAttribute('data-busy', 'false');
  const out = await page.evaluate(() => {
    const sel = ['.top-bar', '.session-header', '.knobs-bar', '.timeline-notes', '.timeline-section', '[data-testid="timeline"]', '.replay-section', '.workspace', '.filter-bar', '[data-testid="transcript-list"]', '.summaries-dock', '[data-testid="chart-splitter"]', '.timeline-legend'];
    return sel.map((s) => { const e = document.querySelector(s); if (!e) return `${s}: none`; const b = e.getBoundingClientRect(); return `${s}: y=${b.top.toFixed(0)} h=${b.height.toFixed(0)}`; });
  });
  console.log(out.join('\n'));
});
