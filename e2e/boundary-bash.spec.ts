import fs from 'node:fs';
import path from 'node:path';
import { dropFiles, expect, openEmpty, SAMPLES_DIR, test } from './fixtures';

// The side panel's "Bash outputs" tab lists long shell results (the boundary-scoring chart is in
// strategies.spec.ts).

const INDEX = path.join(SAMPLES_DIR, 'index.json');

test.describe('bash outputs', () => {
  test.skip(!fs.existsSync(INDEX), 'public/samples/index.json is not there yet (run the sample generator)');

  test('lists shell outputs over 5,000 characters in the Bash outputs tab', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByTestId('session-header')).toBeVisible();
    await page.getByTestId('tab-bash').click();
    const panel = page.getByTestId('bash-summaries-panel');
    await expect(panel).toBeVisible();
    await expect(panel).toContainText('shell results (Bash) over 5,000 characters');
    await expect(page.getByTestId('bash-summaries-total')).toHaveText(/^[\d,]+$/);
  });

  test('links each long shell output to its entry, with the total saved', async ({ page }) => {
    await openEmpty(page);
    await dropFiles(page, [{ name: 'long-bash.jsonl', content: longBashSession() }]);
    await expect(page.getByTestId('session-header')).toBeVisible();
    await page.getByTestId('tab-bash').click();
    const rows = page.getByTestId('bash-summary-row');
    await expect(rows).toHaveCount(2);
    await expect(rows.first()).toHaveAttribute('data-judgement', 'log-spew');
    await expect(rows.nth(1)).toHaveAttribute('data-judgement', 'unique');
    const saved = Number(await rows.first().getAttribute('data-saved'));
    expect(saved).toBeGreaterThan(0);
    await expect(page.getByTestId('bash-summaries-total')).toHaveText(saved.toLocaleString('en-US'));
    await rows.first().getByRole('button').click();
    await expect(page.getByTestId('entry-detail')).toHaveAttribute('data-entry-index', /\d+/);
  });
});

/** A Claude Code session with a long build log, a long unique output and a short one. */
function longBashSession(): string {
  const build = Array.from({ length: 300 }, (_, i) => `[${i + 1}/300] Compiling crate_${i} v0.1.0`).join(
    '\n',
  );
  const letters = (i: number) => String.fromCharCode(97 + (i % 26), 97 + ((i / 26) | 0));
  const prose = Array.from(
    { length: 120 },
    (_, i) =>
      `Paragraph ${letters(i)} is about the ${letters(i * 7)} design of the ${letters(i * 11)} module`,
  ).join('\n');
  const lines: string[] = [];
  let parent: string | null = null;
  const push = (n: number, type: 'user' | 'assistant', content: unknown) => {
    const uuid = `u${n}`;
    const message =
      type === 'assistant'
        ? {
            id: `m${n}`,
            role: 'assistant',
            model: 'claude-test',
            content,
            usage: { input_tokens: 10, output_tokens: 5 },
          }
        : { role: 'user', content };
    const timestamp = new Date(Date.UTC(2026, 0, 1, 9, 0, n)).toISOString();
    lines.push(
      JSON.stringify({
        parentUuid: parent,
        isSidechain: false,
        type,
        sessionId: 's',
        version: '2.1.68',
        uuid,
        timestamp,
        message,
      }),
    );
    parent = uuid;
  };
  push(0, 'user', 'Build it.');
  [build, prose, 'ok'].forEach((text, i) => {
    push(2 * i + 1, 'assistant', [
      { type: 'tool_use', id: `t${i}`, name: 'Bash', input: { command: `step ${i}` } },
    ]);
    push(2 * i + 2, 'user', [{ type: 'tool_result', tool_use_id: `t${i}`, content: text }]);
  });
  return `${lines.join('\n')}\n`;
}
