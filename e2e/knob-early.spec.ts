import { writeBigSession } from './big-session';
import { expect, openEmpty, test } from './fixtures';

// A knob typed as soon as the knob bar shows, while the replay's setup for the new session is
// still being prepared in the worker (34,000 calls: a few hundred ms), is the user's edit: it is
// kept, and the replay runs with it, not reset when the setup comes in.

test('a knob edited before the replay setup is in is kept and used', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const file = testInfo.outputPath('big-knob.jsonl');
  writeBigSession(file, 34_000, 20);
  await openEmpty(page);
  await page.getByTestId('file-input').setInputFiles(file);
  const pct = page.getByTestId('knob-pct');
  await pct.waitFor();
  await pct.fill('40');
  await expect(page.getByTestId('replay-section')).toHaveAttribute('data-busy', 'false', { timeout: 60_000 });
  await expect(pct).toHaveValue('40');
  // 40% of the effective window (200k less the 20k of output reserved: 180k, as 50% gives 90,000
  // in inspect.spec.ts): the auto-compact bar moved there.
  await expect(page.getByTestId('threshold-autocompact')).toHaveAttribute('data-value', '72000');
});
