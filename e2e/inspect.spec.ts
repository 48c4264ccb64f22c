import fs from 'node:fs';
import { CORPUS_FILE, dropFiles, expect, openEmpty, test } from './fixtures';

test.describe('inspecting a transcript', () => {
  test.skip(!fs.existsSync(CORPUS_FILE), `corpus file not found at ${CORPUS_FILE}`);

  test('row detail, raw JSON, search, tokens panel and knobs', async ({ page }) => {
    const text = fs.readFileSync(CORPUS_FILE, 'utf8');
    await openEmpty(page);
    await dropFiles(page, [{ name: 'session.jsonl', content: text }]);
    await expect(page.getByTestId('session-header')).toBeVisible();

    // Search narrows the rows; selecting one shows its detail.
    await page.getByTestId('search-input').fill('TODOWRITE');
    const rows = page.getByTestId('transcript-row');
    await expect(rows.first()).toContainText('TodoWrite');
    // Each row marks where it matched, whatever the case typed.
    const hit = rows.first().getByTestId('search-hit').first();
    await expect(hit).toHaveText(/^todowrite$/i);
    expect(await hit.evaluate((el) => el.tagName)).toBe('MARK');
    await rows.first().click();
    const detail = page.getByTestId('entry-detail');
    await expect(detail).toContainText('TodoWrite');
    await page.getByTestId('detail-tab-raw').click();
    const raw = page.getByTestId('raw-json');
    await expect(raw).toContainText('"type": "assistant"');
    await expect(raw).toContainText('"name": "TodoWrite"');

    // Keyboard navigation moves the selection.
    const before = await detail.getAttribute('data-entry-index');
    await page.getByTestId('transcript-list').press('ArrowDown');
    await expect(detail).not.toHaveAttribute('data-entry-index', before ?? '');

    // Tokens panel: real usage next to the estimate.
    await page.getByTestId('tab-tokens').click();
    const tokens = page.getByTestId('tokens-panel');
    await expect(tokens).toBeVisible();
    await expect(tokens.getByTestId('token-row').first()).toBeVisible();

    // Knobs move the thresholds.
    const auto = page.getByTestId('threshold-autocompact');
    // The log's own version (2.1.12) reserves 32k of output: 200k − 32k − 13k.
    await expect(auto).toHaveAttribute('data-value', '155000');
    await page.getByTestId('knob-profile').selectOption('v2.1.68');
    await expect(auto).toHaveAttribute('data-value', '167000');
    await page.getByTestId('knob-window').selectOption('1000000');
    await expect(auto).toHaveAttribute('data-value', '967000');
    await page.getByTestId('knob-window').selectOption('200000');
    await page.getByTestId('knob-pct').fill('50');
    await expect(auto).toHaveAttribute('data-value', '90000');
    await page.getByTestId('knob-pct').fill('');
    await page.getByTestId('knob-max-output').fill('8000');
    await expect(auto).toHaveAttribute('data-value', '179000');
    // 1.0.x before 1.0.71 (its cli.js, docs/sources.md#cc-npm-constants): 92% of (200k − 8k).
    await page.getByTestId('knob-profile').selectOption('legacy');
    await expect(auto).toHaveAttribute('data-value', '176640');

    // Hovering the chart shows the call's tokens.
    const timeline = page.getByTestId('timeline');
    const box = (await timeline.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.6);
    await expect(page.getByTestId('timeline-tooltip')).toContainText('context');
  });
});
