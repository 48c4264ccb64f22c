import fs from 'node:fs';
import path from 'node:path';
import { FOLDER_FILES } from '../tests/fixtures/make-folder-fixtures';
import { countCompactions, dropFiles, expect, FIXTURES_DIR, openEmpty, test } from './fixtures';

// A whole Claude Code session folder dropped at once (tests/fixtures/folder): side-question and
// compaction-call logs that copy the main thread, and the subagents' .meta.json files.

const DIR = path.join(FIXTURES_DIR, 'folder');
const read = (name: string) => ({
  name: path.basename(name),
  content: fs.readFileSync(path.join(DIR, name), 'utf8'),
});

test.describe('a session folder dropped whole', () => {
  test('shows one marker per real compaction, the copies folded, the compaction calls', async ({ page }) => {
    const files = Object.values(FOLDER_FILES).map(read);
    const main = files.find((f) => f.name === path.basename(FOLDER_FILES.main))!;
    const expected = countCompactions(main.content);
    expect(expected).toEqual({ compact: 2, microcompact: 0 });
    // Copies of both boundaries sit in the other logs: counted, they would make 5.
    const all = countCompactions(files.map((f) => (f.name.endsWith('.jsonl') ? f.content : '')).join('\n'));
    expect(all.compact).toBe(5);

    await openEmpty(page);
    await dropFiles(page, files);
    await expect(page.getByTestId('session-header')).toBeVisible();
    await expect(page.getByTestId('stat-compactions')).toContainText('2');
    await expect(page.locator('[data-testid="compaction-marker"][data-kind="compact"]')).toHaveCount(
      expected.compact,
    );
    await expect(page.getByTestId('stat-folded')).toContainText('49 copies folded');
    // The .meta.json files are read, not reported as "not a transcript".
    await expect(page.getByTestId('stat-issues')).toContainText('0');
    await expect(page.getByTestId('stat-subagents')).toHaveAttribute(
      'title',
      /Explore: Find the lexer tests/,
    );
    // The other logs are named as the replay strip names them: subagents apart from compaction calls.
    await expect(page.getByTestId('stat-subagents')).toContainText('5 other logs');
    await expect(page.getByTestId('stat-subagents')).toHaveAttribute(
      'title',
      /^2 subagents, 1 side question, 2 compaction calls\n/,
    );
    await expect(page.getByTestId('subagent-transcript')).toHaveCount(0);
    // A subagent's entry shows the agent type its .meta.json gives.
    await page.getByTestId('transcript-row').filter({ hasText: 'nothing else feeds tokenizeLine' }).click();
    await expect(page.getByTestId('entry-agent')).toContainText('a0f1e2d3c4b5a6978 Explore');

    // First compaction: its log holds a cut-off answer and the retry; the cost is the retry's.
    const markers = page.locator('[data-testid="compaction-marker"][data-kind="compact"]');
    await markers.nth(0).click();
    const card = page.getByTestId('compaction-card');
    await expect(card.getByTestId('compaction-cost')).toContainText('61,400 in · 790 out');
    await expect(card.getByTestId('compaction-calls').locator('li')).toHaveCount(2);
    await expect(card.getByTestId('compaction-calls').locator('li[data-summary]')).toContainText('L3');
    await expect(card.getByTestId('compaction-cost-partial')).toHaveCount(0);
    await card.getByTestId('compaction-card-close').click();

    // Second: the summary call's usage (42,859 in), its 2 output tokens marked partial.
    await markers.nth(1).click();
    await expect(card.getByTestId('compaction-cost')).toContainText('42,859 in · 2 out');
    await expect(card.getByTestId('compaction-cost').getByTestId('compaction-cost-partial')).toBeVisible();
  });

  test('a side-question log opened alone says it is a sub-agent transcript', async ({ page }) => {
    await openEmpty(page);
    await dropFiles(page, [read(FOLDER_FILES.aside)]);
    await expect(page.getByTestId('subagent-transcript')).toContainText('sub-agent transcript');
  });
});
