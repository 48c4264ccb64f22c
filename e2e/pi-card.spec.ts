import type { Page } from '@playwright/test';
import { buildPiSession, type PiTurnSpec } from '../tests/replay/pi-session';
import { dropFiles, expect, openEmpty, test } from './fixtures';

// The pi strategy in the page: its event card lists the files its summary carries (Roo's card on
// the sample is in strategies.spec.ts).

async function settled(page: Page): Promise<void> {
  await expect(page.getByTestId('replay-section')).toHaveAttribute('data-busy', 'false');
}

test('pi: the summary event lists the files read and modified so far', async ({ page }) => {
  const turns: PiTurnSpec[] = [];
  // 29 turns of ~6,600 tokens: over window − 16,384 once, at the end of turn 27 (peak < 200,000).
  for (let t = 0; t < 29; t++) {
    const tools: NonNullable<PiTurnSpec['calls'][number]['tools']> = [
      { name: 'read', path: `src/module${t}.ts`, resultChars: 26_000 },
    ];
    if (t % 4 === 3) tools.push({ name: 'edit', path: `src/module${t - 1}.ts`, resultChars: 100 });
    turns.push({ promptChars: 400, calls: [{ tools }, {}] });
  }
  await openEmpty(page);
  await dropFiles(page, [
    {
      name: '2026-03-09T12-00-00-000Z_11111111-2222-4333-8444-555555555555.jsonl',
      content: buildPiSession({ turns }),
    },
  ]);
  await expect(page.getByTestId('session-header')).toContainText('pi');
  await settled(page);
  await expect(page.getByTestId('replay-strategy')).toHaveValue('pi');
  const compact = page.locator('[data-testid="replay-event-chip"].kind-compact');
  await expect(compact).toHaveCount(1);
  await compact.click();
  const files = page.getByTestId('replay-tracked-files');
  await expect(files).toContainText('modified · src/module2.ts');
  await expect(files).toContainText('read · src/module0.ts');
  await expect(files).not.toContainText('read · src/module2.ts');
});
