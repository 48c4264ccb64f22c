import fs from 'node:fs';
import path from 'node:path';
import { dropFiles, expect, FIXTURES_DIR, openEmpty, test } from './fixtures';

// Gemini CLI and pi logs dropped on the page (fixtures from tests/fixtures/make-agent-fixtures.ts):
// the header names the agent, the timeline has the calls, pi's compaction has its marker; a file
// dropped under another name still loads.

const read = (name: string): string => fs.readFileSync(path.join(FIXTURES_DIR, 'agents', name), 'utf8');
const PI = '2026-03-09T12-00-00-000Z_7d3f0a52-6c1e-4b8a-9f27-3e5d1c0b8a64.jsonl';

test('a pi session opens with its calls and its compaction marker', async ({ page }) => {
  await openEmpty(page);
  await dropFiles(page, [{ name: PI, content: read(PI) }]);
  await expect(page.getByTestId('session-header')).toContainText('pi');
  await expect(page.getByTestId('not-transcript')).toHaveCount(0);
  // Six calls in the file; the series follows the main line, which leaves out the abandoned try's.
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-calls', '5');
  const marker = page.locator('[data-testid="compaction-marker"][data-kind="compact"]');
  await expect(marker).toHaveCount(1);
  await marker.click();
  await expect(page.getByTestId('compaction-card')).toContainText('52,400');
  // The summary pi keeps on the compaction entry itself.
  await expect(page.getByTestId('compaction-card')).toContainText('Split the formatter into format.ts');
});

test('a pi session dropped as unknown.jsonl still loads as pi', async ({ page }) => {
  await openEmpty(page);
  await dropFiles(page, [{ name: 'unknown.jsonl', content: read(PI) }]);
  await expect(page.getByTestId('session-header')).toContainText('pi');
  await expect(page.locator('[data-testid="compaction-marker"][data-kind="compact"]')).toHaveCount(1);
});

for (const [name, as] of [
  ['session-2026-03-09T11-00-5e6f7a8b.jsonl', 'session-2026-03-09T11-00-5e6f7a8b.jsonl'],
  ['session-2026-03-09T10-00-1a2b3c4d.json', 'session-2026-03-09T10-00-1a2b3c4d.json'],
  ['session-2026-03-09T11-00-5e6f7a8b.jsonl', 'unknown.jsonl'],
  ['session-2026-03-09T10-00-1a2b3c4d.json', 'unknown.json'],
] as const) {
  test(`a Gemini CLI chat ${name} dropped as ${as} opens with its three calls`, async ({ page }) => {
    await openEmpty(page);
    await dropFiles(page, [{ name: as, content: read(name) }]);
    await expect(page.getByTestId('session-header')).toContainText('Gemini CLI');
    await expect(page.getByTestId('not-transcript')).toHaveCount(0);
    await expect(page.getByTestId('timeline')).toHaveAttribute('data-calls', '3');
    if (name.endsWith('.jsonl'))
      await expect(page.getByTestId('stat-folded')).toContainText('2 copies folded');
    const row = page.getByTestId('transcript-row').filter({ hasText: 'Thanks. Also document the flag' });
    await expect(row).toBeVisible();
  });
}
