import fs from 'node:fs';
import path from 'node:path';
import { countCompactions, expect, getSummaryTexts, SAMPLES_DIR, test } from './fixtures';

const INDEX = path.join(SAMPLES_DIR, 'index.json');

test.describe('the bundled sample', () => {
  test.skip(!fs.existsSync(INDEX), 'public/samples/index.json is not there yet (run the sample generator)');

  test('opens on start with its compactions', async ({ page }) => {
    await page.goto('/');
    const header = page.getByTestId('session-header');
    await expect(header).toBeVisible();
    await expect(page.getByTestId('stat-entries')).not.toContainText(/^0 /);
    // The tab names what is open: the session's name, as the header shows it.
    const name = page.getByTestId('header-title');
    await expect(name).toHaveText('Tally CLI: journal parser, report and export commands');
    await expect(page).toHaveTitle(`${await name.textContent()} · CompactLab`);
    await expect(page.getByTestId('stat-user-turns')).toBeVisible();
    await expect(page.getByTestId('stat-api-calls')).toBeVisible();
    const auto = page.locator('[data-testid="compaction-marker"][data-kind="compact"][data-trigger="auto"]');
    const manual = page.locator(
      '[data-testid="compaction-marker"][data-kind="compact"][data-trigger="manual"]',
    );
    const micro = page.locator('[data-testid="compaction-marker"][data-kind="microcompact"]');
    await expect(auto.first()).toBeVisible();
    await expect(manual).toHaveCount(1);
    await expect(micro.first()).toBeVisible();

    // The main file as the server serves it (the build's copy of public/), read independently:
    // marker count and the full text of every summary.
    const index = (await (await page.request.get('/samples/index.json')).json()) as {
      files: { path: string; role: string }[];
    };
    const main = index.files.find((f) => f.role === 'main') ?? index.files[0]!;
    const text = await (await page.request.get(`/samples/${main.path}`)).text();
    const counts = countCompactions(text);
    const mainMarkers = page.locator('[data-testid="compaction-marker"]:not(.side)');
    await expect(mainMarkers).toHaveCount(counts.compact + counts.microcompact);
    const summaries = getSummaryTexts(text);
    // What each compaction cost, from the compaction calls' own logs (read independently).
    const costs: string[] = [];
    for (const f of index.files.filter((file) => file.role === 'compaction-call')) {
      const lines = (await (await page.request.get(`/samples/${f.path}`)).text()).trim().split('\n');
      const usage = JSON.parse(lines.at(-1)!).message.usage;
      const input = usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens;
      costs.push(`${input.toLocaleString('en-US')} in · ${usage.output_tokens.toLocaleString('en-US')} out`);
    }
    expect(costs.length).toBeGreaterThan(0);
    const compacts = page.locator('[data-testid="compaction-marker"][data-kind="compact"]:not(.side)');
    for (let i = 0; i < summaries.length; i++) {
      await compacts.nth(i).click();
      const summary = page.getByTestId('compaction-card').getByTestId('compaction-summary');
      await expect(summary).toBeVisible();
      expect(await summary.textContent()).toBe(summaries[i]);
      expect(costs).toContain(await page.getByTestId('compaction-cost').textContent());
    }
    await micro.first().click();
    await expect(page.getByTestId('compaction-card')).toHaveAttribute('data-kind', 'microcompact');
    await expect(page.getByTestId('cleared-tools').locator('li').first()).toBeVisible();

    // Subagent rows sit indented under the Task call that spawned them.
    await page.getByTestId('compaction-card-close').click();
    await page.getByTestId('search-input').fill('');
    const subagentRow = page.locator('[data-testid="transcript-row"][data-depth="1"]').first();
    await page.getByTestId('filter-all').click(); // every kind; the next chip shows only its own
    await page.getByTestId('filter-tool-call').click();
    await page.getByTestId('filter-assistant-text').click();
    // The walk starts on the filtered list: its index comes from the worker, and a walk begun on
    // the whole list (1,358 rows) ended before the filtered one replaced it (a loaded CI machine).
    const count = page.getByTestId('row-count');
    await expect(count).toHaveText(/^[\d,]+ of [\d,]+ rows$/);
    await expect
      .poll(async () => {
        const text = (await count.textContent()) ?? '';
        const [shown, total] = (text.match(/[\d,]+/g) ?? []).map((n) => Number(n.replaceAll(',', '')));
        return shown !== undefined && total !== undefined && shown < total;
      })
      .toBe(true);
    const list = page.getByTestId('transcript-list');
    // Down the list a viewport at a time (steps of a fortieth of its height skipped rows on a long
    // list), each step's rows rendered (two frames) and loaded before they are looked at (a loaded
    // CI machine passed the subagent's rows while they were placeholders, or before they rendered).
    const inDom = async () => (await subagentRow.count()) > 0;
    for (let k = 0; k < 400 && !(await inDom()); k++) {
      const atEnd = await list.evaluate((el) => {
        const before = el.scrollTop;
        el.scrollTop = before + el.clientHeight * 0.8;
        return el.scrollTop === before;
      });
      await page.evaluate(
        () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
      );
      await expect(list.locator('.t-row.placeholder')).toHaveCount(0);
      if (atEnd) break;
    }
    // Polled: the virtual list re-renders its rows while the scroll settles and their pages load
    // (a one-shot scrollIntoViewIfNeeded on the row found first failed once, the row re-rendered).
    await expect(async () => {
      await subagentRow.scrollIntoViewIfNeeded({ timeout: 1000 });
      await expect(subagentRow).toBeInViewport({ timeout: 1000 });
    }).toPass();
  });

  test('?sample=0 skips it', async ({ page }) => {
    await page.goto('/?sample=0');
    await expect(page.getByTestId('empty-title')).toBeVisible();
    await expect(page.getByTestId('session-header')).toHaveCount(0);
    await expect(page).toHaveTitle('CompactLab');
  });
});
