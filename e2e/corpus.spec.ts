import fs from 'node:fs';
import path from 'node:path';
import {
  CORPUS_FILE,
  countCompactions,
  dropFiles,
  expect,
  getSummaryTexts,
  openEmpty,
  test,
} from './fixtures';

test.describe('a real transcript dropped onto the page', () => {
  test.skip(!fs.existsSync(CORPUS_FILE), `corpus file not found at ${CORPUS_FILE}`);

  test('shows one marker per compaction, and the card shows the full summary', async ({ page }) => {
    const text = fs.readFileSync(CORPUS_FILE, 'utf8');
    const expected = countCompactions(text);
    const summaries = getSummaryTexts(text);
    expect(expected).toEqual({ compact: 3, microcompact: 1 }); // what FORMAT.md says this file holds

    await openEmpty(page);
    await dropFiles(page, [{ name: CORPUS_FILE.split('/').pop()!, content: text }]);
    await expect(page.getByTestId('session-header')).toBeVisible();
    const lines = text.split('\n').filter((l) => l.trim() !== '').length;
    await expect(page.getByTestId('stat-entries')).toContainText(lines.toLocaleString('en-US'));

    const markers = page.getByTestId('compaction-marker');
    await expect(markers.locator('[data-kind="compact"]')).toHaveCount(0); // markers are the buttons themselves
    await expect(page.locator('[data-testid="compaction-marker"][data-kind="compact"]')).toHaveCount(
      expected.compact,
    );
    await expect(page.locator('[data-testid="compaction-marker"][data-kind="microcompact"]')).toHaveCount(
      expected.microcompact,
    );
    await expect(page.getByTestId('transcript-row').first()).toBeVisible();

    // The second compaction's card: the complete summary, not the 2,000-char preview.
    await page.locator('[data-testid="compaction-marker"][data-kind="compact"]').nth(1).click();
    const card = page.getByTestId('compaction-card');
    await expect(card).toBeVisible();
    const summary = card.getByTestId('compaction-summary');
    await expect(summary).toBeVisible();
    const shown = await summary.textContent();
    expect(shown).toBe(summaries[1]);
    expect(summaries[1]!.length).toBeGreaterThan(2_000);
    // What it freed: the context before less the next call's, as the card's own figures say.
    const figure = async (id: string) =>
      Number((await card.getByTestId(id).textContent())!.replace(/[^\d]/g, ''));
    const [pre, post] = [await figure('compaction-pre'), await figure('compaction-post')];
    expect(pre).toBeGreaterThan(post);
    await expect(card.getByTestId('compaction-freed')).toHaveText(
      `${(pre - post).toLocaleString('en-US')} tok (${Math.round((100 * (pre - post)) / pre)}%)`,
    );

    // The microcompact card lists the cleared tool results.
    await page.locator('[data-testid="compaction-marker"][data-kind="microcompact"]').click();
    await expect(card).toHaveAttribute('data-kind', 'microcompact');
    await expect(card.getByTestId('cleared-tools').locator('li')).toHaveCount(8);
    // Its context as the API counted it, the call before and the call after (158,279 → 130,468 in
    // the raw records); the boundary's own preTokens (60,199), the agent's count, named so: the
    // card said 'before 60,199 tok' above 'next call 130,468 tok'.
    await expect(card.getByTestId('compaction-call-before')).toHaveText('158,279 tok');
    await expect(card).toContainText('next call130,468 tok');
    await expect(card.getByTestId('compaction-log-pre')).toHaveText("60,199 tok (the boundary's preTokens)");
    await expect(card.locator('dt', { hasText: /^before$/ })).toHaveCount(0);

    // Following a cleared id reveals its result in the transcript, marked "cleared".
    await card.getByTestId('cleared-tools').locator('button').first().click();
    const selected = page.locator('[data-testid="transcript-row"][aria-selected="true"]');
    await expect(selected).toHaveAttribute('data-tool-status', 'cleared');
    await expect(selected).toContainText('cleared');
    await card.getByTestId('compaction-card-close').click();
    await expect(card).toBeHidden();
    await expect(page.getByTestId('entry-detail')).toContainText('Cleared by microcompact');
  });

  // The file begins with `summary` records of earlier sessions (their leafUuid in none of its
  // records); its own comes later. The header names it by its own, and the list's scan agrees.
  test("is named by its own summary, not by the earlier sessions' that lead the file", async ({ page }) => {
    const text = fs.readFileSync(CORPUS_FILE, 'utf8');
    const records = text
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as { type?: string; uuid?: string; leafUuid?: string; summary?: string });
    const uuids = new Set(records.map((r) => r.uuid));
    const summaries = records.filter((r) => r.type === 'summary');
    const own = summaries.filter((r) => uuids.has(r.leafUuid));
    const others = summaries.filter((r) => !uuids.has(r.leafUuid));
    expect(others.length).toBeGreaterThan(0);
    // Every earlier session's summary leads the file (the list's scan relies on it: session-title.ts).
    expect(records.indexOf(others.at(-1)!)).toBe(others.length - 1);
    const expected = own.at(-1)!.summary!;
    await openEmpty(page);
    await dropFiles(page, [{ name: path.basename(CORPUS_FILE), content: text }]);
    const title = page.getByTestId('header-title');
    await expect(title).toHaveText(expected);
    await expect(title).toHaveAttribute(
      'title',
      new RegExp(`its summary record, line ${records.indexOf(own.at(-1)!) + 1}$`),
    );
    // The tab names it too (several tabs of sessions told apart).
    await expect(page).toHaveTitle(`${expected} · CompactLab`);
  });

  test('two sessions opened together: the first is read, the other listed as left out', async ({ page }) => {
    const other = CORPUS_FILE.replace(
      '120e3499-cd68-46de-a639-d9ef55d094fc',
      '19722b8a-e1b0-467d-9bc0-4a199bfdafd7',
    );
    test.skip(!fs.existsSync(other), `corpus file not found at ${other}`);
    const first = fs.readFileSync(CORPUS_FILE, 'utf8');
    const lines = first.split('\n').filter((l) => l.trim() !== '').length;
    await openEmpty(page);
    await dropFiles(page, [
      { name: '120e3499-cd68-46de-a639-d9ef55d094fc.jsonl', content: first },
      { name: '19722b8a-e1b0-467d-9bc0-4a199bfdafd7.jsonl', content: fs.readFileSync(other, 'utf8') },
    ]);
    // The entries are the first file's alone (they were both files' interleaved, drawn as a fork).
    await expect(page.getByTestId('stat-entries')).toContainText(lines.toLocaleString('en-US'));
    const chip = page.getByTestId('other-sessions');
    await expect(chip).toHaveText('1 file of other sessions left out');
    // The top bar names what was read.
    await expect(page.locator('.current-label')).toHaveText(
      '120e3499-cd68-46de-a639-d9ef55d094fc.jsonl (1 of other sessions left out)',
    );
    await chip.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('issues-panel')).toContainText(
      '19722b8a-e1b0-467d-9bc0-4a199bfdafd7.jsonl is another session (19722b8a-e1b0-467d-9bc0-4a199bfdafd7',
    );
    // The other session opens alone from the header, from the keyboard.
    const list = page.getByTestId('other-sessions-open');
    await list.locator('summary').focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await expect(list).not.toHaveAttribute('open');
    await page.keyboard.press('Enter');
    await page.getByTestId('other-session').focus();
    await page.keyboard.press('Enter');
    const otherLines = fs
      .readFileSync(other, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '').length;
    await expect(page.getByTestId('stat-entries')).toContainText(otherLines.toLocaleString('en-US'));
    await expect(page.getByTestId('other-sessions')).toHaveCount(0);
  });

  test("a pi session on models without a list price: pi's own cost, and the replay says it has no price", async ({
    page,
  }) => {
    const pi = path.join(
      path.dirname(CORPUS_FILE),
      '../foreign/timerloggedout-spec__termux-monorepo/.pi/agent/sessions/--data-data-com.termux-files-home--/2026-05-07T13-49-54-044Z_019e02b3-bbeb-74cc-ab75-076b653c68a7.jsonl',
    );
    test.skip(!fs.existsSync(pi), `corpus file not found at ${pi}`);
    await openEmpty(page);
    await dropFiles(page, [{ name: path.basename(pi), content: fs.readFileSync(pi, 'utf8') }]);
    // The sum of the answers' usage.cost.total, as pi states them.
    await expect(page.getByTestId('stat-stated-cost')).toHaveText('$0.106 cost stated by the log');
    // It read "cost $0.000 · real $0.000".
    await expect(page.getByTestId('replay-cost')).toHaveText("cost: no list price for the log's 14 calls");
  });

  test('a compaction that freed nothing says so: the next call carried more than the last before', async ({
    page,
  }) => {
    // A real haiku session whose first call already carried 171k: each of its five compactions
    // came back at ~192k.
    const file = path.join(
      path.dirname(CORPUS_FILE),
      '../LAF-US__IDAHO-VAULT/claude__projects__c--Users-loganf-Documents-IDAHO-VAULT__b2b82754-6b66-414f-a275-d7370efaf6ad.jsonl',
    );
    test.skip(!fs.existsSync(file), `corpus file not found at ${file}`);
    await openEmpty(page);
    await dropFiles(page, [{ name: path.basename(file), content: fs.readFileSync(file, 'utf8') }]);
    await page.getByTestId('compaction-marker').first().click();
    const card = page.getByTestId('compaction-card');
    await expect(card.getByTestId('compaction-pre')).toHaveText('171,501 tok');
    await expect(card.getByTestId('compaction-post')).toHaveText('192,536 tok');
    await expect(card.getByTestId('compaction-freed')).toHaveText('none: 21,035 tok more after it');
  });
});
